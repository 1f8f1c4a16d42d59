/**
 * A gzip-compressed ustar archive, the `TarGz` package format KSeF accepts for batch sessions since API 2.6.0
 * (OpenAPI `CompressionType`: Zip | TarGz). One gzip stream over all files compresses many similar invoices far better
 * than Zip, which compresses each file on its own. Only what a batch needs: regular files with names up to 100 bytes.
 */
import { gzipSync } from 'node:zlib';

const BLOCK = 512;

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`tar: file name longer than 100 bytes: ${name}`);
  nameBytes.copy(h, 0);
  h.write('0000644\0', 100, 'ascii'); // mode
  h.write('0000000\0', 108, 'ascii'); // uid
  h.write('0000000\0', 116, 'ascii'); // gid
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii'); // mtime: fixed, so the same invoices give the same bytes
  h.write('        ', 148, 'ascii'); // checksum counts as spaces while it is summed
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

export function tarGzSync(files: Record<string, Uint8Array>, level = 9): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, data] of Object.entries(files)) chunks.push(header(name, data.length), Buffer.from(data), padding(data.length));
  chunks.push(Buffer.alloc(2 * BLOCK));
  return gzipSync(Buffer.concat(chunks), { level });
}
