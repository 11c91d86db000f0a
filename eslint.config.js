import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const onlyRepositoriesUseDrizzle = {
  group: ['drizzle-orm', 'drizzle-orm/*'],
  message: 'Only *.repository.ts and src/db may import drizzle.',
};
// A module is used by others only through its index.ts ('../cases', never '../cases/cases.service').
const otherModulesThroughIndex = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/.+',
  message: "Import another module through its index.ts ('../<module>'), never its files.",
};

/**
 * An import cycle makes load order decide whether a binding is initialised yet; code depends in
 * one direction only. The resolver reads the app's tsconfig so extensionless relative imports and
 * folder index.ts imports resolve as the compiler resolves them.
 */
function noImportCycles(files, tsconfig) {
  return {
    files,
    plugins: { 'import-x': importX },
    settings: {
      // Without these import-x skips .ts files when it follows imports, and finds no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: `${import.meta.dirname}/${tsconfig}` }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  };
}

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/migrations/**', 'test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Type-aware rules only where a dropped promise hurts: application sources, not tests or
    // configs, so lint time stays reasonable.
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/domain/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  noImportCycles(['apps/server/src/**/*.ts'], 'apps/server/tsconfig.json'),
  noImportCycles(['apps/web/src/**/*.{ts,tsx}'], 'apps/web/tsconfig.json'),
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Only repositories talk to the database.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/modules/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [onlyRepositoriesUseDrizzle] }] },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [onlyRepositoriesUseDrizzle, otherModulesThroughIndex] },
      ],
      // The process's logger has no request id; `logFor(ctx, scope)` takes the request's.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='ctx'][property.name='log']",
          message:
            "Log through logFor(ctx, scope) with the call's caller, meta or request, so a request's lines carry its id.",
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.repository.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModulesThroughIndex] }] },
  },
  {
    // A module's index.ts offers services, never its repository: one module owns each table.
    // The audit log is the shared port every module writes to.
    files: ['apps/server/src/modules/*/index.ts'],
    ignores: ['apps/server/src/modules/audit/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportNamedDeclaration[source.value=/repository$/], ExportAllDeclaration',
          message:
            "A module's index.ts must not re-export its repository; offer a service function.",
        },
      ],
    },
  },
);
