import { fontFor, type FontWeight } from './fonts';

/**
 * Text measurement and line breaking with the embedded font's own advance widths. The layout draws exactly
 * the lines computed here (react-pdf's text engine is not involved), so measured and printed text agree.
 */

const widths: Record<FontWeight, Float64Array | undefined> = { normal: undefined, bold: undefined };

/** Advance widths in em of the Basic Multilingual Plane, filled on first use. */
function table(weight: FontWeight): Float64Array {
  let t = widths[weight];
  if (!t) {
    t = new Float64Array(0x10000).fill(-1);
    widths[weight] = t;
  }
  return t;
}

function charWidth(codePoint: number, weight: FontWeight): number {
  const t = table(weight);
  const cached = codePoint < 0x10000 ? t[codePoint] : -1;
  if (cached !== undefined && cached >= 0) return cached;
  const font = fontFor(weight);
  const w = font.glyphForCodePoint(codePoint).advanceWidth / font.unitsPerEm;
  if (codePoint < 0x10000) t[codePoint] = w;
  return w;
}

export function measureWidth(text: string, fontSize: number, weight: FontWeight = 'normal'): number {
  let em = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i) ?? 32;
    if (c > 0xffff) i++;
    em += charWidth(c, weight);
  }
  return em * fontSize;
}

/** Ascent and descent in em, for placing a line's glyphs in its box. */
export function fontExtent(weight: FontWeight = 'normal'): { ascent: number; descent: number } {
  const f = fontFor(weight);
  return { ascent: f.ascent / f.unitsPerEm, descent: f.descent / f.unitsPerEm };
}

/** A piece of a paragraph in one style. */
export type Run = { text: string; weight?: FontWeight; color?: string };
/** A laid-out piece: `x` from the paragraph's left edge. */
export type Piece = { x: number; text: string; weight: FontWeight; color: string | undefined; width: number };

/**
 * Greedy line breaking at spaces; a word wider than the box is cut between characters. Whitespace runs
 * collapse to one space, as in HTML. Returns the lines, each a list of same-style pieces.
 */
export function wrapRuns(runs: readonly Run[], width: number, fontSize: number): Piece[][] {
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  const space = measureWidth(' ', fontSize);
  const place = (word: string, weight: FontWeight, color: string | undefined, w: number) => {
    const last = line.at(-1);
    if (last && last.weight === weight && last.color === color) {
      last.text += ` ${word}`;
      last.width += space + w;
    } else line.push({ x: used === 0 ? 0 : used + space, text: word, weight, color, width: w });
    used = used === 0 ? w : used + space + w;
  };
  for (const run of runs) {
    const weight = run.weight ?? 'normal';
    for (const word of run.text.split(/\s+/)) {
      if (!word) continue;
      let w = measureWidth(word, fontSize, weight);
      if (used > 0 && used + space + w > width) {
        lines.push(line);
        line = [];
        used = 0;
      }
      let rest = word;
      while (w > width) {
        // cut the longest prefix that fits
        let cut = 1;
        let cutWidth = measureWidth(rest.slice(0, 1), fontSize, weight);
        while (cut < rest.length) {
          const next = cutWidth + measureWidth(rest.slice(cut, cut + 1), fontSize, weight);
          if (next > width) break;
          cutWidth = next;
          cut += 1;
        }
        if (used > 0) {
          lines.push(line);
          line = [];
          used = 0;
        }
        place(rest.slice(0, cut), weight, run.color, cutWidth);
        lines.push(line);
        line = [];
        used = 0;
        rest = rest.slice(cut);
        w = measureWidth(rest, fontSize, weight);
      }
      if (rest) place(rest, weight, run.color, w);
    }
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

/** Lines of plain text in one style. */
export function wrapText(text: string, width: number, fontSize: number, weight: FontWeight = 'normal'): string[] {
  return wrapRuns([{ text, weight }], width, fontSize).map((l) => l.map((p) => p.text).join(' '));
}
