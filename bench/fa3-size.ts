/**
 * Cost of the intake's FA(3) size check (issue 13 item 3): the bound is a full build of the document with the
 * longest placeholders, so this prints its time and the bound for orders of 10, 100 and 1000 lines.
 * Run: npx tsx bench/fa3-size.ts [-- runs=20]
 */
import { invoiceSizeBound } from '@/server/ksef/fa3/size';
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
  invoiceSizeBound(order); // warm-up
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < args.runs; i++) {
    const t0 = performance.now();
    size = invoiceSizeBound(order);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${String(n).padStart(4)} lines, name ${String(name.length).padStart(3)} chars: bound ${size} bytes, median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
  );
}
