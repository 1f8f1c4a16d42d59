import { expect, test } from 'vitest';
import { bucketTotals, rateTotals, vatFromGross } from './vat';

test.each([
  { gross: 12_300, rate: 23, vat: 2_300 },
  { gross: 1_000, rate: 8, vat: 74 },
  { gross: 149_897, rate: 23, vat: 28_030 }, // fixture 4817: 1498.97 → 280.2952
  { gross: 17_980, rate: 8, vat: 1_332 },
  { gross: 141_898, rate: 23, vat: 26_534 },
  { gross: 51_300, rate: 23, vat: 9_593 },
  { gross: 10_750, rate: 8, vat: 796 },
  { gross: 10_500, rate: 5, vat: 500 },
  { gross: 4_321, rate: 0, vat: 0 },
  { gross: -100, rate: 23, vat: -19 },
  { gross: -7_999, rate: 23, vat: -1_496 },
  { gross: 0, rate: 23, vat: 0 },
] as const)('$gross gr at $rate % → $vat gr VAT', ({ gross, rate, vat }) => expect(vatFromGross(gross, rate)).toBe(vat));

// With integer grosze and rates 23/8/5 no exact half can occur (2·g·r is never an odd multiple of 100+r),
// so the rounding rule shows as sign symmetry plus "nearest grosz".
test('negative amounts round like their positive mirror, to the nearest grosz', () => {
  for (let g = 0; g <= 5_000; g++) {
    for (const rate of [23, 8, 5] as const) {
      const vat = vatFromGross(g, rate);
      expect(Math.abs(vat - (g * rate) / (100 + rate))).toBeLessThan(0.5);
      expect(vatFromGross(-g, rate)).toBe(vat === 0 ? 0 : -vat); // never -0
    }
  }
});

test('net + vat = gross for every amount', () => {
  for (let g = -5000; g <= 5000; g += 7) {
    for (const rate of [23, 8, 5, 0] as const) {
      const t = rateTotals(rate, g);
      expect(t.netGrosze + t.vatGrosze).toBe(g);
    }
  }
});

test('rounds the bucket, not each line', () => {
  expect(
    bucketTotals([
      { grossGrosze: 100, rate: 23 },
      { grossGrosze: 100, rate: 23 },
    ])[0]?.vatGrosze,
  ).toBe(37);
  expect(vatFromGross(100, 23) * 2).toBe(38);
});

test('buckets come in 23, 8, 5, 0 order and skip empty rates', () => {
  const buckets = bucketTotals([
    { grossGrosze: 500, rate: 0 },
    { grossGrosze: 1000, rate: 8 },
    { grossGrosze: 2460, rate: 23 },
  ]);
  expect(buckets.map((b) => b.rate)).toEqual([23, 8, 0]);
  expect(buckets[0]).toEqual({ rate: 23, grossGrosze: 2460, vatGrosze: 460, netGrosze: 2000 });
});
