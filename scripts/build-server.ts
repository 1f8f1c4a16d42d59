import path from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Compiles the processes that are not Next.js into plain JavaScript under dist/ (no TypeScript loader at run time):
 * the worker, the CLI and the migrations. The '@/' alias comes from tsconfig's paths; packages stay in node_modules.
 * Run from the project directory (the processes read drizzle/ and node_modules from there).
 */
const ENTRIES = { worker: 'worker/main.ts', cli: 'scripts/cli.ts', migrate: 'scripts/migrate.ts' };

/** `server-only` throws outside React Server Components; a plain Node process is server-side by definition. */
const serverOnly: Plugin = {
  name: 'server-only',
  setup(b) {
    b.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }));
  },
};

const started = Date.now();
await build({
  entryPoints: ENTRIES,
  outdir: path.resolve('dist'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // without splitting, every package a lazily imported task uses becomes a static import of the bundle, and each
  // process would load the PDF stack and the FA(3) schema whatever tasks it runs
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  plugins: [serverOnly],
  // the bundles are the production processes: React (the PDF worker's renderer) would otherwise run its
  // development build, about 30 % slower; an explicit NODE_ENV still wins. React is loaded lazily, after this line.
  banner: { js: "process.env.NODE_ENV ??= 'production';" },
  logLevel: 'warning',
});
process.stdout.write(
  `built ${Object.keys(ENTRIES)
    .map((e) => `dist/${e}.mjs`)
    .join(', ')} in ${Date.now() - started} ms\n`,
);
