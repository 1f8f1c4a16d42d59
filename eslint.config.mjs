import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** Next.js' recommended rules with TypeScript; the type checker itself runs as `npm run typecheck`. */
const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: ['node_modules/**', '.next/**', '.data/**', 'drizzle/**', 'next-env.d.ts', 'test-results/**', 'e2e/artifacts/**'] },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // use…() in tests are vitest fixtures (a database, an emulator), not React hooks
  { files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
];

export default config;
