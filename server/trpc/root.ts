import 'server-only';
import { accountRouter } from './routers/account';
import { apiKeysRouter } from './routers/api-keys';
import { authRouter } from './routers/auth';
import { eventsRouter } from './routers/events';
import { invitesRouter } from './routers/invites';
import { exportsRouter } from './routers/exports';
import { invoicesRouter } from './routers/invoices';
import { ksefRouter } from './routers/ksef';
import { membersRouter } from './routers/members';
import { storesRouter } from './routers/stores';
import { offlineRouter } from './routers/offline';
import { webhooksRouter } from './routers/webhooks';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  ksef: ksefRouter,
  offline: offlineRouter,
  invoices: invoicesRouter,
  webhooks: webhooksRouter,
  apiKeys: apiKeysRouter,
  events: eventsRouter,
  exports: exportsRouter,
  stores: storesRouter,
  members: membersRouter,
  invites: invitesRouter,
});

export type AppRouter = typeof appRouter;
