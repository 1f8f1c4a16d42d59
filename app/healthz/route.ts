export const dynamic = 'force-dynamic';

/** Liveness: the process answers. No key, no database, not rate-limited. */
export const GET = () => Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
