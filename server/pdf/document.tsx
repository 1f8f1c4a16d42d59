import { Canvas, Document, Link, Page } from '@react-pdf/renderer';
import { fontKey, pdfFontFor, type FontWeight } from './fonts';
import { PAGE, type Op } from './layout';
import { QUIET_MODULES as QUIET } from './qr-runs';

/** Operations placed on a page: a block's ops shifted by (dx, dy). */
export type PagePaint = { pieces: Array<{ ops: readonly Op[]; dx: number; dy: number }>; links: Array<Extract<Op, { t: 'link' }>> };

export type DocumentProps = { title: string; author: string; pages: PagePaint[] };

/**
 * react-pdf only holds the pages: each is one Canvas that draws the pre-computed operations straight through
 * pdfkit, plus the link annotations. Text layout by react-pdf (yoga boxes, textkit line breaking per Text
 * node) was most of the time and memory of a 1,000-row invoice; layout.ts does it once, exactly.
 */
export function InvoiceDocument({ title, author, pages }: DocumentProps) {
  return (
    <Document title={title} author={author} creator="KSeF Relay" producer="KSeF Relay">
      {pages.map((p, i) => (
        <Page key={i} size="A4" wrap={false}>
          <Canvas style={{ width: PAGE.width, height: PAGE.height }} paint={(painter) => paint(painter as unknown as Painter, p)} />
          {p.links.map((l, j) => (
            <Link key={j} src={l.url} style={{ position: 'absolute', left: l.x, top: l.y, width: l.w, height: l.h }} />
          ))}
        </Page>
      ))}
    </Document>
  );
}

/** The part of react-pdf's Canvas painter (pdfkit underneath) used here. */
type Painter = {
  font(src: unknown, family: string, size: number): Painter;
  fillColor(color: string): Painter;
  text(text: string, x: number, y: number, options: { lineBreak: boolean }): Painter;
  rect(x: number, y: number, w: number, h: number): Painter;
  fill(color: string): Painter;
  moveTo(x: number, y: number): Painter;
  lineTo(x: number, y: number): Painter;
  lineWidth(w: number): Painter;
  stroke(color: string): Painter;
};

const NO_WRAP = { lineBreak: false };

function paint(painter: Painter, page: PagePaint): null {
  let weight: FontWeight | undefined;
  let size = 0;
  let color: string | undefined;
  for (const { ops, dx, dy } of page.pieces) {
    for (const op of ops) {
      const x = op.x + dx;
      const y = op.y + dy;
      switch (op.t) {
        case 'text':
          if (op.weight !== weight || op.size !== size) {
            // keyed by name, pdfkit reuses the document's one embedded subset of each weight
            painter.font(pdfFontFor(op.weight), fontKey(op.weight), op.size);
            weight = op.weight;
            size = op.size;
          }
          if (op.color !== color) {
            painter.fillColor(op.color);
            color = op.color;
          }
          painter.text(op.text, x, y, NO_WRAP);
          break;
        case 'rect':
          painter.rect(x, y, op.w, op.h).fill(op.color);
          color = undefined;
          break;
        case 'line':
          painter
            .moveTo(x, y)
            .lineTo(x + op.w, y)
            .lineWidth(op.width)
            .stroke(op.color);
          break;
        case 'qr': {
          const cell = op.size / (op.qr.size + 2 * QUIET);
          for (const [mx, my, length] of op.qr.runs) painter.rect(x + (mx + QUIET) * cell, y + (my + QUIET) * cell, length * cell, cell);
          painter.fill('#000000');
          color = undefined;
          break;
        }
        case 'link':
          break;
      }
    }
  }
  return null;
}
