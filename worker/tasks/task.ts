import type { JobHelpers } from 'graphile-worker';
import type { Db } from '@/server/db/client';
import type { JobPayload, TaskName } from '@/server/jobs/registry';

/** A task adapter: gets the worker's database and the payload already parsed by the registry's schema. */
export type TaskHandler<T extends TaskName> = (db: Db) => (payload: JobPayload<T>, helpers: JobHelpers) => Promise<void>;
