import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, Zip, ZipPassThrough } from 'fflate';
import { expect, test } from 'vitest';
import { withZip64End } from './zip64-end';

function zipOf(count: number): Buffer {
  const chunks: Uint8Array[] = [];
  let written = 0;
  const zip = new Zip((err, chunk, final) => {
    if (err) throw err;
    chunks.push(final ? withZip64End(chunk, written, count) : chunk);
    written += chunk.length;
  });
  for (let i = 0; i < count; i++) {
    const f = new ZipPassThrough(`f${i}.txt`);
    zip.add(f);
    f.push(new TextEncoder().encode(String(i)), true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

const unzipList = (zip: Buffer) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'zip64-')), 'a.zip');
  writeFileSync(file, zip);
  return execFileSync('unzip', ['-Z1', file], { maxBuffer: 64 << 20 }).toString().trim().split('\n');
};

test('up to 65,535 files the classic end record is left as fflate wrote it', () => {
  const zip = zipOf(3);
  expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50);
  expect(zip.readUInt16LE(zip.length - 12)).toBe(3);
  expect(unzipList(zip)).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
});

test('70,000 files: the ZIP64 end record and locator carry the count; unzip and fflate list every file', { timeout: 60_000 }, () => {
  const zip = zipOf(70_000);
  expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50);
  expect(zip.readUInt16LE(zip.length - 12)).toBe(0xffff);
  expect(zip.readUInt32LE(zip.length - 22 - 20)).toBe(0x07064b50);
  expect(zip.readUInt32LE(zip.length - 22 - 20 - 56)).toBe(0x06064b50);
  expect(Number(zip.readBigUInt64LE(zip.length - 22 - 20 - 56 + 32))).toBe(70_000);
  const names = unzipList(zip);
  expect([names.length, names[69_999]]).toEqual([70_000, 'f69999.txt']);
  const files = unzipSync(new Uint8Array(zip));
  expect([Object.keys(files).length, new TextDecoder().decode(files['f65536.txt'])]).toEqual([70_000, '65536']);
});
