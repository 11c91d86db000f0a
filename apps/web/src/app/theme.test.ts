import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { breakpoints } from './theme';

// postcss.config.cjs cannot import the domain's TypeScript, so this keeps its copy in step.
const postcssConfig = createRequire(import.meta.url)('../../postcss.config.cjs') as {
  plugins: { 'postcss-simple-vars': { variables: Record<string, string> } };
};

describe('breakpoints', () => {
  it('are the widths (sm 640 … xxl 1536 px) in em', () => {
    expect(breakpoints).toMatchObject({
      sm: '40em',
      md: '48em',
      lg: '64em',
      xl: '80em',
      xxl: '96em',
    });
  });

  it('are the same in the CSS variables PostCSS gives CSS modules', () => {
    const variables = postcssConfig.plugins['postcss-simple-vars'].variables;
    for (const [name, value] of Object.entries(breakpoints)) {
      expect(variables[`mantine-breakpoint-${name}`], name).toBe(value);
    }
  });
});
