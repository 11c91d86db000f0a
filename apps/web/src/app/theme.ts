import {
  createTheme,
  type CSSVariablesResolver,
  type MantineBreakpointsValues,
  type MantineColorsTuple,
} from '@mantine/core';
import { BREAKPOINTS } from '@dentflow/domain';

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

/** Mantine reads breakpoints in em; 1em is the browser's 16 px. */
const em = (px: number) => `${px / 16}em`;

/**
 * Breakpoints from the domain, in em. The spec names no `xs`; Mantine needs one, so it
 * keeps Mantine's own 576 px.
 */
export const breakpoints: MantineBreakpointsValues = {
  xs: em(576),
  ...Object.fromEntries(Object.entries(BREAKPOINTS).map(([name, px]) => [name, em(px)])),
} as MantineBreakpointsValues;

export const theme = createTheme({
  primaryColor: 'dentflow',
  primaryShade: 6,
  colors: { dentflow: dentflowGreen },
  breakpoints,
  defaultRadius: 'md',
  // White on #76bb46 reads at 2.1:1; filled buttons, badges and checkboxes get dark text instead
  // (9.9:1), which keeps the spec's primary colour as the surface.
  autoContrast: true,
  fontFamily:
    'Montserrat, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

/** Links in the darkest shade: #76bb46 text on white is 2.1:1, shade 9 reaches 5.1:1 (WCAG AA). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-anchor': 'var(--mantine-color-dentflow-9)' },
  dark: {},
});
