/**
 * Splits the rows table over pages. react-pdf's own page breaking grows faster than linearly with the
 * row count, so every page is planned here and rendered with wrapping off. Pure: heights in, plan out.
 */

export type PaginationInput = {
  /** Height of each table row, in order. */
  rowHeights: readonly number[];
  /** Usable height of a page between the top margin and the footer. */
  pageHeight: number;
  /** Blocks above the table on page 1 (header, parties, details). */
  introHeight: number;
  /** The caption that opens every later page. */
  continuationHeight: number;
  /** The table's column header, repeated on every page that has rows. */
  tableHeaderHeight: number;
  /** Blocks after the table on the last page (totals, VAT summary, payment, QR). */
  closingHeight: number;
};

export type PagePlan = {
  /** Rows [rowStart, rowEnd) appear on this page; an empty range means no table on it. */
  rowStart: number;
  rowEnd: number;
  intro: boolean;
  closing: boolean;
};

export function paginateRows(input: PaginationInput): PagePlan[] {
  const { rowHeights, pageHeight, introHeight, continuationHeight, tableHeaderHeight, closingHeight } = input;
  const pages: PagePlan[] = [];
  let page: PagePlan = { rowStart: 0, rowEnd: 0, intro: true, closing: false };
  let used = introHeight;

  const hasRows = (p: PagePlan) => p.rowEnd > p.rowStart;
  const startPage = (rowStart: number) => {
    pages.push(page);
    page = { rowStart, rowEnd: rowStart, intro: false, closing: false };
    used = continuationHeight;
  };

  for (let i = 0; i < rowHeights.length; i++) {
    const height = rowHeights[i] ?? 0;
    const needed = (hasRows(page) ? 0 : tableHeaderHeight) + height;
    // A row taller than an empty page still goes on one (clipped) rather than looping forever.
    const pageIsEmpty = !hasRows(page) && !page.intro;
    if (used + needed > pageHeight && !pageIsEmpty) startPage(i);
    used += (hasRows(page) ? 0 : tableHeaderHeight) + height;
    page.rowEnd = i + 1;
  }

  if (used + closingHeight > pageHeight) startPage(rowHeights.length);
  page.closing = true;
  pages.push(page);
  return pages;
}
