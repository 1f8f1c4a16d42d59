import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { create as createFont, type Font as FontkitFont } from 'fontkit';

export type FontWeight = 'normal' | 'bold';

const FILES: Record<FontWeight, { file: string; postscriptName: string }> = {
  normal: { file: 'DejaVuSans.ttf', postscriptName: 'DejaVuSans' },
  bold: { file: 'DejaVuSans-Bold.ttf', postscriptName: 'DejaVuSans-Bold' },
};

let loaded: Record<FontWeight, FontkitFont> | undefined;

/** The TTFs come from the dejavu-fonts-ttf npm package: no network, no system fonts (WOFF2 crashes fontkit). */
function loadFonts(): Record<FontWeight, FontkitFont> {
  if (loaded) return loaded;
  // resolved by Node at run time: a bundler (the web renders a PDF a buyer opens before the worker did) would
  // replace the path with one of its own that is no file
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve(/* webpackIgnore: true */ 'dejavu-fonts-ttf/package.json')), 'ttf');
  const load = (w: FontWeight): FontkitFont => {
    const { file, postscriptName } = FILES[w];
    return createFont(slimFont(readFileSync(path.join(dir, file)), postscriptName)) as FontkitFont;
  };
  loaded = { normal: load('normal'), bold: load('bold') };
  return loaded;
}

/**
 * The font, parsed once per process: the measurer reads its advance widths and every PDF embeds a subset of it
 * (pdfkit takes the fontkit object as is), so what is measured is exactly what is drawn.
 */
export function fontFor(weight: FontWeight): FontkitFont {
  return loadFonts()[weight];
}

/** pdfkit caches an embedded font per document under this key. */
export const fontKey = (weight: FontWeight): string => FILES[weight].postscriptName;

type Glyph = ReturnType<FontkitFont['glyphForCodePoint']>;
/**
 * The font as pdfkit sees it (pdfkit takes any object with fontkit's interface). Two shortcuts over fontkit,
 * found by profiling one-page renders, where they were half of the time: `layout` maps characters to glyphs
 * with their advance widths and nothing else (the shaping tables are hidden anyway, see slimFont), and a
 * glyph's outline, which the subsetter decodes for every document, is decoded once per process.
 */
class PdfFont {
  private readonly glyphs = new Map<number, Glyph>();

  constructor(private readonly font: FontkitFont) {
    const getGlyph = font.getGlyph.bind(font);
    const memoised = new Set<Glyph>();
    // fontkit keeps one glyph object per id; the subsetter only reads what _decode returns
    font.getGlyph = (id: number, codePoints?: number[]) => {
      const glyph = getGlyph(id, codePoints);
      if (!memoised.has(glyph)) {
        const g = glyph as unknown as { _decode(): unknown };
        const decode = g._decode.bind(g);
        let decoded: unknown;
        let done = false;
        g._decode = () => {
          if (!done) {
            decoded = decode();
            done = true;
          }
          return decoded;
        };
        memoised.add(glyph);
      }
      return glyph;
    };
  }

  get postscriptName() {
    return this.font.postscriptName;
  }
  get unitsPerEm() {
    return this.font.unitsPerEm;
  }
  get ascent() {
    return this.font.ascent;
  }
  get descent() {
    return this.font.descent;
  }
  get xHeight() {
    return this.font.xHeight;
  }
  get capHeight() {
    return this.font.capHeight;
  }
  get lineGap() {
    return this.font.lineGap;
  }
  get bbox() {
    return this.font.bbox;
  }
  get italicAngle() {
    return this.font.italicAngle;
  }
  get head() {
    return (this.font as unknown as Record<string, unknown>).head;
  }
  get post() {
    return (this.font as unknown as Record<string, unknown>).post;
  }
  get 'OS/2'() {
    return (this.font as unknown as Record<string, unknown>)['OS/2'];
  }
  getGlyph(id: number) {
    return this.font.getGlyph(id);
  }

  private glyph(codePoint: number): Glyph {
    let g = this.glyphs.get(codePoint);
    if (!g) {
      g = this.font.glyphForCodePoint(codePoint);
      this.glyphs.set(codePoint, g);
    }
    return g;
  }

  layout(text: string) {
    const glyphs: Glyph[] = [];
    const positions: Array<{ xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }> = [];
    for (const ch of text) {
      const g = this.glyph(ch.codePointAt(0) ?? 32);
      glyphs.push(g);
      positions.push({ xAdvance: g.advanceWidth, yAdvance: 0, xOffset: 0, yOffset: 0 });
    }
    return {
      glyphs,
      positions,
      get advanceWidth() {
        return positions.reduce((sum, p) => sum + p.xAdvance, 0);
      },
    };
  }

  createSubset() {
    return this.font.createSubset();
  }
}

const pdfFonts: Partial<Record<FontWeight, PdfFont>> = {};

/** The font object handed to pdfkit, one per process and weight. */
export function pdfFontFor(weight: FontWeight): PdfFont {
  return (pdfFonts[weight] ??= new PdfFont(fontFor(weight)));
}

/**
 * Two changes to the stock TTF that make rendering several times cheaper, found by profiling 1000-row
 * invoices: pdfkit compares fonts by JSON-serialising the name table (DejaVu's holds its whole licence),
 * so that table is cut to the four names PDFs use; and the OpenType shaping tables (GSUB, GPOS, kern) are
 * hidden, since Polish Latin text needs no shaping (ą, ę, ż are precomposed) and the measurer adds plain
 * advance widths. The embedded subset is built from glyf/hmtx/loca, which stay untouched.
 */
function slimFont(ttf: Buffer, postscriptName: string): Buffer {
  const family = 'DejaVu Sans';
  const names = { 1: family, 2: postscriptName.endsWith('Bold') ? 'Bold' : 'Book', 4: postscriptName, 6: postscriptName };
  const nameTable = buildNameTable(names);
  const padding = Buffer.alloc((4 - (ttf.length % 4)) % 4);
  const out = Buffer.concat([ttf, padding, nameTable]);
  const numTables = out.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const record = 12 + 16 * i;
    const tag = out.toString('latin1', record, record + 4);
    if (tag === 'name') {
      out.writeUInt32BE(ttf.length + padding.length, record + 8);
      out.writeUInt32BE(nameTable.length, record + 12);
    } else if (tag === 'GSUB' || tag === 'GPOS' || tag === 'kern') {
      out.write(`_${tag.slice(1)}`, record, 'latin1'); // an unknown tag: fontkit and pdfkit skip the table
    }
  }
  return out;
}

/** A format-0 name table with Windows Unicode (3/1/0x409) records. */
function buildNameTable(names: Record<number, string>): Buffer {
  const entries = Object.entries(names).map(([id, text]) => ({ id: Number(id), bytes: Buffer.from(text, 'utf16le').swap16() }));
  const headerSize = 6 + 12 * entries.length;
  const table = Buffer.alloc(headerSize + entries.reduce((sum, e) => sum + e.bytes.length, 0));
  table.writeUInt16BE(0, 0);
  table.writeUInt16BE(entries.length, 2);
  table.writeUInt16BE(headerSize, 4);
  let offset = 0;
  entries.forEach((e, i) => {
    const at = 6 + 12 * i;
    table.writeUInt16BE(3, at);
    table.writeUInt16BE(1, at + 2);
    table.writeUInt16BE(0x409, at + 4);
    table.writeUInt16BE(e.id, at + 6);
    table.writeUInt16BE(e.bytes.length, at + 8);
    table.writeUInt16BE(offset, at + 10);
    e.bytes.copy(table, headerSize + offset);
    offset += e.bytes.length;
  });
  return table;
}
