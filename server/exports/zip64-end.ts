/**
 * fflate writes the classic end of central directory only, whose entry count is 16 bits: an archive of more than
 * 65,535 files needs the ZIP64 end record and its locator before it (PKWARE APPNOTE.TXT 4.3.14–4.3.16; sizes and
 * offsets below 4 GiB stay in the classic fields). `tail` is fflate's last chunk: the central directory followed by
 * the 22-byte end record; `offset` is the number of bytes written before it.
 */
const EOCD_BYTES = 22;
const MAX_CLASSIC_ENTRIES = 0xffff;
const MAX_CLASSIC_OFFSET = 0xffffffff;

export function withZip64End(tail: Uint8Array, offset: number, entries: number): Uint8Array {
  const cdSize = tail.length - EOCD_BYTES;
  if (offset + tail.length > MAX_CLASSIC_OFFSET) throw new Error('the archive passed 4 GiB, beyond what its entries can address');
  if (entries <= MAX_CLASSIC_ENTRIES) return tail;
  const out = new Uint8Array(cdSize + 56 + 20 + EOCD_BYTES);
  out.set(tail.subarray(0, cdSize), 0);
  const v = new DataView(out.buffer, cdSize);
  // ZIP64 end of central directory record (4.3.14)
  v.setUint32(0, 0x06064b50, true);
  v.setBigUint64(4, 44n, true); // size of the record after this field
  v.setUint16(12, 45, true); // made by: version 4.5
  v.setUint16(14, 45, true); // needed to extract: 4.5 (ZIP64)
  v.setUint32(16, 0, true);
  v.setUint32(20, 0, true);
  v.setBigUint64(24, BigInt(entries), true);
  v.setBigUint64(32, BigInt(entries), true);
  v.setBigUint64(40, BigInt(cdSize), true);
  v.setBigUint64(48, BigInt(offset), true);
  // ZIP64 end of central directory locator (4.3.15)
  v.setUint32(56, 0x07064b50, true);
  v.setUint32(60, 0, true);
  v.setBigUint64(64, BigInt(offset + cdSize), true);
  v.setUint32(72, 1, true);
  // classic end record with the counts saturated: readers take them from the ZIP64 record (4.4.22)
  out.set(tail.subarray(cdSize), cdSize + 76);
  const e = new DataView(out.buffer, cdSize + 76);
  e.setUint16(8, MAX_CLASSIC_ENTRIES, true);
  e.setUint16(10, MAX_CLASSIC_ENTRIES, true);
  return out;
}
