/**
 * The stack's worker processes (scripts/stack.ts, the benchmarks; `npm run start:worker-pdf` spells the same):
 * PDF rendering blocks its event loop for a while per document, so it gets a process of its own, one PDF at a
 * time. Its lane steps (pdf_render, which also sends each first e-mail) are a small share of the jobs, so it polls
 * (every 200 ms) instead of waking for every job any process adds, which made it look and find nothing about five
 * times per document. The lane's e-mail retries (mail_send) run in the main worker.
 */
export const WORKER_PROCESSES = {
  worker: { WORKER_TASKS: '-pdf_render' },
  'worker-pdf': { WORKER_TASKS: 'pdf_render', WORKER_CONCURRENCY: '1', WORKER_WAKE_ON_NEW_JOBS: '0', WORKER_POLL_MS: '200' },
} as const satisfies Record<string, Record<string, string>>;
