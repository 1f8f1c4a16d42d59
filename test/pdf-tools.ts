import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/**
 * Test helpers over poppler-utils (pdftotext, pdftoppm) and a real QR decoder: what a reader or a
 * scanner gets out of the PDF, not what we meant to put in.
 */

function withPdfFile<T>(pdf: Buffer, run: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'kr-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return run(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Extracted text with no-break spaces as plain spaces: `layout` keeps the page's columns side by side,
 * `raw` follows the drawing order (a paragraph's lines together, a table row's cells in column order).
 */
export function pdfText(pdf: Buffer, mode: 'layout' | 'raw' = 'layout'): string {
  return withPdfFile(pdf, (file) => execFileSync('pdftotext', [`-${mode}`, file, '-'], { maxBuffer: 64 << 20 }).toString('utf8')).replace(/\u00a0/g, ' ');
}

export type Word = { page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number };
export type PageBox = { width: number; height: number; words: Word[] };

export function pdfWords(pdf: Buffer): PageBox[] {
  const html = withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 << 20 }).toString('utf8'));
  const pages: PageBox[] = [];
  for (const chunk of html.split('<page ').slice(1)) {
    const size = /width="([\d.]+)" height="([\d.]+)"/.exec(chunk);
    const words: Word[] = [];
    for (const m of chunk.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      words.push({ page: pages.length + 1, text: m[5] ?? '', xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) });
    }
    pages.push({ width: Number(size?.[1]), height: Number(size?.[2]), words });
  }
  return pages;
}

/** A rectangle on a page, in PDF points from the top-left corner. */
export type Region = { x: number; y: number; w: number; h: number };

/** Rasterises one page (or a region of it, for a page with two codes) at `dpi` and decodes the first QR code jsQR finds. */
export function decodeQr(pdf: Buffer, page: number, dpi = 150, region?: Region): string | null {
  return withPdfFile(pdf, (file, dir) => {
    const px = (pt: number) => String(Math.round((pt * dpi) / 72));
    const crop = region ? ['-x', px(region.x), '-y', px(region.y), '-W', px(region.w), '-H', px(region.h)] : [];
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), ...crop, '-png', file, path.join(dir, 'page')]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'));
    if (!png) throw new Error('pdftoppm wrote no image');
    const image = PNG.sync.read(readFileSync(path.join(dir, png)));
    return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
  });
}

/**
 * Rasterises one page at `dpi` and decodes it with ZBar (zbarimg, Debian's zbar-tools), the decoder of many phone
 * and desk scanners and stricter than jsQR on small modules. Null when it finds no code.
 */
export function decodeQrZbar(pdf: Buffer, page: number, dpi: number): string | null {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-png', '-singlefile', file, path.join(dir, 'page')]);
    try {
      return execFileSync('zbarimg', ['-q', '--raw', '-Sdisable', '-Sqrcode.enable', path.join(dir, 'page.png')], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString('utf8')
        .trim();
    } catch (err) {
      if ((err as { status?: number }).status === 4) return null; // zbarimg: no symbol found
      throw err;
    }
  });
}

/** Every QR code jsQR finds on one page (up to `max`): each found code is painted over before looking again. */
export function decodeAllQr(pdf: Buffer, page: number, dpi = 150, max = 4): string[] {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-png', file, path.join(dir, 'page')]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'));
    if (!png) throw new Error('pdftoppm wrote no image');
    const image = PNG.sync.read(readFileSync(path.join(dir, png)));
    const pixels = new Uint8ClampedArray(image.data);
    const found: string[] = [];
    for (let i = 0; i < max; i++) {
      const code = jsQR(pixels, image.width, image.height);
      if (!code) break;
      found.push(code.data);
      const { topLeftCorner: a, bottomRightCorner: b, topRightCorner: c, bottomLeftCorner: d } = code.location;
      const pad = 8;
      const [x0, x1] = [Math.max(0, Math.floor(Math.min(a.x, d.x)) - pad), Math.min(image.width, Math.ceil(Math.max(b.x, c.x)) + pad)];
      const [y0, y1] = [Math.max(0, Math.floor(Math.min(a.y, c.y)) - pad), Math.min(image.height, Math.ceil(Math.max(b.y, d.y)) + pad)];
      for (let y = y0; y < y1; y++) pixels.fill(255, (y * image.width + x0) * 4, (y * image.width + x1) * 4);
    }
    return found;
  });
}
