import { renderToBuffer } from '@react-pdf/renderer';
import { createElement } from 'react';
import { InvoiceDocument, exchangeRateText, type DocumentProps } from './document';
import { registerFonts } from './fonts';
import {
  CONTENT_HEIGHT,
  CONTINUATION_HEIGHT,
  QR_BLOCK_HEIGHT,
  ROW_COLUMNS,
  SECTION_TITLE,
  TOTAL_HEIGHT,
  correctionHeight,
  detailsHeight,
  headerHeight,
  partiesHeight,
  paymentHeight,
  rowCells,
  rowHeight,
  summaryHeight,
  tableHeaderHeight,
} from './layout';
import { paginateRows } from './paginate';
import { qrRuns } from './qr-runs';
import { ZDocumentView, type TDocumentView } from './view-model';

/** Lays out the pages (see paginate.ts) and renders the invoice or correction to PDF bytes. */
export async function renderDocumentPdf(input: TDocumentView): Promise<Buffer> {
  const view = ZDocumentView.parse(input);
  registerFonts();
  const props = planDocument(view);
  return renderToBuffer(createElement(InvoiceDocument, props) as Parameters<typeof renderToBuffer>[0]);
}

export function planDocument(view: TDocumentView): DocumentProps {
  const cells = view.rows.map(rowCells);
  const rowHeights = cells.map(rowHeight);
  const rowsHeaderHeight = tableHeaderHeight(Object.values(ROW_COLUMNS));
  const exchangeText = exchangeRateText(view);
  const pages = paginateRows({
    rowHeights,
    pageHeight: CONTENT_HEIGHT,
    introHeight: headerHeight(view) + correctionHeight(view) + partiesHeight(view) + detailsHeight(view) + SECTION_TITLE.height,
    continuationHeight: CONTINUATION_HEIGHT,
    tableHeaderHeight: rowsHeaderHeight,
    closingHeight: TOTAL_HEIGHT + summaryHeight(view, exchangeText) + paymentHeight(view) + QR_BLOCK_HEIGHT,
  });
  return { view, pages, cells, rowHeights, rowsHeaderHeight, qr: qrRuns(view.qr.url), exchangeText };
}
