import { getServerSession } from 'next-auth';
import { authOptions } from '../auth/next-auth';
import { db } from '../db/client';
import { createCallerFactory } from './init';
import { readMode } from './mode-cookie';
import { appRouter } from './root';

const createCaller = createCallerFactory(appRouter);

/** Server components call procedures through this, like the browser does through /api/trpc; null when signed out. */
export async function serverCaller(cookieHeader: string) {
  const session = (await getServerSession(authOptions())) as { userId?: string } | null;
  if (!session?.userId) return null;
  return createCaller({ db: db(), userId: session.userId, mode: readMode(cookieHeader) });
}
