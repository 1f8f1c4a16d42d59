/**
 * Cost of the intake's FA(3) size check (issue 13 item 3, issue 33 part 2): the arithmetic estimate the intake
 * computes for every order, and the full build with the longest placeholders it falls back to near the limit; their
 * times and sizes for orders of 10, 100 and 1000 lines.
 * Run: npx tsx bench/fa3-size.ts [-- runs=20]
 */
import { invoiceSizeBound } from '@/server/ksef/fa3/size';
import { invoiceSizeEstimate } from '@/server/ksef/fa3/size-estimate';
import type { NormalizedOrder } from '@/server/orders/types';
import { normalizedOrder } from '@/test/fixtures/normalized-order';
import { readArgs } from './lib/args';

const args = readArgs({ runs: 20 });

const orderOf = (n: number, name: string): NormalizedOrder =>
  normalizedOrder({
    externalId: 'bench',
    number: 'bench',
    lines: Array.from({ length: n }, (_, i) => ({
      ref: null,
      name,
      sku: `SKU-${i}`,
      quantity: 2,
      unitPriceGrosze: 4_999,
      discountGrosze: 100,
      grossGrosze: 9_898,
      vatRate: i % 2 ? 23 : 8,
      annex15: false,
    })),
    shipping: [{ ref: null, name: 'Kurier DPD', grossGrosze: 2_000, vatRate: 23 }],
  });

for (const [n, name] of [
  [10, 'Kubek ceramiczny 300 ml'],
  [100, 'Kubek ceramiczny 300 ml'],
  [1000, 'Kubek ceramiczny 300 ml'],
  [1000, 'Ż'.repeat(300)],
] as const) {
  const order = orderOf(n, name);
  const time = (f: (o: NormalizedOrder) => number) => {
    f(order); // warm-up
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < args.runs; i++) {
      const t0 = performance.now();
      size = f(order);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return `${size} bytes in ${(times[Math.floor(times.length / 2)]! * 1000).toFixed(1)} µs (median)`;
  };
  console.log(
    `${String(n).padStart(4)} lines, name ${String(name.length).padStart(3)} chars: estimate ${time(invoiceSizeEstimate)}; build ${time(invoiceSizeBound)}`,
  );
}
