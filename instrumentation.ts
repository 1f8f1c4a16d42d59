/**
 * Runs once when a Next.js server starts (web process): a bad environment stops it with one error line naming what
 * is wrong (rather than an error on every request); the same heap limit as the workers (issue 19); a Request-Id on
 * the answers Next.js and Node write themselves (addRequestIdToEveryAnswer).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { checkProcessConfig } = await import('@/server/observability/check-config');
  if (!checkProcessConfig('web')) process.exit(1);
  const { limitHeapGrowth } = await import('@/server/observability/heap-growth');
  limitHeapGrowth();
  const { addRequestIdToEveryAnswer } = await import('@/server/http/node-answers');
  addRequestIdToEveryAnswer();
}
