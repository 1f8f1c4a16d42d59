import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 as zlibCrc } from 'node:zlib';
import { unzipSync } from 'fflate';
import { expect, test } from 'vitest';
import { crc32, ZipWriter } from './zip-writer';

const text = (s: string) => new TextEncoder().encode(s);
const unzip = (zip: Buffer, args: string[]) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'zip-')), 'a.zip');
  writeFileSync(file, zip);
  return execFileSync('unzip', [...args, file], { maxBuffer: 64 << 20 }).toString();
};

test('stored, deflated and streamed files read back byte for byte with unzip -t and fflate', () => {
  const zip = new ZipWriter(new Date('2026-11-27T10:00:00Z'));
  const pdf = new Uint8Array(5000).map((_, i) => (i * 7919) % 251);
  const big = 'Zażółć gęślą jaźń;'.repeat(2000);
  const parts = [...zip.file('2026-11/FV-2026-11-1.xml', text('<Faktura/>'), true), ...zip.file('2026-11/FV-2026-11-1.pdf', pdf, false)];
  const register = zip.stream('2026-11/rejestr-2026-11.csv');
  const bytes = Buffer.concat([...parts, ...register.push(text(big)), ...register.push(text('koniec\r\n')), ...register.end(), ...zip.end()]);
  expect(unzip(bytes, ['-t'])).toMatch(/No errors detected in compressed data/);
  const files = unzipSync(new Uint8Array(bytes));
  expect(Object.keys(files)).toEqual(['2026-11/FV-2026-11-1.xml', '2026-11/FV-2026-11-1.pdf', '2026-11/rejestr-2026-11.csv']);
  expect(Buffer.from(files['2026-11/FV-2026-11-1.pdf']!).equals(Buffer.from(pdf))).toBe(true);
  expect(new TextDecoder().decode(files['2026-11/rejestr-2026-11.csv'])).toBe(`${big}koniec\r\n`);
});

test('CRC-32 in pieces equals the whole', () => {
  const data = text('The quick brown fox jumps over the lazy dog');
  expect(crc32(data)).toBe(0x414fa339);
  expect(crc32(data.subarray(10), crc32(data.subarray(0, 10)))).toBe(0x414fa339);
  expect(crc32(data)).toBe(zlibCrc(data));
});

test('70,000 files: ZIP64 end record and locator carry the count; unzip and fflate list every file', { timeout: 60_000 }, () => {
  const zip = new ZipWriter(new Date('2026-11-27T10:00:00Z'));
  const parts: Uint8Array[] = [];
  for (let i = 0; i < 70_000; i++) parts.push(...zip.file(`f${i}.txt`, text(String(i)), false));
  const bytes = Buffer.concat([...parts, ...zip.end()]);
  expect(bytes.readUInt32LE(bytes.length - 22)).toBe(0x06054b50);
  expect(bytes.readUInt16LE(bytes.length - 12)).toBe(0xffff);
  expect(bytes.readUInt32LE(bytes.length - 22 - 20)).toBe(0x07064b50);
  expect(Number(bytes.readBigUInt64LE(bytes.length - 22 - 20 - 56 + 32))).toBe(70_000);
  const names = unzip(bytes, ['-Z1']).trim().split('\n');
  expect([names.length, names[69_999]]).toEqual([70_000, 'f69999.txt']);
  const files = unzipSync(new Uint8Array(bytes));
  expect([Object.keys(files).length, new TextDecoder().decode(files['f65536.txt'])]).toEqual([70_000, '65536']);
});
