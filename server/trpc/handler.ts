import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { db } from '@/server/db/client';
import { readDashboardSession } from '@/server/auth/dashboard-session';
import { appRouter } from './root';

/** A state-changing call from another site is refused before it runs: sessions ride on cookies. */
function crossSite(req: Request): boolean {
  if (req.method === 'GET') return false;
  const origin = req.headers.get('origin');
  if (origin === null) return false;
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  return new URL(origin).host !== host;
}

/** POST/GET /api/trpc/*: the session from next-auth, the mode from its cookie. */
export async function handleTrpc(req: Request): Promise<Response> {
  if (crossSite(req)) return new Response('cross-site request refused', { status: 403 });
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: async () => {
      return { db: db(), ...(await readDashboardSession(req.headers.get('cookie'))) };
    },
  });
}
