import { routeNotFound } from '../../../server/http/route';

export const dynamic = 'force-dynamic';

/**
 * The benchmarks' baseline: Next.js routing and a JSON answer with no work behind it. It exists only in a server
 * started with BENCH_BARE_ROUTE=1 (bench/lib/stack.ts); everywhere else it is an unknown path like any other.
 */
const bare = async (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }): Promise<Response> =>
  process.env.BENCH_BARE_ROUTE === '1' ? Response.json({}) : routeNotFound(req, ctx);

export { bare as GET, bare as POST, bare as PUT, bare as PATCH, bare as DELETE };
