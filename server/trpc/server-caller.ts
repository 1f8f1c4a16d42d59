import 'server-only';
import { cache } from 'react';
import { db } from '@/server/db/client';
import { readDashboardSession } from '@/server/auth/dashboard-session';
import { createCallerFactory } from './init';
import { appRouter } from './root';

const createCaller = createCallerFactory(appRouter);

/**
 * Server components call procedures through this, like the browser does through /api/trpc; null when signed out.
 * React's per-request cache reads the session once for the layout and the page of one request.
 */
export const serverCaller = cache(async (cookieHeader: string) => {
  const session = await readDashboardSession(cookieHeader);
  if (!session.userId) return null;
  return createCaller({ db: db(), ...session });
});
