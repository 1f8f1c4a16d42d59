/** Runs once when a Next.js server starts (web process): the configuration check and the workers' heap limit (issue 19). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { checkConfigAtStart } = await import('@/server/config');
  checkConfigAtStart();
  const { limitHeapGrowth } = await import('@/server/observability/heap-growth');
  limitHeapGrowth();
}
