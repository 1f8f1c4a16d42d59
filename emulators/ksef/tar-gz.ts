/**
 * Reads the TarGz batch packages KSeF accepts since API 2.6.0 (`batchFile.compressionType`): gzip over a ustar
 * archive, regular files only. Written apart from the client's writer so that each checks the other.
 */
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

const field = (h: Buffer, at: number, len: number) => h.toString('utf8', at, at + len).replace(/\0.*$/s, '');

/** The regular files of a TarGz archive; throws on a truncated or corrupt one. */
export function untarGzSync(archive: Uint8Array): Record<string, Uint8Array> {
  const tar = gunzipSync(archive);
  const out: Record<string, Uint8Array> = {};
  for (let at = 0; at + BLOCK <= tar.length;) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return out;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] ?? 0);
    if (parseInt(field(h, 148, 8).trim(), 8) !== sum) throw new Error(`tar: bad header checksum at byte ${at}`);
    const prefix = field(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(h, 0, 100);
    const size = parseInt(field(h, 124, 12).trim() || '0', 8);
    const type = field(h, 156, 1);
    const start = at + BLOCK;
    if (start + size > tar.length) throw new Error(`tar: ${name} is truncated`);
    if (type === '0' || type === '') out[name] = tar.subarray(start, start + size);
    at = start + size + ((BLOCK - (size % BLOCK)) % BLOCK);
  }
  throw new Error('tar: archive has no end marker');
}
