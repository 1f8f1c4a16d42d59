import { readFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/server/config';
import { NIP_WEIGHTS } from './nip';

/** A random NIP with a valid check digit, as the Java client's tests make them (README §5.3). */
export function randomNip(): string {
  for (;;) {
    const digits = [1 + Math.floor(Math.random() * 9), ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 10))];
    if (digits[1] === 0 && digits[2] === 0) continue;
    const check = digits.reduce((sum, d, i) => sum + d * (NIP_WEIGHTS[i] ?? 0), 0) % 11;
    if (check < 10) return [...digits, check].join('');
  }
}

let sample: string | undefined;

/** The official FA(3) sample with the seller NIP, invoice number and optionally the issue date replaced. */
export function sampleInvoice(opts: { nip: string; number: string; issueDate?: string }): string {
  sample ??= readFileSync(path.join(config().KSEF_SCHEMAS_DIR, '../samples/fa3-sample.xml'), 'utf8');
  const [head, rest] = sample.split('</Podmiot1>') as [string, string];
  let xml = `${head.replace(/<NIP>\d{10}<\/NIP>/, `<NIP>${opts.nip}</NIP>`)}</Podmiot1>${rest}`;
  xml = xml.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${opts.number}</P_2>`);
  if (opts.issueDate) xml = xml.replace(/<P_1>[^<]*<\/P_1>/, `<P_1>${opts.issueDate}</P_1>`);
  return xml;
}
