/**
 * Batch package size and build time, Zip against TarGz (issue 36 item 3; KSeF API 2.6.0 recommends TarGz for many
 * similar XML files). The invoices come from the real FA(3) builder: 1–12 lines from a catalogue of 40 products,
 * one of 25 buyers each, so they are as alike as a shop's invoices are.
 * Run: npx tsx bench/batch-package.ts [-- runs=5]
 */
import { packInvoices, type CompressionType } from '@/server/ksef/batch-session';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import type { NormalizedOrder } from '@/server/orders/types';
import { normalizedOrder } from '@/test/fixtures/normalized-order';
import { readArgs } from './lib/args';

const args = readArgs({ runs: 5 });

const SELLER = {
  nip: '5265877635',
  name: 'Kawowy Świat Sp. z o.o.',
  address1: 'ul. Marszałkowska 100/5',
  address2: '00-026 Warszawa',
  email: 'faktury@kawowyswiat.example.pl',
};
const PRODUCTS = Array.from({ length: 40 }, (_, i) => ({
  name: `${['Kawa ziarnista', 'Młynek ręczny', 'Kubek ceramiczny', 'Filtr papierowy', 'Herbata liściasta'][i % 5]} ${['250 g', '500 g', '1 kg', 'zestaw', 'premium', 'classic', 'mini', 'XL'][i % 8]}`,
  priceGrosze: 1_990 + ((i * 733) % 15_000),
  vatRate: (i % 5 === 4 ? 8 : 23) as 8 | 23,
}));
const NIPS = ['3861610227', '5260250274', '7740001454', '5213017228', '1132853869'];

function order(i: number): NormalizedOrder {
  const base = normalizedOrder({ lines: [] });
  const lines = Array.from({ length: 1 + ((i * 7) % 12) }, (_, l) => {
    const p = PRODUCTS[(i * 13 + l * 17) % PRODUCTS.length]!;
    const quantity = 1 + ((i + l) % 4);
    return {
      ref: null,
      name: p.name,
      sku: `SKU-${(i * 13 + l * 17) % 40}`,
      quantity,
      unitPriceGrosze: p.priceGrosze,
      discountGrosze: 0,
      grossGrosze: p.priceGrosze * quantity,
      vatRate: p.vatRate,
      annex15: false,
    };
  });
  return normalizedOrder({
    externalId: `WC-${10_000 + i}`,
    number: `${10_000 + i}`,
    paidAt: new Date(Date.UTC(2026, 10, 2, 8) + i * 37_000).toISOString(),
    buyer: { ...base.buyer, nip: NIPS[i % NIPS.length]!, name: `Klient ${i % 25} Sp. z o.o.`, address1: `ul. Długa ${1 + (i % 25)}`, address2: '90-006 Łódź' },
    lines,
    shipping: [{ ref: null, name: 'Kurier DPD', grossGrosze: 1_899, vatRate: 23 }],
  });
}

function files(n: number): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (let i = 0; i < n; i++) {
    const number = `FV/2026/11/${String(i + 1).padStart(5, '0')}`;
    const xml = buildInvoiceXml({
      seller: SELLER,
      order: order(i),
      number,
      issueDate: '2026-11-02',
      systemInfo: 'KSeF Relay',
      generatedAt: new Date(Date.UTC(2026, 10, 2, 9) + i * 1_000),
    });
    out[`${number.replaceAll('/', '_')}.xml`] = Buffer.from(xml, 'utf8');
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log('| invoices | XML bytes | format | package bytes | ratio | build ms (median) |');
console.log('|---:|---:|---|---:|---:|---:|');
for (const n of [100, 1_000]) {
  const set = files(n);
  const xmlBytes = Object.values(set).reduce((s, f) => s + f.length, 0);
  for (const format of ['Zip', 'TarGz'] as CompressionType[]) {
    packInvoices(set, format); // warm-up
    const times: number[] = [];
    let bytes = 0;
    for (let r = 0; r < args.runs; r++) {
      const t0 = performance.now();
      bytes = packInvoices(set, format).archive.length;
      times.push(performance.now() - t0);
    }
    console.log(`| ${n} | ${xmlBytes} | ${format} | ${bytes} | ${(xmlBytes / bytes).toFixed(1)}× | ${median(times).toFixed(1)} |`);
  }
}
