import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '@/server/config';
import { NEXT_BIN, startNext, type RunningProcess } from '@/test/web';

const APP_DIR = path.join(ROOT, 'bench/bare-app');
const BUILD_ID = path.join(APP_DIR, '.next/BUILD_ID');
const SOURCES = ['app/bench/bare/route.ts', 'app/layout.tsx', 'next.config.ts'].map((f) => path.join(APP_DIR, f));

/**
 * The benchmarks' baseline is a Next.js app of its own (bench/bare-app: one route answering `{}`), so that nothing of
 * it is in the product's route tree. It is built with the repository's `next` when it has no build yet, or one
 * older than its sources or than the installed Next.js.
 */
function ensureBuilt(): void {
  const stale = () => {
    if (!existsSync(BUILD_ID)) return true;
    const built = statSync(BUILD_ID).mtimeMs;
    return [...SOURCES, path.join(ROOT, 'node_modules/next/package.json')].some((f) => statSync(f).mtimeMs > built);
  };
  if (!stale()) return;
  console.log('building bench/bare-app …');
  const res = spawnSync(process.execPath, [NEXT_BIN, 'build', APP_DIR], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`next build bench/bare-app failed (${res.status})\n${res.stdout}${res.stderr}`);
}

/** `next start bench/bare-app` on a free port; GET or POST /bench/bare answers `{}` with 200. */
export async function startBareApp(): Promise<RunningProcess> {
  ensureBuilt();
  return startNext({ appDir: APP_DIR, readyPath: '/bench/bare' });
}
