import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Database and HTTP tests: they need the migrated template database of test/global-setup.ts. */
const INTEGRATION = ['**/*.db.test.ts', '**/*.http.test.ts'];
const EXCLUDE = ['node_modules/**', '.next/**', 'bench/bare-app/**', '.data/**', 'e2e/**'];

/**
 * Two projects: `unit` (pure tests, no database, no global set-up: `npm run test:unit` runs in seconds) and
 * `integration` (*.db.test.ts and *.http.test.ts, real PostgreSQL, emulators and servers). `npm test` runs both.
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
      { extends: true, test: { name: 'unit', include: ['**/*.test.ts', '**/*.test.tsx'], exclude: [...EXCLUDE, ...INTEGRATION] } },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: EXCLUDE, globalSetup: ['./test/global-setup.ts'] } },
    ],
  },
});
