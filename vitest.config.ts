import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Database and HTTP tests: they need the migrated template database of test/global-setup.ts. */
const INTEGRATION = ['**/*.db.test.ts', '**/*.http.test.ts'];
const EXCLUDE = ['node_modules/**', '.next/**', 'bench/bare-app/**', '.data/**', 'e2e/**'];
/**
 * Pure tests that take seconds each: they start processes (the CLI, the stack runner, LibreOffice, unzip, a
 * second Node with a heap limit), render and scan PDFs, generate keys, build 1,000-line invoices or parse every
 * product file. They run in the `heavy` project, so that `npm run test:unit` stays a quick loop; `npm test` runs them.
 */
const HEAVY = [
  'scripts/import-graph.test.ts',
  'scripts/start-up-configuration.test.ts',
  'scripts/cli-output.test.ts',
  'scripts/fetch-ksef-schemas.test.ts',
  'server/observability/heap-growth.test.ts',
  'server/db/embedded.test.ts',
  'server/exports/register-csv.test.ts',
  'server/exports/zip-writer.test.ts',
  'server/pdf/render.test.ts',
  'server/pdf/skip-default-font.test.ts',
  'server/ksef-connection/read-certificate.test.ts',
  'server/ksef/fa3/size.test.ts',
  'server/documents/check-before-number.property.test.ts',
  'server/api/openapi.test.ts',
];

/**
 * Three projects: `unit` (pure tests, no database, no global set-up: `npm run test:unit` runs in seconds), `heavy`
 * (the slow pure tests above) and `integration` (*.db.test.ts and *.http.test.ts, real PostgreSQL, emulators and
 * servers). `npm test` runs all three.
 */
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      // The marker throws outside React's server condition; tests import server modules directly, as Next.js does.
      'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // the tests' webhook receivers listen on 127.0.0.1
    env: { APP_SECRET: 'test-app-secret-not-for-production', ALLOW_PRIVATE_TARGETS: '1' },
    projects: [
      {
        extends: true,
        // Threads sharing one module graph per worker: no unit test sets the environment, resets the config cache or
        // fakes the clock, and importing each module once instead of once per file was most of the loop's time.
        test: { name: 'unit', include: ['**/*.test.ts', '**/*.test.tsx'], exclude: [...EXCLUDE, ...INTEGRATION, ...HEAVY], pool: 'threads', isolate: false },
      },
      { extends: true, test: { name: 'heavy', include: HEAVY, exclude: EXCLUDE } },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: EXCLUDE, globalSetup: ['./test/global-setup.ts'] } },
    ],
  },
});
