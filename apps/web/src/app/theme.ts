import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Ten shades around the spec's primary #76bb46 (index 6, Mantine's light-scheme shade). */
const dentflowGreen: MantineColorsTuple = [
  '#f1f9ec',
  '#e2f1d8',
  '#c5e3b0',
  '#a6d486',
  '#8cc863',
  '#7dc04f',
  '#76bb46',
  '#64a337',
  '#57912e',
  '#467b22',
];

/** Spec §9 breakpoints (sm 640, md 768, lg 1024, xl 1280, xxl 1536 px) in em (16 px). */
export const theme = createTheme({
  primaryColor: 'dentflow',
  primaryShade: 6,
  colors: { dentflow: dentflowGreen },
  breakpoints: { xs: '36em', sm: '40em', md: '48em', lg: '64em', xl: '80em', xxl: '96em' },
  defaultRadius: 'md',
  fontFamily:
    'Montserrat, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});
