import { createElement } from 'react';
import { footer, planBlocks, CONTENT_HEIGHT, PAGE, documentTitle, type Op } from './layout';
import { paginate } from './paginate';
import { ZDocumentView, type TDocumentView } from './view-model';
import type { DocumentProps, PagePaint } from './document';

/** Lays out the pages (layout.ts, paginate.ts) and renders the invoice or correction to PDF bytes. */
export async function renderDocumentPdf(input: TDocumentView): Promise<Buffer> {
  const view = ZDocumentView.parse(input);
  const props = planDocument(view);
  // loaded on first use: a process that never renders a PDF does not pay for React and react-pdf
  const [{ renderToBuffer }, { InvoiceDocument }] = await Promise.all([import('@react-pdf/renderer'), import('./document'), import('./skip-default-font')]);
  return renderToBuffer(createElement(InvoiceDocument, props) as Parameters<typeof renderToBuffer>[0]);
}

export function planDocument(view: TDocumentView): DocumentProps {
  const { blocks, tableHeader, continuation } = planBlocks(view);
  const placements = paginate({
    blocks,
    pageHeight: CONTENT_HEIGHT,
    continuationHeight: continuation.height,
    tableHeaderHeight: tableHeader.height,
  });
  const pages = placements.map((placed, i): PagePaint => {
    const pieces = placed.map((p): PagePaint['pieces'][number] => {
      const ops = p.kind === 'block' ? blocks[p.index]!.ops : p.kind === 'tableHeader' ? tableHeader.ops : continuation.ops;
      return { ops, dx: PAGE.marginX, dy: PAGE.marginTop + p.y };
    });
    pieces.push({ ops: footer(view, i + 1, placements.length), dx: 0, dy: 0 });
    const links = pieces.flatMap(({ ops, dx, dy }) =>
      ops.filter((o): o is Extract<Op, { t: 'link' }> => o.t === 'link').map((l) => ({ ...l, x: l.x + dx, y: l.y + dy })),
    );
    return { pieces, links };
  });
  return { title: `${documentTitle(view)} ${view.number}`, author: view.seller.name, pages };
}
