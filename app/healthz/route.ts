import { methodNotAllowed } from '@/server/http/route';

export const dynamic = 'force-dynamic';

/** Liveness: the process answers. No key, no database, not rate-limited. */
export const GET = () => Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });

const otherMethod = methodNotAllowed('GET');
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
