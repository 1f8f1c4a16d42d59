import QRCode from 'qrcode';

/** Modules of white border a scanner needs around a QR symbol, drawn inside the symbol's box. */
export const QUIET_MODULES = 4;

export type QrRuns = {
  /** Modules per side, without the quiet zone. */
  size: number;
  /** Horizontal runs of dark modules as [x, y, length], in module units. */
  runs: Array<[number, number, number]>;
};

/**
 * The QR code as rectangles, drawn as vectors so it stays sharp at any zoom and print resolution.
 * Level M: the brief leaves the level open, and M keeps a ~110-character KOD I link scannable.
 */
export function qrRuns(text: string): QrRuns {
  // one byte-mode segment: the links are short, and the library's segment optimiser cost more than the code
  const { modules } = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const { size } = modules;
  const runs: QrRuns['runs'] = [];
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!modules.get(y, x)) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < size && modules.get(y, x)) x += 1;
      runs.push([start, y, x - start]);
    }
  }
  return { size, runs };
}
