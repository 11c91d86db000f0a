// The breakpoints in em, for CSS modules; the theme derives them from the domain's BREAKPOINTS
// and src/app/theme.test.ts fails if these drift from it.
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
