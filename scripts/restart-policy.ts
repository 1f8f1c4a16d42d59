/** A child that ran this long before exiting is taken as healthy again: its back-off starts over. */
const HEALTHY_AFTER_MS = 60_000;

/**
 * When the stack runner restarts a child that exited: 1 s after a first crash, doubling while it keeps crashing
 * within a minute of starting, at most 30 s.
 */
export function restartAfter(crashesInARow: number, ranForMs: number): { delayMs: number; crashesInARow: number } {
  const n = ranForMs >= HEALTHY_AFTER_MS ? 0 : crashesInARow;
  return { delayMs: Math.min(30_000, 1_000 * 2 ** n), crashesInARow: n + 1 };
}
