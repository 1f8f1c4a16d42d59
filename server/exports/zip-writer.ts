import { deflateRawSync } from 'node:zlib';
import { Deflate } from 'fflate';

/**
 * A ZIP written front to back (PKWARE APPNOTE.TXT 6.3), for archives of any number of files and any size: what it
 * keeps per file is its central directory record, about 80 bytes, in one growing buffer (fflate's Zip keeps about
 * 1 KB of objects per file, 150 MB for a 50,000-document month, measured). Whole files (their size known) get
 * their sizes in the local header; a file written piece by piece gets a data descriptor (flag bit 3). Past 65,535
 * files or 4 GiB the ZIP64 end records and extra fields are added (4.3.14–4.3.15, 4.5.3).
 */
const TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** CRC-32 as ZIP uses it (4.4.7), continued from `crc` for data that comes in pieces. */
export function crc32(data: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const STORE = 0;
const DEFLATE = 8;

/** MS-DOS time and date (4.4.6) of an instant, in UTC. */
function dosDateTime(at: Date): { time: number; date: number } {
  const y = Math.max(at.getUTCFullYear(), 1980);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((y - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export class ZipWriter {
  private offset = 0;
  private count = 0;
  private central: Uint8Array = new Uint8Array(1 << 16);
  private centralLength = 0;
  private readonly stamp: { time: number; date: number };

  constructor(modified: Date) {
    this.stamp = dosDateTime(modified);
  }

  /** A whole file, deflated (XML, CSV) or stored (PDFs, deflated inside already): the bytes to write. */
  file(name: string, data: Uint8Array, compress: boolean): Uint8Array[] {
    const body = compress ? deflateRawSync(data, { level: 6 }) : data;
    const entry = { name: Buffer.from(name, 'utf8'), method: compress ? DEFLATE : STORE, flags: 0, crc: crc32(data), size: data.length, packed: body.length };
    const header = this.localHeader(entry);
    this.record(entry, this.offset);
    this.offset += header.length + body.length;
    return [header, body];
  }

  /** A file written piece by piece and deflated, starting where the archive stands: `push` and `end` give the bytes to write. */
  stream(name: string): { push: (data: Uint8Array) => Uint8Array[]; end: () => Uint8Array[] } {
    const entry = { name: Buffer.from(name, 'utf8'), method: DEFLATE, flags: 0x08, crc: 0, size: 0, packed: 0 };
    const start = this.offset;
    const out: Uint8Array[] = [];
    const deflate = new Deflate({ level: 6 }, (chunk) => {
      out.push(chunk);
      entry.packed += chunk.length;
    });
    const header = this.localHeader(entry);
    out.push(header);
    this.offset += header.length;
    const take = () => {
      const chunks = out.splice(0);
      for (const c of chunks) if (c !== header) this.offset += c.length;
      return chunks;
    };
    return {
      push: (data) => {
        entry.crc = crc32(data, entry.crc);
        entry.size += data.length;
        deflate.push(data);
        return take();
      },
      end: () => {
        deflate.push(new Uint8Array(0), true);
        const chunks = take();
        // data descriptor (4.3.9); ZIP64 sizes are never needed for one register
        const dd = new DataView(new ArrayBuffer(16));
        dd.setUint32(0, 0x08074b50, true);
        dd.setUint32(4, entry.crc, true);
        dd.setUint32(8, entry.packed, true);
        dd.setUint32(12, entry.size, true);
        this.offset += 16;
        this.record(entry, start);
        return [...chunks, new Uint8Array(dd.buffer)];
      },
    };
  }

  /** The central directory and the end records. */
  end(): Uint8Array[] {
    const cdOffset = this.offset;
    const cdSize = this.centralLength;
    const zip64 = this.count > MAX16 || cdOffset > MAX32 || cdSize > MAX32;
    const tail = new DataView(new ArrayBuffer((zip64 ? 56 + 20 : 0) + 22));
    let at = 0;
    if (zip64) {
      tail.setUint32(0, 0x06064b50, true); // ZIP64 end of central directory record (4.3.14)
      tail.setBigUint64(4, 44n, true);
      tail.setUint16(12, 45, true);
      tail.setUint16(14, 45, true);
      tail.setBigUint64(24, BigInt(this.count), true);
      tail.setBigUint64(32, BigInt(this.count), true);
      tail.setBigUint64(40, BigInt(cdSize), true);
      tail.setBigUint64(48, BigInt(cdOffset), true);
      tail.setUint32(56, 0x07064b50, true); // its locator (4.3.15)
      tail.setBigUint64(64, BigInt(cdOffset + cdSize), true);
      tail.setUint32(72, 1, true);
      at = 76;
    }
    tail.setUint32(at, 0x06054b50, true); // end of central directory record (4.3.16)
    tail.setUint16(at + 8, Math.min(this.count, MAX16), true);
    tail.setUint16(at + 10, Math.min(this.count, MAX16), true);
    tail.setUint32(at + 12, Math.min(cdSize, MAX32), true);
    tail.setUint32(at + 16, Math.min(cdOffset, MAX32), true);
    return [this.central.subarray(0, this.centralLength), new Uint8Array(tail.buffer)];
  }

  private localHeader(e: { name: Uint8Array; method: number; flags: number; crc: number; size: number; packed: number }): Uint8Array {
    const h = new DataView(new ArrayBuffer(30 + e.name.length));
    h.setUint32(0, 0x04034b50, true); // local file header (4.3.7)
    h.setUint16(4, 20, true);
    h.setUint16(6, e.flags, true);
    h.setUint16(8, e.method, true);
    h.setUint16(10, this.stamp.time, true);
    h.setUint16(12, this.stamp.date, true);
    h.setUint32(14, e.flags & 0x08 ? 0 : e.crc, true);
    h.setUint32(18, e.flags & 0x08 ? 0 : e.packed, true);
    h.setUint32(22, e.flags & 0x08 ? 0 : e.size, true);
    h.setUint16(26, e.name.length, true);
    const bytes = new Uint8Array(h.buffer);
    bytes.set(e.name, 30);
    return bytes;
  }

  /** The file's central directory header (4.3.12); an offset past 4 GiB goes in a ZIP64 extra field (4.5.3). */
  private record(e: { name: Uint8Array; method: number; flags: number; crc: number; size: number; packed: number }, offset: number): void {
    const big = offset > MAX32 - 1;
    const length = 46 + e.name.length + (big ? 12 : 0);
    if (this.centralLength + length > this.central.length) {
      const grown = new Uint8Array(Math.max(this.central.length * 2, this.centralLength + length));
      grown.set(this.central.subarray(0, this.centralLength));
      this.central = grown;
    }
    const r = new DataView(this.central.buffer, this.central.byteOffset + this.centralLength, length);
    r.setUint32(0, 0x02014b50, true);
    r.setUint16(4, big ? 45 : 20, true);
    r.setUint16(6, big ? 45 : 20, true);
    r.setUint16(8, e.flags, true);
    r.setUint16(10, e.method, true);
    r.setUint16(12, this.stamp.time, true);
    r.setUint16(14, this.stamp.date, true);
    r.setUint32(16, e.crc, true);
    r.setUint32(20, e.packed, true);
    r.setUint32(24, e.size, true);
    r.setUint16(28, e.name.length, true);
    r.setUint16(30, big ? 12 : 0, true);
    r.setUint32(42, big ? MAX32 : offset, true);
    this.central.set(e.name, this.centralLength + 46);
    if (big) {
      r.setUint16(46 + e.name.length, 0x0001, true);
      r.setUint16(48 + e.name.length, 8, true);
      r.setBigUint64(50 + e.name.length, BigInt(offset), true);
    }
    this.centralLength += length;
    this.count++;
  }
}
