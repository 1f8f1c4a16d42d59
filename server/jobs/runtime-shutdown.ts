import { forget, unlockWorkers } from './heartbeat';
import { isRunningUnder } from './in-flight';
import type { RuntimeHeartbeat } from './runtime-heartbeat';
import type { ReleaseLoop } from './runtime-release-loop';
import { stopRunner } from './runtime-runner-loop';
import type { RuntimeState } from './runtime-state';
import type { WorkerRuntimeOptions } from './worker-runtime-options';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops the runtime: the runner loop ends and the current runner's jobs finish while the heartbeat goes on (so that
 * no other process takes this one for dead); then every job still locked under this process's ids is released, once
 * no job of theirs still runs. If the database cannot be reached, the heartbeat row stays and a survivor releases
 * them once it stops beating.
 */
export async function shutDown(
  o: Pick<WorkerRuntimeOptions, 'db' | 'processId' | 'shutdownTimeoutMs' | 'warn'>,
  s: RuntimeState,
  looping: Promise<void>,
  heartbeat: RuntimeHeartbeat,
  releaseLoop: ReleaseLoop,
): Promise<void> {
  s.stopping = true;
  s.interrupt?.('stopping');
  s.wake?.();
  await looping;
  if (s.current) {
    await stopRunner(o, s.current.runner);
    s.retired.push(...s.current.ids);
    s.current = undefined;
  }
  try {
    for (const t0 = Date.now(); s.retired.some(isRunningUnder) && Date.now() - t0 < o.shutdownTimeoutMs;) await sleep(100);
    releaseLoop.stop();
    heartbeat.stop();
    while (releaseLoop.busy() || heartbeat.busy()) await sleep(20);
    await heartbeat.close();
    const idle = s.retired.filter((id) => !isRunningUnder(id));
    await unlockWorkers(o.db, idle);
    if (idle.length < s.retired.length) throw new Error('jobs still running after the shutdown timeout');
    await forget(o.db, o.processId);
  } catch (err) {
    releaseLoop.stop();
    heartbeat.stop();
    o.warn('worker: could not release jobs on stop; another worker will once this one stops beating', err);
  }
}
