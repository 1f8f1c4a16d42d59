import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** Pure modules of server/ (no I/O, no secrets, no drizzle) that client components may import values from. */
const CLIENT_MAY_IMPORT = [
  // the ground floor of pure shared facts (statuses, event types, VAT rates, error codes)
  'facts/[a-z-]+',
  'orders/nip',
  'accounts/permissions',
  'documents/document-filters',
  'template',
  'ksef-connection/check-errors',
  'documents/warning-texts',
  'webhooks/delivery-failures',
];
/** The pure helpers of server/ the emulators share (paths under server/, for import/no-restricted-paths). */
const EMULATOR_MAY_IMPORT = [
  './ksef/crypto.ts',
  './ksef/ksef-number.ts',
  './ksef/xsd.ts',
  './ksef/xmldsig-algorithms.ts',
  './calendar/date-text.ts',
  './calendar/working-days.ts',
  './ksef/qr.ts',
];

/** Next.js' recommended rules with TypeScript; the type checker itself runs as `npm run typecheck`. */
const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'bench/bare-app/.next/**',
      'bench/bare-app/next-env.d.ts',
      '.data/**',
      'drizzle/**',
      'next-env.d.ts',
      'test-results/**',
      'e2e/artifacts/**',
      'dist/**',
      'sdk/dist/**',
    ],
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Product code, with type information: a promise nobody awaits loses its failure (and, in a transaction, its
    // statement); one handed where a void callback is expected runs unawaited. A function longer than 80 lines is an error: split it into named parts.
    files: ['app/**/*.{ts,tsx}', 'server/**/*.{ts,tsx}', 'worker/**/*.ts', 'emulators/**/*.ts', 'scripts/**/*.ts', 'proxy.ts', 'instrumentation.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    // One import order everywhere: node's own, packages, the project's (@/), then relative; `eslint --fix` sorts it.
    files: ['**/*.{ts,tsx,mjs}'],
    rules: {
      'import/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          pathGroups: [{ pattern: '@/**', group: 'internal' }],
          pathGroupsExcludedImportTypes: ['builtin'],
          'newlines-between': 'never',
          distinctGroup: false,
        },
      ],
    },
  },
  // Boundaries. Tests and test support (test/, *.test.ts) may reach anywhere: they start emulators and servers.
  {
    files: ['server/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './server', from: ['./emulators', './worker', './app'], message: 'Product code in server/ does not import emulators/, worker/ or app/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['emulators/**/*.ts'],
    ignores: ['**/*.test.ts', 'emulators/ksef/testing.ts'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './emulators',
              from: './server',
              except: EMULATOR_MAY_IMPORT,
              message: `Emulators stand in for other parties: from server/ they import only the pure helpers ${EMULATOR_MAY_IMPORT.join(', ')}.`,
            },
          ],
        },
      ],
    },
  },
  {
    // Client components (and what they import) reach the browser bundle: from server/ only types and pure modules.
    files: ['app/components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/server/(?!(${CLIENT_MAY_IMPORT.join('|')})$)`,
              allowTypeImports: true,
              message: `Client components import types from server/, and values only from the pure modules ${CLIENT_MAY_IMPORT.join(', ')}.`,
            },
            { regex: '^(\\.\\./)+server/', message: 'Import server/ through the @/ alias, so that the boundary rule sees it.' },
          ],
        },
      ],
    },
  },
  // use…() in tests are vitest fixtures (a database, an emulator), not React hooks
  { files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
];

export default config;
