// Spec §9 breakpoints (sm 640, md 768, lg 1024, xl 1280, xxl 1536 px) in em, as Mantine expects.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '40em',
        'mantine-breakpoint-md': '48em',
        'mantine-breakpoint-lg': '64em',
        'mantine-breakpoint-xl': '80em',
        'mantine-breakpoint-xxl': '96em',
      },
    },
  },
};
