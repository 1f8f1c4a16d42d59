import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { untarGzSync } from '@/emulators/ksef/tar-gz';
import { tarGzSync } from './tar-gz';

const files = {
  'a.xml': Buffer.from('<Faktura>zażółć</Faktura>'),
  'b.xml': Buffer.alloc(1_024, 65), // exactly two blocks: no padding
  'empty.xml': Buffer.alloc(0),
};

test('what tarGzSync writes, untarGzSync reads back byte for byte', () => {
  const hex = (f: Record<string, Uint8Array>) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Buffer.from(v).toString('hex')]));
  expect(hex(untarGzSync(tarGzSync(files)))).toEqual(hex(files));
});

test('GNU tar lists and extracts the archive (KSeF unpacks it with a standard tool, not ours)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'targz-'));
  writeFileSync(path.join(dir, 'p.tar.gz'), tarGzSync(files));
  expect(execFileSync('tar', ['-tzf', 'p.tar.gz'], { cwd: dir, encoding: 'utf8' }).trim().split('\n')).toEqual(['a.xml', 'b.xml', 'empty.xml']);
  execFileSync('tar', ['-xzf', 'p.tar.gz'], { cwd: dir });
  expect(readFileSync(path.join(dir, 'a.xml'), 'utf8')).toBe('<Faktura>zażółć</Faktura>');
});

test('a corrupt header or a cut archive is refused', () => {
  const tar = gunzipSync(tarGzSync(files));
  const bad = Buffer.from(tar);
  bad[0] = 0x5a;
  expect(() => untarGzSync(gzipSync(bad))).toThrow(/checksum/);
  expect(() => untarGzSync(gzipSync(tar.subarray(0, 1_700)))).toThrow(/truncated/);
});
