import { formatGrosze, formatQuantity, formatRate } from './format';
import { countLines } from './measure';
import type { TDocumentView, TPartyView, TRowView } from './view-model';

/**
 * Every size the document uses, and the height of each block computed from them. The components in
 * document.tsx give blocks exactly these heights, so the page plan and the rendered pages agree.
 */

export const PAGE = { width: 595.28, height: 841.89, marginX: 32, marginTop: 28, marginBottom: 44 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.marginX;
export const CONTENT_HEIGHT = PAGE.height - PAGE.marginTop - PAGE.marginBottom;

export const TEXT = { size: 8, line: 11 } as const;
export const SECTION_TITLE = { size: 9.5, height: 22 } as const;
export const TABLE = { size: 7, line: 9, headerSize: 6.5, headerLine: 8, padX: 2.5, padY: 3.5 } as const;
export const LABEL_WIDTH = 150;
export const CONTINUATION_HEIGHT = 18;
export const QR_SIZE = 104;
export const QR_COLUMN_WIDTH = 170;

export type Align = 'left' | 'right' | 'center';
export type Column = { label: string; width: number; align: Align };

/** Rows table, in the order of the Ministry's visualisation. */
export const ROW_COLUMNS = {
  lp: { label: 'Lp.', width: 20, align: 'center' },
  name: { label: 'Nazwa towaru lub usługi', width: 183, align: 'left' },
  sku: { label: 'Indeks', width: 58, align: 'left' },
  quantity: { label: 'Ilość', width: 36, align: 'right' },
  unit: { label: 'Miara', width: 30, align: 'left' },
  unitGross: { label: 'Cena jedn. brutto', width: 58, align: 'right' },
  discount: { label: 'Rabat', width: 46, align: 'right' },
  rate: { label: 'Stawka podatku', width: 34, align: 'right' },
  gross: { label: 'Wartość sprzedaży brutto', width: 66.28, align: 'right' },
} as const satisfies Record<string, Column>;

export type RowColumnKey = keyof typeof ROW_COLUMNS;
export type RowCells = Record<RowColumnKey, string>;

export function summaryColumns(foreign: boolean): Column[] {
  const amounts = ['Kwota netto', 'Kwota podatku', 'Kwota brutto', ...(foreign ? ['Kwota podatku w PLN'] : [])];
  const lp = 24;
  const rate = 90;
  const amountWidth = (CONTENT_WIDTH - lp - rate) / amounts.length;
  return [
    { label: 'Lp.', width: lp, align: 'center' },
    { label: 'Stawka podatku', width: rate, align: 'left' },
    ...amounts.map((label): Column => ({ label, width: amountWidth, align: 'right' })),
  ];
}

/** The texts of one row's cells; amounts without the currency, which the table caption names. */
export function rowCells(row: TRowView, index: number): RowCells {
  return {
    lp: String(index + 1),
    name: row.name,
    sku: row.sku ?? '',
    quantity: formatQuantity(row.quantity),
    unit: row.unit,
    unitGross: formatGrosze(row.unitGrossGrosze),
    discount: row.discountGrosze === 0 ? '' : formatGrosze(row.discountGrosze),
    rate: formatRate(row.vatRate),
    gross: formatGrosze(row.grossGrosze),
  };
}

const innerWidth = (c: Column) => c.width - 2 * TABLE.padX;

export function rowHeight(cells: RowCells): number {
  let lines = 1;
  for (const key of Object.keys(ROW_COLUMNS) as RowColumnKey[]) {
    const text = cells[key];
    if (text) lines = Math.max(lines, countLines(text, innerWidth(ROW_COLUMNS[key]), TABLE.size));
  }
  return lines * TABLE.line + 2 * TABLE.padY;
}

export function tableHeaderHeight(columns: readonly Column[]): number {
  const lines = Math.max(...columns.map((c) => countLines(c.label, innerWidth(c), TABLE.headerSize, 'bold')));
  return lines * TABLE.headerLine + 2 * TABLE.padY;
}

/** Label-value line ("Data wystawienia: …"); long values wrap inside the value column. */
export function fieldHeight(value: string, width = CONTENT_WIDTH): number {
  return countLines(value, width - LABEL_WIDTH, TEXT.size) * TEXT.line;
}

export const HEADER = { brandSize: 15, numberSize: 13, numberLine: 16, rightWidth: 300, gap: 12 } as const;

export function headerHeight(view: TDocumentView): number {
  const numberLines = countLines(view.number, HEADER.rightWidth, HEADER.numberSize, 'bold');
  return TEXT.line + numberLines * HEADER.numberLine + 2 * TEXT.line + HEADER.gap;
}

export function correctionHeight(view: TDocumentView): number {
  const c = view.correction;
  if (!c) return 0;
  return SECTION_TITLE.height + 3 * TEXT.line + fieldHeight(c.reason) + HEADER.gap;
}

export const PARTY_WIDTH = (CONTENT_WIDTH - 16) / 2;

/** The printed lines of a party block after its name. */
export function partyLines(p: TPartyView): string[] {
  return [
    `NIP: ${p.nip}`,
    ...p.addressLines,
    ...(p.countryCode && p.countryCode !== 'PL' ? [`Kraj: ${p.countryCode}`] : []),
    ...(p.email ? [`E-mail: ${p.email}`] : []),
    ...(p.phone ? [`Tel.: ${p.phone}`] : []),
  ];
}

function partyHeight(p: TPartyView): number {
  const nameLines = countLines(p.name, PARTY_WIDTH, TEXT.size, 'bold');
  const otherLines = partyLines(p).reduce((sum, line) => sum + countLines(line, PARTY_WIDTH, TEXT.size), 0);
  return (nameLines + otherLines) * TEXT.line;
}

export function partiesHeight(view: TDocumentView): number {
  return SECTION_TITLE.height + Math.max(partyHeight(view.seller), partyHeight(view.buyer)) + HEADER.gap;
}

export function detailsHeight(view: TDocumentView): number {
  const fields = 2 + (view.issuePlace ? 1 : 0) + (view.taxPointDate ? 1 : 0);
  return SECTION_TITLE.height + fields * TEXT.line + HEADER.gap;
}

export const TOTAL_HEIGHT = 26;
export const QR_BLOCK_HEIGHT = SECTION_TITLE.height + QR_SIZE + 2 * TEXT.line + 6;

export function summaryHeight(view: TDocumentView, exchangeText: string | undefined): number {
  const columns = summaryColumns(view.exchangeRate !== undefined);
  const rows = view.vatSummary.length * (TABLE.line + 2 * TABLE.padY);
  const exchange = exchangeText ? countLines(exchangeText, CONTENT_WIDTH, TEXT.size) * TEXT.line + 4 : 0;
  return SECTION_TITLE.height + tableHeaderHeight(columns) + rows + exchange + HEADER.gap;
}

export function paymentHeight(view: TDocumentView): number {
  if (!view.payment) return 0;
  return SECTION_TITLE.height + (view.payment.date ? 3 : 2) * TEXT.line + HEADER.gap;
}
