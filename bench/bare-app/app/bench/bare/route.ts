export const dynamic = 'force-dynamic';

/** The benchmarks' baseline: Next.js routing and a JSON answer with no work behind it. */
const bare = (): Response => Response.json({});

export { bare as GET, bare as POST };
