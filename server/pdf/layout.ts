import { SUMMARY_RATE_LABEL, formatDate, formatDecimal, formatExchangeRate, formatGrosze, formatMoney, formatQuantity, formatRateCode } from './format';
import type { FontWeight } from './fonts';
import { fontExtent, measureWidth, wrapRuns, type Run } from './measure';
import { QUIET_MODULES, qrRuns, type QrRuns } from './qr-runs';
import type { TDocumentView, TPartyView, TRowView } from './view-model';

/**
 * The document as positioned drawing operations, grouped in blocks the paginator stacks on pages. Every
 * line of text is broken here with the embedded font's widths and drawn as computed, so heights are exact
 * and nothing is left to a layout engine. Wording follows the Ministry's FA(3) visualisation
 * (notes/pdf-wording.md); where ours is better for a reader (one page for small invoices, number and
 * page count on every page, the index in the main table, "(różnice)" on correction rows) it is kept.
 */

export const PAGE = { width: 595.28, height: 841.89, marginX: 32, marginTop: 24, marginBottom: 40 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.marginX;
export const CONTENT_HEIGHT = PAGE.height - PAGE.marginTop - PAGE.marginBottom;

export const INK = '#1a1a1a';
export const MUTED = '#5f6368';
const RULE = '#c8ccd0';
const SHADE = '#eef1f4';
const ACCENT = '#d7282f';
const LINK = '#1a4fa3';

const TEXT = { size: 7.5, line: 9.5 } as const;
const SECTION = { size: 9.5, height: 15, gap: 4 } as const;
const TABLE = { size: 7, line: 9, headerSize: 6.5, headerLine: 8, note: 6, noteLine: 7.5, padX: 2.5, padY: 2 } as const;
const COLUMN_GAP = 16;
const HALF = (CONTENT_WIDTH - COLUMN_GAP) / 2;
/**
 * KOD I at 148 pt with its quiet zone: a 41-module symbol of 124 pt, as large as the official visualisation's 123 pt,
 * so it still decodes from a 60 dpi scan (render.test.ts); at 104 pt it stopped decoding below 72 dpi.
 */
export const QR = { invoice: 148, certificate: 132 } as const;

type Align = 'left' | 'right' | 'center';

export type Op =
  | { t: 'text'; x: number; y: number; text: string; size: number; weight: FontWeight; color: string }
  | { t: 'rect'; x: number; y: number; w: number; h: number; color: string }
  | { t: 'line'; x: number; y: number; w: number; width: number; color: string }
  | { t: 'qr'; x: number; y: number; size: number; qr: QrRuns }
  | { t: 'link'; x: number; y: number; w: number; h: number; url: string };

/** A unit the paginator never splits; `row` blocks get the table header above them on every page. */
export type Block = { height: number; ops: Op[]; row?: boolean; keepWithNext?: boolean };

/** Collects drawing operations; y grows downwards from the block's top. */
class Pen {
  readonly ops: Op[] = [];

  text(x: number, y: number, text: string, size: number, weight: FontWeight = 'normal', color = INK): void {
    this.ops.push({ t: 'text', x, y, text, size, weight, color });
  }

  /** Wrapped text in a box `width` wide; returns its height. */
  paragraph(runs: readonly Run[], x: number, y: number, width: number, size: number = TEXT.size, line: number = TEXT.line, align: Align = 'left'): number {
    const [only] = runs;
    if (runs.length === 1 && only && !/\s\s|[\n\t\r]|^\s|\s$/.test(only.text)) {
      // most table cells: one style, already tidy, one line
      const weight = only.weight ?? 'normal';
      const w = measureWidth(only.text, size, weight);
      if (w <= width) {
        const shift = align === 'right' ? width - w : align === 'center' ? (width - w) / 2 : 0;
        if (only.text) this.text(x + shift, y + glyphTop(size, line), only.text, size, weight, only.color ?? INK);
        return line;
      }
    }
    const lines = wrapRuns(runs, width, size);
    const top = glyphTop(size, line);
    for (let i = 0; i < lines.length; i++) {
      const pieces = lines[i] ?? [];
      const last = pieces.at(-1);
      const lineWidth = last ? last.x + last.width : 0;
      const shift = align === 'right' ? width - lineWidth : align === 'center' ? (width - lineWidth) / 2 : 0;
      for (const p of pieces) this.text(x + shift + p.x, y + i * line + top, p.text, size, p.weight, p.color ?? INK);
    }
    return lines.length * line;
  }

  line(x: number, y: number, w: number, width = 0.5, color = RULE): void {
    this.ops.push({ t: 'line', x, y, w, width, color });
  }

  rect(x: number, y: number, w: number, h: number, color: string): void {
    this.ops.push({ t: 'rect', x, y, w, h, color });
  }

  block(height: number, extra: Partial<Block> = {}): Block {
    return { height, ops: this.ops, ...extra };
  }
}

let extent: { ascent: number; descent: number } | undefined;
/** Offset from a line box's top to the top of its glyphs (pdfkit places text by its ascent), centring them. */
function glyphTop(size: number, line: number): number {
  extent ??= fontExtent();
  return (line - size * (extent.ascent - extent.descent)) / 2;
}

const label = (text: string): Run => ({ text, color: MUTED });
const field = (name: string, value: string): Run[] => [label(`${name}:`), { text: value }];

function sectionTitle(pen: Pen, y: number, title: string, x = 0, width = CONTENT_WIDTH, note?: string): number {
  const top = glyphTop(SECTION.size, SECTION.height - 4);
  pen.text(x, y + top, title, SECTION.size, 'bold');
  if (note) pen.paragraph([label(note)], x, y + 2, width, TEXT.size, TEXT.line, 'right');
  pen.line(x, y + SECTION.height - 2.5, width, 0.75, INK);
  return SECTION.height;
}

/** One cell of a two-column block: a paragraph, or several kept together in one column. */
type Cell = Run[] | { paragraphs: Run[][] };

function cellHeight(pen: Pen, cell: Cell, x: number, y: number): number {
  const paragraphs = Array.isArray(cell) ? [cell] : cell.paragraphs;
  let h = 0;
  for (const p of paragraphs) h += pen.paragraph(p, x, y + h, HALF);
  return h;
}

/** Cells in two columns, filled alternately left and right as in the Ministry's details block. */
function twoColumns(pen: Pen, y: number, items: readonly Cell[]): number {
  let h = 0;
  for (let i = 0; i < items.length; i += 2) {
    const left = cellHeight(pen, items[i] ?? [], 0, y + h);
    const right = items[i + 1] ? cellHeight(pen, items[i + 1] ?? [], HALF + COLUMN_GAP, y + h) : 0;
    h += Math.max(left, right);
  }
  return h;
}

function section(title: string, body: (pen: Pen, y: number) => number, note?: string): Block {
  const pen = new Pen();
  const y = sectionTitle(pen, 0, title, 0, CONTENT_WIDTH, note);
  return pen.block(y + body(pen, y) + SECTION.gap);
}

export function documentTitle(view: TDocumentView): string {
  return view.type === 'KOR' ? 'Faktura korygująca' : 'Faktura podstawowa';
}

function header(view: TDocumentView): Block {
  const pen = new Pen();
  const brand = 15;
  const top = glyphTop(brand, 20);
  const parts: Array<[string, FontWeight, string]> = [
    ['Krajowy System ', 'normal', INK],
    ['e', 'bold', ACCENT],
    ['-Faktur', 'bold', INK],
  ];
  let x = 0;
  for (const [text, weight, color] of parts) {
    pen.text(x, top, text, brand, weight, color);
    x += measureWidth(text, brand, weight);
  }
  const right = 300;
  const rx = CONTENT_WIDTH - right;
  let y = pen.paragraph([label('Numer faktury')], rx, 0, right, TEXT.size, TEXT.line, 'right');
  y += pen.paragraph([{ text: view.number, weight: 'bold' }], rx, y, right, 13, 16, 'right');
  y += pen.paragraph([{ text: documentTitle(view), weight: 'bold' }], rx, y, right, 9, 12, 'right');
  if (view.ksefNumber) y += pen.paragraph(field('Numer KSeF', view.ksefNumber), rx, y, right, TEXT.size, TEXT.line, 'right');
  return pen.block(Math.max(y, 20) + 5);
}

/** TypKorekty texts of the Ministry's visualisation. */
const CORRECTION_TYPE = {
  1: 'Korekta skutkująca w dacie ujęcia faktury pierwotnej',
  2: 'Korekta skutkująca w dacie wystawienia faktury korygującej',
  3: 'Korekta skutkująca w dacie innej, w tym gdy dla różnych pozycji faktury korygującej daty te są różne',
} as const;

function correctedInvoices(view: TDocumentView): Block | null {
  const c = view.correction;
  if (!c) return null;
  return section('Dane faktury korygowanej', (pen, y0) => {
    let left = 0;
    if (c.reason) left += pen.paragraph(field('Przyczyna korekty', c.reason), 0, y0 + left, HALF);
    if (c.type) left += pen.paragraph(field('Typ skutku korekty', CORRECTION_TYPE[c.type]), 0, y0 + left, HALF);
    let right = 0;
    const x = HALF + COLUMN_GAP;
    c.invoices.forEach((inv, i) => {
      const title = `Dane identyfikacyjne faktury korygowanej${c.invoices.length > 1 ? ` ${i + 1}` : ''}`;
      right += pen.paragraph([{ text: title, weight: 'bold' }], x, y0 + right, HALF);
      right += pen.paragraph(field('Data wystawienia faktury, której dotyczy faktura korygująca', formatDate(inv.issueDate)), x, y0 + right, HALF);
      right += pen.paragraph(field('Numer faktury korygowanej', inv.number), x, y0 + right, HALF);
      if (inv.ksefNumber) right += pen.paragraph(field('Numer KSeF faktury korygowanej', inv.ksefNumber), x, y0 + right, HALF);
    });
    return Math.max(left, right);
  });
}

const regionNames = new Intl.DisplayNames(['pl'], { type: 'region' });
/** Adres/KodKraju as the country's Polish name ("PL" → "Polska"), the code itself when unknown. */
function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** TRolaPodmiotu3 as the Ministry's visualisation names the roles. */
const ROLE: Record<number, string> = {
  1: 'Faktor',
  2: 'Odbiorca',
  3: 'Podmiot pierwotny',
  4: 'Dodatkowy nabywca',
  5: 'Wystawca faktury',
  6: 'Dokonujący płatności',
  7: 'Jednostka samorządu terytorialnego - wystawca',
  8: 'Jednostka samorządu terytorialnego - odbiorca',
  9: 'Członek grupy VAT - wystawca',
  10: 'Członek grupy VAT - odbiorca',
  11: 'Pracownik',
};

/** A party's paragraphs below its title, in the Ministry's order. */
function partyParagraphs(p: TPartyView): Run[][] {
  return [
    ...(p.nip ? [field('NIP', p.nip)] : []),
    ...(p.internalId ? [field('Identyfikator wewnętrzny', p.internalId)] : []),
    field('Nazwa', p.name),
    ...(p.role ? [field('Rola', ROLE[p.role] ?? String(p.role))] : []),
    [{ text: 'Adres', weight: 'bold' as const }],
    ...p.addressLines.map((l) => [{ text: l }]),
    ...(p.countryCode ? [[{ text: countryName(p.countryCode) }]] : []),
    ...(p.email ? [field('E-mail', p.email)] : []),
    ...(p.phone ? [field('Tel.', p.phone)] : []),
    ...(p.customerNumber ? [field('Numer klienta', p.customerNumber)] : []),
    // Podmiot2 always carries both flags; they are printed either way, as the Ministry's visualisation does
    ...(p.jst !== undefined ? [field('Faktura dotyczy jednostki podrzędnej JST', p.jst ? 'TAK' : 'NIE')] : []),
    ...(p.gv !== undefined ? [field('Faktura dotyczy członka grupy VAT', p.gv ? 'TAK' : 'NIE')] : []),
  ];
}

function partyColumn(pen: Pen, x: number, title: string, p: TPartyView): number {
  let y = sectionTitle(pen, 0, title, x, HALF);
  for (const para of partyParagraphs(p)) y += pen.paragraph(para, x, y, HALF);
  return y;
}

function parties(view: TDocumentView): Block[] {
  const pen = new Pen();
  const h = Math.max(partyColumn(pen, 0, 'Sprzedawca', view.seller), partyColumn(pen, HALF + COLUMN_GAP, 'Nabywca', view.buyer));
  const blocks = [pen.block(h + SECTION.gap)];
  // Podmiot3 in pairs, like the parties above
  for (let i = 0; i < view.otherParties.length; i += 2) {
    const p = new Pen();
    const pair = view.otherParties.slice(i, i + 2);
    const heights = pair.map((party, j) => partyColumn(p, j * (HALF + COLUMN_GAP), `Podmiot inny ${i + j + 1}`, party));
    blocks.push(p.block(Math.max(...heights) + SECTION.gap));
  }
  return blocks;
}

function details(view: TDocumentView): Block {
  return section('Szczegóły', (pen, y) => {
    const items: Cell[] = [field('Data wystawienia, z zastrzeżeniem art. 106na ust. 1 ustawy', formatDate(view.issueDate))];
    if (view.issuePlace) items.push(field('Miejsce wystawienia', view.issuePlace));
    if (view.deliveryDate) items.push(field('Data dokonania lub zakończenia dostawy towarów lub wykonania usługi', formatDate(view.deliveryDate)));
    items.push(field('Kod waluty', view.currency));
    if (view.exchangeRate) {
      items.push({ paragraphs: [[label('Kurs waluty wspólny dla wszystkich wierszy faktury')], field('Kurs waluty', formatExchangeRate(view.exchangeRate))] });
    }
    if (view.lateSince) items.push(field('Faktura wystawiona po terminie z art. 106i ustawy, który upłynął', formatDate(view.lateSince)));
    return twoColumns(pen, y, items);
  });
}

export type Column = { key: string; label: string; width: number; align: Align };

function tableHeader(columns: readonly Column[]): Block {
  const pen = new Pen();
  let x = 0;
  let h = 0;
  const inner = new Pen();
  for (const c of columns) {
    h = Math.max(
      h,
      inner.paragraph([{ text: c.label, weight: 'bold' }], x + TABLE.padX, TABLE.padY, c.width - 2 * TABLE.padX, TABLE.headerSize, TABLE.headerLine, c.align),
    );
    x += c.width;
  }
  const height = h + 2 * TABLE.padY;
  pen.rect(0, 0, CONTENT_WIDTH, height, SHADE);
  pen.ops.push(...inner.ops);
  pen.line(0, height, CONTENT_WIDTH, 0.75, INK);
  return pen.block(height + 0.5);
}

/** A table row; `notes` adds a smaller muted line to a cell (the UU_ID under the name), after its text when it fits there. */
function tableRow(columns: readonly Column[], cells: Record<string, string>, extra: Partial<Block> = {}, notes: Record<string, string> = {}): Block {
  const pen = new Pen();
  let x = 0;
  let h: number = TABLE.line;
  for (const c of columns) {
    const text = cells[c.key];
    const note = notes[c.key];
    const width = c.width - 2 * TABLE.padX;
    let cell = text ? pen.paragraph([{ text }], x + TABLE.padX, TABLE.padY, width, TABLE.size, TABLE.line, c.align) : 0;
    if (note) cell = cellNote(pen, text ?? '', note, x + TABLE.padX, cell, width);
    h = Math.max(h, cell);
    x += c.width;
  }
  const height = h + 2 * TABLE.padY;
  pen.line(0, height, CONTENT_WIDTH);
  return pen.block(height + 0.25, extra);
}

/**
 * A cell's note in TABLE.note type: on the text's last line when it fits after it (baselines aligned), else on lines of
 * its own below; returns the cell's new height. The note is muted and smaller, so a UU_ID costs a short row no height.
 */
function cellNote(pen: Pen, text: string, note: string, x: number, height: number, width: number): number {
  const last = text ? (wrapRuns([{ text }], width, TABLE.size).at(-1) ?? []) : [];
  const end = last.reduce((w, p) => Math.max(w, p.x + p.width), 0);
  const gap = text ? measureWidth(' ', TABLE.size) : 0;
  if (height > 0 && end + gap + measureWidth(note, TABLE.note) <= width) {
    extent ??= fontExtent();
    const baseline = glyphTop(TABLE.size, TABLE.line) + (TABLE.size - TABLE.note) * extent.ascent;
    pen.text(x + end + gap, TABLE.padY + height - TABLE.line + baseline, note, TABLE.note, 'normal', MUTED);
    return height;
  }
  return height + pen.paragraph([label(note)], x, TABLE.padY + height, width, TABLE.note, TABLE.noteLine);
}

/** Columns of the rows table; Rabat and the annex-15 marker only when some row has them. */
export function rowColumns(rows: readonly TRowView[]): Column[] {
  const fixed: Column[] = [
    { key: 'lp', label: 'Lp.', width: 24, align: 'center' },
    { key: 'name', label: 'Nazwa towaru lub usługi', width: 0, align: 'left' },
    { key: 'sku', label: 'Indeks', width: 56, align: 'left' },
    { key: 'quantity', label: 'Ilość', width: 32, align: 'right' },
    { key: 'unit', label: 'Miara', width: 28, align: 'left' },
    { key: 'unitGross', label: 'Cena jedn. brutto', width: 58, align: 'right' },
    ...(rows.some((r) => r.discount) ? [{ key: 'discount', label: 'Rabat', width: 46, align: 'right' } as const] : []),
    { key: 'rate', label: 'Stawka podatku', width: 36, align: 'right' },
    ...(rows.some((r) => r.annex15) ? [{ key: 'annex15', label: 'Zał. nr 15 do ustawy', width: 38, align: 'center' } as const] : []),
    { key: 'gross', label: 'Wartość sprzedaży brutto', width: 70, align: 'right' },
  ];
  const used = fixed.reduce((s, c) => s + c.width, 0);
  return fixed.map((c) => (c.key === 'name' ? { ...c, width: CONTENT_WIDTH - used } : c));
}

export function rowCells(row: TRowView): Record<string, string> {
  return {
    lp: row.lp,
    name: row.name,
    sku: row.sku ?? '',
    quantity: formatQuantity(row.quantity),
    unit: row.unit ?? '',
    unitGross: formatDecimal(row.unitGross),
    discount: row.discount ? formatDecimal(row.discount) : '',
    rate: formatRateCode(row.rate),
    annex15: row.annex15 ? '1' : '',
    gross: formatGrosze(row.grossGrosze),
  };
}

/** The row's UU_ID under its name: corrections name the invoice rows they change by it (DodatkowyOpis). */
export const rowNotes = (row: TRowView): Record<string, string> => (row.uuId ? { name: `UU_ID: ${row.uuId}` } : {});

/** A heading inside the rows table, kept with the row after it ("Stan przed", "Stan po"). */
function groupRow(title: string): Block {
  const pen = new Pen();
  const h = pen.paragraph([{ text: title, weight: 'bold' }], TABLE.padX, TABLE.padY, CONTENT_WIDTH - 2 * TABLE.padX, TABLE.size, TABLE.line);
  pen.line(0, h + 2 * TABLE.padY, CONTENT_WIDTH);
  return pen.block(h + 2 * TABLE.padY + 0.25, { row: true, keepWithNext: true });
}

/**
 * The rows in print order. A correction made of before/after rows (StanPrzed, kor-mapping.md §3B) prints them in two
 * groups, "Stan przed" and "Stan po", as the Ministry's visualisation marks them; otherwise rows are differences.
 */
function rowBlocks(view: TDocumentView, columns: readonly Column[]): Block[] {
  const block = (r: TRowView) => tableRow(columns, rowCells(r), { row: true }, rowNotes(r));
  if (!view.rows.some((r) => r.before)) return view.rows.map(block);
  return [groupRow('Stan przed'), ...view.rows.filter((r) => r.before).map(block), groupRow('Stan po'), ...view.rows.filter((r) => !r.before).map(block)];
}

function total(view: TDocumentView): Block {
  const pen = new Pen();
  const name = view.type === 'KOR' ? 'Korekta kwoty należności ogółem' : 'Kwota należności ogółem';
  pen.paragraph([label(`${name}:`), { text: formatMoney(view.totalGrosze, view.currency), weight: 'bold' }], 0, 2, CONTENT_WIDTH, 10, 14, 'right');
  return pen.block(18);
}

function vatSummary(view: TDocumentView): Block {
  const foreign = view.vatSummary.some((b) => b.vatPlnGrosze !== undefined);
  const amounts = ['Kwota netto', 'Kwota podatku', 'Kwota brutto', ...(foreign ? ['Kwota podatku PLN'] : [])];
  const lp = 20;
  const rate = 240;
  const width = (CONTENT_WIDTH - lp - rate) / amounts.length;
  const columns: Column[] = [
    { key: 'lp', label: 'Lp.', width: lp, align: 'center' },
    { key: 'rate', label: 'Stawka podatku', width: rate, align: 'left' },
    ...amounts.map((l, i): Column => ({ key: `a${i}`, label: l, width, align: 'right' })),
  ];
  return stack('Podsumowanie stawek podatku', [
    tableHeader(columns),
    ...view.vatSummary.map((b, i) =>
      tableRow(columns, {
        lp: String(i + 1),
        rate: SUMMARY_RATE_LABEL[b.field],
        a0: formatGrosze(b.netGrosze),
        a1: formatGrosze(b.vatGrosze),
        a2: formatGrosze(b.netGrosze + b.vatGrosze),
        a3: b.vatPlnGrosze === undefined ? '' : formatGrosze(b.vatPlnGrosze),
      }),
    ),
  ]);
}

/** A titled section made of blocks laid one under another, kept together. */
function stack(title: string, blocks: readonly Block[]): Block {
  const pen = new Pen();
  let y = sectionTitle(pen, 0, title);
  for (const b of blocks) {
    for (const op of b.ops) pen.ops.push({ ...op, y: op.y + y });
    y += b.height;
  }
  return pen.block(y + SECTION.gap);
}

function annotations(view: TDocumentView): Block | null {
  const a = view.annotations;
  // only what applies is printed, as in the Ministry's visualisation (art. 106e ust. 1 pkt 16, 17, 18, 18a)
  const lines = [
    a.splitPayment && 'Mechanizm podzielonej płatności',
    a.cashAccounting && 'Metoda kasowa',
    a.reverseCharge && 'Odwrotne obciążenie',
    a.selfBilling && 'Samofakturowanie',
  ].filter((l): l is string => !!l);
  if (lines.length === 0) return null;
  return section('Adnotacje', (pen, y) =>
    twoColumns(
      pen,
      y,
      lines.map((text) => [{ text }]),
    ),
  );
}

function notes(view: TDocumentView): Block | null {
  if (view.notes.length === 0) return null;
  // a note on one row names it by its NrWiersza, the row's number in this document (the Ministry's "Numer wiersza")
  const row = view.notes.some((n) => n.row) ? 46 : 0;
  const columns: Column[] = [
    { key: 'lp', label: 'Lp.', width: 20, align: 'center' },
    ...(row ? [{ key: 'row', label: 'Numer wiersza', width: row, align: 'center' } as const] : []),
    { key: 'key', label: 'Rodzaj informacji', width: 150, align: 'left' },
    { key: 'value', label: 'Treść informacji', width: CONTENT_WIDTH - 170 - row, align: 'left' },
  ];
  return stack('Dodatkowe informacje', [
    tableHeader(columns),
    ...view.notes.map((n, i) => tableRow(columns, { lp: String(i + 1), row: n.row ?? '', key: n.key, value: n.value })),
  ]);
}

type Part = { title: string; items: Run[][] };

function payment(view: TDocumentView): Part | null {
  const p = view.payment;
  if (!p) return null;
  return {
    title: 'Płatność',
    items: [
      field('Informacja o płatności', p.paid ? 'Zapłacono' : 'Brak zapłaty'),
      ...(p.form ? [field('Forma płatności', p.form)] : []),
      ...(p.date ? [field('Data zapłaty', formatDate(p.date))] : []),
    ],
  };
}

function transactionTerms(view: TDocumentView): Part | null {
  if (view.orders.length === 0) return null;
  return {
    title: 'Warunki transakcji',
    // a field the order does not have is left out, not printed as "-"
    items: view.orders.flatMap((o) => [
      ...(o.date ? [field('Data zamówienia', formatDate(o.date))] : []),
      ...(o.number ? [field('Numer zamówienia', o.number)] : []),
    ]),
  };
}

type QrCode = { title: string; url: string; caption: string; help: string; size: number };

/**
 * A titled QR code in a box `width` wide from `x`: the symbol at the left with its caption under it, the help text and
 * the link beside it. Returns the height used.
 */
function qrCode(pen: Pen, code: QrCode, x: number, width: number): number {
  const y = sectionTitle(pen, 0, code.title, x, width);
  const qr = qrRuns(code.url);
  pen.ops.push({ t: 'qr', x, y, size: code.size, qr });
  // centred under the symbol and never wrapped: a KSeF number is a little wider than the code
  const captionWidth = Math.max(code.size, measureWidth(code.caption, 7, 'bold'));
  const caption = pen.paragraph([{ text: code.caption, weight: 'bold' }], x + (code.size - captionWidth) / 2, y + code.size + 2, captionWidth, 7, 9, 'center');
  const tx = x + code.size + 8;
  const tw = width - code.size - 8;
  // the symbol's quiet zone is white: the text starts level with the symbol's top
  let ty = y + (code.size * QUIET_MODULES) / (qr.size + 2 * QUIET_MODULES);
  ty += pen.paragraph([{ text: code.help }], tx, ty, tw) + 4;
  const link = pen.paragraph([{ text: code.url, color: LINK }], tx, ty, tw);
  pen.ops.push({ t: 'link', x: tx, y: ty, w: tw, h: link, url: code.url });
  return y + Math.max(code.size + 2 + caption, ty + link - y);
}

function kodI(view: TDocumentView): QrCode {
  return {
    title: 'Sprawdź, czy Twoja faktura znajduje się w KSeF!',
    url: view.qr.url,
    caption: view.ksefNumber ?? 'OFFLINE',
    help: 'Nie możesz zeskanować kodu z obrazka? Kliknij w link weryfikacyjny i przejdź do weryfikacji faktury!',
    size: QR.invoice,
  };
}

/**
 * The document's close in two columns: payment, transaction terms and "Wytworzona w:" (Naglowek/SystemInfo) on the
 * left, KOD I on the right, so the code (as large as the official one) shares its band instead of taking a page-wide one.
 * The code's column is a little wider than half, for its title on one line.
 */
function closing(view: TDocumentView): Block {
  const pen = new Pen();
  const codeWidth = 272;
  const width = CONTENT_WIDTH - codeWidth - COLUMN_GAP;
  let left = 0;
  for (const part of [payment(view), transactionTerms(view)]) {
    if (!part) continue;
    left += sectionTitle(pen, left, part.title, 0, width);
    for (const item of part.items) left += pen.paragraph(item, 0, left, width);
    left += SECTION.gap;
  }
  if (view.systemInfo) left += pen.paragraph(field('Wytworzona w', view.systemInfo), 0, left, width);
  const right = qrCode(pen, kodI(view), width + COLUMN_GAP, codeWidth);
  return pen.block(Math.max(left, right) + SECTION.gap);
}

/** KOD II, printed on a document issued offline only (KSeF brief §10), across the page under the close. */
function certificateCode(view: TDocumentView): Block | null {
  if (!view.certificateQr || view.ksefNumber !== null) return null;
  const pen = new Pen();
  const code = {
    title: 'Zweryfikuj wystawcę faktury!',
    url: view.certificateQr.url,
    caption: 'CERTYFIKAT',
    help: 'Nie możesz zeskanować kodu z obrazka? Kliknij w link weryfikacyjny i przejdź do weryfikacji wystawcy!',
    size: QR.certificate,
  };
  return pen.block(qrCode(pen, code, 0, CONTENT_WIDTH) + SECTION.gap);
}

export type DocumentPlan = {
  blocks: Block[];
  tableHeader: Block;
  continuation: Block;
};

/** Every block of the document in reading order (the Ministry's section order), the rows table's header apart. */
export function planBlocks(view: TDocumentView): DocumentPlan {
  const columns = rowColumns(view.rows);
  const caption = section(
    view.type === 'VAT' ? 'Pozycje' : view.rows.some((r) => r.before) ? 'Pozycje korekty (stan przed i stan po korekcie)' : 'Pozycje korekty (różnice)',
    () => 0,
    `Faktura wystawiona w cenach brutto w walucie ${view.currency}`,
  );
  caption.height -= SECTION.gap;
  caption.keepWithNext = true;
  const continuation = new Pen();
  continuation.paragraph([label(`${documentTitle(view)} ${view.number} – ciąg dalszy`)], 0, 0, CONTENT_WIDTH);
  const blocks = [
    header(view),
    correctedInvoices(view),
    ...parties(view),
    details(view),
    caption,
    ...rowBlocks(view, columns),
    total(view),
    vatSummary(view),
    annotations(view),
    notes(view),
    closing(view),
    certificateCode(view),
  ].filter((b): b is Block => b !== null);
  return { blocks, tableHeader: tableHeader(columns), continuation: continuation.block(TEXT.line + 5) };
}

/** The line under every page: the document and "Strona X z Y". */
export function footer(view: TDocumentView, page: number, pages: number): Op[] {
  const pen = new Pen();
  const y = PAGE.height - 32;
  pen.line(PAGE.marginX, y, CONTENT_WIDTH);
  pen.paragraph([label(`${documentTitle(view)} ${view.number}`)], PAGE.marginX, y + 3, CONTENT_WIDTH - 80, 7, 9);
  pen.paragraph([label(`Strona ${page} z ${pages}`)], PAGE.marginX, y + 3, CONTENT_WIDTH, 7, 9, 'right');
  return pen.ops;
}
