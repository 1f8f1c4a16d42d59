import { expect, test } from 'vitest';
import { restartAfter } from './restart-policy';

test('a crashing child comes back after 1, 2, 4 … 30 s; a minute of running resets the back-off', () => {
  let crashes = 0;
  const delays: number[] = [];
  for (let i = 0; i < 7; i++) {
    const next = restartAfter(crashes, 2_000);
    delays.push(next.delayMs);
    crashes = next.crashesInARow;
  }
  expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  expect(restartAfter(crashes, 61_000)).toEqual({ delayMs: 1_000, crashesInARow: 1 });
});
