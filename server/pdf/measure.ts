import { fontMetrics, type FontWeight } from './fonts';

/**
 * Measures text so the renderer can paginate before react-pdf lays anything out. The line
 * breaking is deliberately a little pessimistic (breaks only at spaces, width shrunk by a margin):
 * a row measured one line too tall wastes a few points, a row measured too short would overlap.
 */

const SAFETY = 0.96;
const widthCache: Record<FontWeight, Map<number, number>> = { normal: new Map(), bold: new Map() };

/** Advance width in em units (1 = the font size). */
function charWidth(codePoint: number, weight: FontWeight): number {
  const cache = widthCache[weight];
  let w = cache.get(codePoint);
  if (w === undefined) {
    const font = fontMetrics(weight);
    w = font.glyphForCodePoint(codePoint).advanceWidth / font.unitsPerEm;
    cache.set(codePoint, w);
  }
  return w;
}

export function measureWidth(text: string, fontSize: number, weight: FontWeight = 'normal'): number {
  let em = 0;
  for (const ch of text) em += charWidth(ch.codePointAt(0) ?? 32, weight);
  return em * fontSize;
}

/** How many lines `text` takes in a box `width` points wide; explicit newlines start new lines. */
export function countLines(text: string, width: number, fontSize: number, weight: FontWeight = 'normal'): number {
  const limit = width * SAFETY;
  const space = measureWidth(' ', fontSize, weight);
  let lines = 0;
  for (const paragraph of text.split('\n')) {
    lines += 1;
    let used = 0;
    for (const word of paragraph.split(' ')) {
      let w = measureWidth(word, fontSize, weight);
      const needed = used === 0 ? w : used + space + w;
      if (needed <= limit) {
        used = needed;
        continue;
      }
      if (used > 0) lines += 1;
      // A word wider than the box is broken between characters.
      while (w > limit) {
        lines += 1;
        w -= limit;
      }
      used = w;
    }
  }
  return lines;
}
