import { createDb } from '@/server/db/client';
import { isDatabaseUnavailable } from '@/server/db/faults';
import { beat } from './heartbeat';
import type { WorkerRuntimeOptions } from './worker-runtime-options';

export type RuntimeHeartbeat = {
  /** graphile-worker's forbiddenFlags: a fetch under an id no committed beat has named waits for a beat naming it. */
  fetchGuard: () => string[] | null | Promise<string[] | null>;
  /** A beat is in flight. */
  busy: () => boolean;
  stop: () => void;
  /** Closes the heartbeat's own connection. */
  close: () => Promise<void>;
};

/**
 * The heartbeat has a connection and a timer of its own, quick to time out and renewed on any failure: a process
 * whose beats stop is taken as dead and its locks are released while its jobs may still run, so neither a pool busy
 * with jobs or broken by a lost server connection, nor the release work (on that pool), may delay it.
 */
export function startHeartbeat(
  o: Pick<WorkerRuntimeOptions, 'connectionString' | 'processId' | 'heartbeatMs' | 'log' | 'warn'>,
  ids: () => string[],
  forbiddenFlags: (() => string[]) | undefined,
): RuntimeHeartbeat {
  const newBeatDb = () => createDb(o.connectionString, { max: 1, connectTimeoutSeconds: 3 });
  let beatDb = newBeatDb();
  /** Ids a committed beat has named: only their jobs may be fetched (an unnamed id's locks are anybody's to free). */
  const named = new Set<string>();
  let beating: Promise<void> | undefined;
  // one beat at a time, so that a beat never overwrites a later one's ids
  const beatOnce = (): Promise<void> =>
    (beating ??= (async () => {
      const naming = ids();
      await beat(beatDb, o.processId, naming).catch((err: unknown) => {
        if (!isDatabaseUnavailable(err)) throw err;
        void beatDb.$client.end({ timeout: 1 }).catch(() => {});
        beatDb = newBeatDb();
        return beat(beatDb, o.processId, naming);
      });
      for (const id of naming) named.add(id);
    })().finally(() => (beating = undefined)));
  /** A beat that started after now: it names every id this process has now. */
  const announce = async () => {
    await beating?.catch(() => {});
    await beatOnce();
  };
  let beatFailures = 0;
  const timer = setInterval(() => {
    if (beating) return; // a beat against an unreachable database can outlast the interval
    beatOnce().then(
      () => {
        if (beatFailures > 0) o.log(`worker: database reachable again after ${beatFailures} failed heartbeats`);
        beatFailures = 0;
      },
      (err) => {
        if (beatFailures++ === 0) o.warn('worker: heartbeat failed, retrying', err);
      },
    );
  }, o.heartbeatMs);
  return {
    // graphile-worker asks for the forbidden flags before every fetch and awaits a promise: a new runner's first
    // fetch waits here until a beat names its id (a pool locks jobs under an id it made up on creation)
    fetchGuard: () => (ids().every((id) => named.has(id)) ? (forbiddenFlags?.() ?? null) : announce().then(() => forbiddenFlags?.() ?? null)),
    busy: () => beating !== undefined,
    stop: () => clearInterval(timer),
    close: () => beatDb.$client.end({ timeout: 1 }).catch(() => {}),
  };
}
