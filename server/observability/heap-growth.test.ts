import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '@/server/config';

/**
 * A process that keeps about 25 MB alive while it allocates fast, as a worker does between documents; it prints
 * the largest heap V8 reserved. V8 ignores a flag it does not know without a word, so this is what shows the
 * limit works on this Node.
 */
function peakHeapMb(percent: number): number {
  const script = `
    import { limitHeapGrowth } from '@/server/observability/heap-growth';
    limitHeapGrowth(${percent});
    const live = [];
    let peak = 0;
    for (let i = 0; i < 3000; i++) {
      live.push(Array.from({ length: 2000 }, (_, j) => ({ i, j, s: 'row ' + j })));
      if (live.length > 200) live.shift();
      peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(Math.round(peak / 1048576));`;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim());
}

describe('limitHeapGrowth', () => {
  it('keeps the heap near what is alive, where V8 alone lets it grow to several times that', () => {
    const own = peakHeapMb(0);
    const limited = peakHeapMb(20);
    expect(limited).toBeLessThan(own * 0.7);
  }, 60_000);
});
