import type { Runner } from 'graphile-worker';

/** What the steps of one worker runtime share: its runner, the graphile-worker ids it locks jobs under, its stop. */
export type RuntimeState = {
  stopping: boolean;
  current: { runner: Runner; ids: string[] } | undefined;
  /** The ids of a runner being started, recorded before run() returns. */
  starting: string[];
  /** Ids of replaced runners whose jobs are not released yet. */
  retired: string[];
  /** Ends the wait on the current runner with a reason to replace it. */
  interrupt?: (reason: string) => void;
  /** Ends the wait before the next attempt to start a runner. */
  wake?: () => void;
};

/** Every id this process holds jobs under now. */
export const heldIds = (s: RuntimeState): string[] => [...(s.current?.ids ?? s.starting), ...s.retired];
