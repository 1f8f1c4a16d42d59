/**
 * Runs once when a Next.js server starts (web process): the same heap limit as the workers (issue 19), and a
 * Request-Id on the answers Next.js and Node write themselves (addRequestIdToEveryAnswer).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { limitHeapGrowth } = await import('@/server/observability/heap-growth');
  limitHeapGrowth();
  const { addRequestIdToEveryAnswer } = await import('@/server/http/node-answers');
  addRequestIdToEveryAnswer();
}
