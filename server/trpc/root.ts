import 'server-only';
import { accountRouter } from './routers/account';
import { apiKeysRouter } from './routers/api-keys';
import { authRouter } from './routers/auth';
import { eventsRouter } from './routers/events';
import { exportsRouter } from './routers/exports';
import { invoicesRouter } from './routers/invoices';
import { ksefRouter } from './routers/ksef';
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
});

export type AppRouter = typeof appRouter;
