import { Canvas, Document, Link, Page, StyleSheet, Text, View } from '@react-pdf/renderer';
import { FONT_FAMILY } from './fonts';
import { formatDate, formatExchangeRate, formatGrosze, formatMoney, formatRate } from './format';
import {
  CONTENT_HEIGHT,
  CONTENT_WIDTH,
  CONTINUATION_HEIGHT,
  HEADER,
  LABEL_WIDTH,
  PAGE,
  PARTY_WIDTH,
  QR_BLOCK_HEIGHT,
  QR_COLUMN_WIDTH,
  QR_SIZE,
  ROW_COLUMNS,
  SECTION_TITLE,
  TABLE,
  TEXT,
  TOTAL_HEIGHT,
  correctionHeight,
  detailsHeight,
  headerHeight,
  partiesHeight,
  partyLines,
  paymentHeight,
  summaryColumns,
  summaryHeight,
  tableHeaderHeight,
  type Column,
  type RowCells,
  type RowColumnKey,
} from './layout';
import type { PagePlan } from './paginate';
import type { Styles } from '@react-pdf/renderer';
import type { QrRuns } from './qr-runs';
import type { TDocumentView, TPartyView } from './view-model';

const INK = '#1a1a1a';
const MUTED = '#5f6368';
const RULE = '#c8ccd0';
const SHADE = '#eef1f4';
const ACCENT = '#d7282f';

const s = StyleSheet.create({
  page: {
    fontFamily: FONT_FAMILY,
    fontSize: TEXT.size,
    color: INK,
    paddingTop: PAGE.marginTop,
    paddingBottom: PAGE.marginBottom,
    paddingHorizontal: PAGE.marginX,
  },
  row: { flexDirection: 'row' },
  line: { fontSize: TEXT.size, lineHeight: TEXT.line / TEXT.size },
  muted: { color: MUTED },
  bold: { fontWeight: 'bold' },
  sectionTitle: {
    fontSize: SECTION_TITLE.size,
    fontWeight: 'bold',
    height: SECTION_TITLE.height,
    paddingTop: 4,
    borderBottomWidth: 0.75,
    borderBottomColor: INK,
    marginBottom: 4,
  },
  label: { width: LABEL_WIDTH, color: MUTED, fontSize: TEXT.size, lineHeight: TEXT.line / TEXT.size },
  value: { width: CONTENT_WIDTH - LABEL_WIDTH, fontSize: TEXT.size, lineHeight: TEXT.line / TEXT.size },
  tableHeader: { flexDirection: 'row', alignItems: 'flex-start', backgroundColor: SHADE, borderBottomWidth: 0.75, borderBottomColor: INK },
  headerCell: {
    fontSize: TABLE.headerSize,
    fontWeight: 'bold',
    lineHeight: TABLE.headerLine / TABLE.headerSize,
    paddingHorizontal: TABLE.padX,
    paddingVertical: TABLE.padY,
  },
  tableRow: { flexDirection: 'row', alignItems: 'flex-start', borderBottomWidth: 0.5, borderBottomColor: RULE },
  cell: {
    fontSize: TABLE.size,
    lineHeight: TABLE.line / TABLE.size,
    paddingHorizontal: TABLE.padX,
    paddingVertical: TABLE.padY,
  },
  footer: {
    position: 'absolute',
    left: PAGE.marginX,
    right: PAGE.marginX,
    bottom: 20,
    flexDirection: 'row',
    justifyContent: 'space-between',
    borderTopWidth: 0.5,
    borderTopColor: RULE,
    paddingTop: 4,
    fontSize: 7,
    color: MUTED,
  },
});

/** Per-column cell styles, built once: react-pdf resolves a plain object faster than a style array. */
const cellStyles = Object.fromEntries(
  Object.entries(ROW_COLUMNS).map(([key, c]) => [key, { ...s.cell, width: c.width, textAlign: c.align }]),
) as Record<RowColumnKey, Styles[string]>;

export type DocumentProps = {
  view: TDocumentView;
  pages: PagePlan[];
  cells: RowCells[];
  rowHeights: number[];
  qr: QrRuns;
  rowsHeaderHeight: number;
  exchangeText: string | undefined;
};

export function kindTitle(view: TDocumentView): string {
  return view.kind === 'correction' ? 'Faktura korygująca' : 'Faktura VAT';
}

export function InvoiceDocument(props: DocumentProps) {
  const { view, pages } = props;
  return (
    <Document title={`${kindTitle(view)} ${view.number}`} author={view.seller.name} creator="KSeF Relay" producer="KSeF Relay">
      {pages.map((plan, i) => (
        <Page key={i} size="A4" style={s.page} wrap={false}>
          {/* react-pdf sizes a page that does not wrap to its content: this box keeps it A4 */}
          <View style={{ height: CONTENT_HEIGHT }}>
            {plan.intro ? <Intro view={view} /> : <Continuation view={view} />}
            {plan.rowEnd > plan.rowStart && <RowsTable {...props} plan={plan} />}
            {plan.closing && <Closing {...props} />}
          </View>
          <View style={s.footer}>
            <Text>
              {kindTitle(view)} {view.number}
            </Text>
            <Text>
              Strona {i + 1} z {pages.length}
            </Text>
          </View>
        </Page>
      ))}
    </Document>
  );
}

function Intro({ view }: { view: TDocumentView }) {
  return (
    <View>
      <Header view={view} />
      {view.correction && <CorrectedInvoice view={view} />}
      <Parties view={view} />
      <Details view={view} />
    </View>
  );
}

function Header({ view }: { view: TDocumentView }) {
  return (
    <View style={[s.row, { minHeight: headerHeight(view), justifyContent: 'space-between' }]}>
      <View>
        <Text style={{ fontSize: HEADER.brandSize }}>
          Krajowy System <Text style={{ color: ACCENT, fontWeight: 'bold' }}>e</Text>
          <Text style={s.bold}>-Faktur</Text>
        </Text>
      </View>
      <View style={{ width: HEADER.rightWidth, alignItems: 'flex-end' }}>
        <Text style={[s.line, s.muted]}>Numer faktury</Text>
        <Text style={{ fontSize: HEADER.numberSize, lineHeight: HEADER.numberLine / HEADER.numberSize, fontWeight: 'bold', textAlign: 'right' }}>
          {view.number}
        </Text>
        <Text style={[s.line, s.bold]}>{kindTitle(view)}</Text>
        <Text style={s.line}>
          <Text style={s.muted}>Numer KSeF: </Text>
          {view.ksefNumber ?? 'OFFLINE'}
        </Text>
      </View>
    </View>
  );
}

function SectionTitle({ children }: { children: string }) {
  return <Text style={s.sectionTitle}>{children}</Text>;
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <View style={s.row}>
      <Text style={s.label}>{label}</Text>
      <Text style={s.value}>{value}</Text>
    </View>
  );
}

function CorrectedInvoice({ view }: { view: TDocumentView }) {
  const c = view.correction;
  if (!c) return null;
  return (
    <View style={{ minHeight: correctionHeight(view) }}>
      <SectionTitle>Dane faktury korygowanej</SectionTitle>
      <Field label="Numer faktury korygowanej" value={c.originalNumber} />
      <Field label="Data wystawienia" value={formatDate(c.originalIssueDate)} />
      <Field label="Numer KSeF faktury korygowanej" value={c.originalKsefNumber} />
      <Field label="Przyczyna korekty" value={c.reason} />
    </View>
  );
}

function Party({ title, party }: { title: string; party: TPartyView }) {
  return (
    <View style={{ width: PARTY_WIDTH }}>
      <SectionTitle>{title}</SectionTitle>
      <Text style={[s.line, s.bold]}>{party.name}</Text>
      {partyLines(party).map((line, i) => (
        <Text key={i} style={s.line}>
          {line}
        </Text>
      ))}
    </View>
  );
}

function Parties({ view }: { view: TDocumentView }) {
  return (
    <View style={[s.row, { minHeight: partiesHeight(view), justifyContent: 'space-between' }]}>
      <Party title="Sprzedawca" party={view.seller} />
      <Party title="Nabywca" party={view.buyer} />
    </View>
  );
}

function Details({ view }: { view: TDocumentView }) {
  return (
    <View style={{ minHeight: detailsHeight(view) }}>
      <SectionTitle>Szczegóły</SectionTitle>
      <Field label="Data wystawienia" value={formatDate(view.issueDate)} />
      {view.issuePlace && <Field label="Miejsce wystawienia" value={view.issuePlace} />}
      {view.taxPointDate && <Field label="Data dokonania dostawy" value={formatDate(view.taxPointDate)} />}
      <Field label="Waluta" value={view.currency} />
    </View>
  );
}

function Continuation({ view }: { view: TDocumentView }) {
  return (
    <Text style={[s.line, s.muted, { minHeight: CONTINUATION_HEIGHT }]}>
      {kindTitle(view)} {view.number}: pozycje, ciąg dalszy
    </Text>
  );
}

function rowsCaption(view: TDocumentView): string {
  const what = view.kind === 'correction' ? 'Pozycje korekty (różnice)' : 'Pozycje';
  return `${what}, kwoty w ${view.currency}`;
}

function TableHeader({ columns, height }: { columns: readonly Column[]; height: number }) {
  return (
    <View style={[s.tableHeader, { minHeight: height }]}>
      {columns.map((c, i) => (
        <Text key={i} style={[s.headerCell, { width: c.width, textAlign: c.align }]}>
          {c.label}
        </Text>
      ))}
    </View>
  );
}

const ROW_KEYS = Object.keys(ROW_COLUMNS) as RowColumnKey[];
const ROW_COLUMN_LIST = ROW_KEYS.map((k) => ROW_COLUMNS[k]);

function RowsTable({ view, plan, cells, rowHeights, rowsHeaderHeight }: DocumentProps & { plan: PagePlan }) {
  const rows = [];
  for (let i = plan.rowStart; i < plan.rowEnd; i++) {
    const row = cells[i];
    if (!row) continue;
    rows.push(
      <View key={i} style={[s.tableRow, { minHeight: rowHeights[i] ?? 0 }]}>
        {ROW_KEYS.map((k) =>
          // Empty cells get no Text node: text layout is where react-pdf spends its time.
          row[k] ? (
            <Text key={k} style={cellStyles[k]}>
              {row[k]}
            </Text>
          ) : (
            <View key={k} style={{ width: ROW_COLUMNS[k].width }} />
          ),
        )}
      </View>,
    );
  }
  return (
    <View>
      {plan.intro && <SectionTitle>{rowsCaption(view)}</SectionTitle>}
      <TableHeader columns={ROW_COLUMN_LIST} height={rowsHeaderHeight} />
      {rows}
    </View>
  );
}

function Closing(props: DocumentProps) {
  const { view, exchangeText } = props;
  const foreign = view.exchangeRate !== undefined;
  const columns = summaryColumns(foreign);
  return (
    <View>
      <View style={[s.row, { minHeight: TOTAL_HEIGHT, justifyContent: 'flex-end', alignItems: 'center' }]}>
        <Text style={{ fontSize: 10 }}>
          <Text style={s.muted}>Kwota należności ogółem: </Text>
          <Text style={s.bold}>{formatMoney(view.totals.grossGrosze, view.currency)}</Text>
        </Text>
      </View>
      <View style={{ minHeight: summaryHeight(view, exchangeText) }}>
        <SectionTitle>Podsumowanie stawek podatku</SectionTitle>
        <TableHeader columns={columns} height={tableHeaderHeight(columns)} />
        {view.vatSummary.map((b, i) => {
          const values = [String(i + 1), formatRate(b.rate), formatGrosze(b.netGrosze), formatGrosze(b.vatGrosze), formatGrosze(b.grossGrosze)];
          if (foreign) values.push(b.vatPlnGrosze === undefined ? '' : formatGrosze(b.vatPlnGrosze));
          return (
            <View key={i} style={[s.tableRow, { minHeight: TABLE.line + 2 * TABLE.padY }]}>
              {columns.map((c, j) => (
                <Text key={j} style={[s.cell, { width: c.width, textAlign: c.align }]}>
                  {values[j]}
                </Text>
              ))}
            </View>
          );
        })}
        {exchangeText && <Text style={[s.line, { marginTop: 4 }]}>{exchangeText}</Text>}
      </View>
      {view.payment && (
        <View style={{ minHeight: paymentHeight(view) }}>
          <SectionTitle>Płatność</SectionTitle>
          <Field label="Forma płatności" value={view.payment.form} />
          <Field label="Zapłacono" value={view.payment.paid ? 'Tak' : 'Nie'} />
          {view.payment.date && <Field label="Data zapłaty" value={formatDate(view.payment.date)} />}
        </View>
      )}
      <QrBlock {...props} />
    </View>
  );
}

/** Minimal drawing API of react-pdf's Canvas painter (pdfkit underneath). */
type Painter = { rect(x: number, y: number, w: number, h: number): Painter; fill(color: string): Painter };

function QrBlock({ view, qr }: DocumentProps) {
  const quiet = 4; // modules of white border a scanner needs around the symbol
  const cell = QR_SIZE / (qr.size + 2 * quiet);
  // Canvas draws straight through pdfkit; an Svg path of ~500 rectangles cost more than the rest of the page.
  const paint = (painter: Painter) => {
    for (const [x, y, length] of qr.runs) painter.rect((x + quiet) * cell, (y + quiet) * cell, length * cell, cell);
    painter.fill('#000000');
    return null;
  };
  return (
    <View style={{ minHeight: QR_BLOCK_HEIGHT }}>
      <SectionTitle>Sprawdź, czy Twoja faktura znajduje się w KSeF!</SectionTitle>
      <View style={s.row}>
        <View style={{ width: QR_COLUMN_WIDTH, alignItems: 'center' }}>
          <Canvas style={{ width: QR_SIZE, height: QR_SIZE }} paint={paint} />
          <Text style={[s.line, s.bold, { fontSize: 7, marginTop: 2 }]}>{view.ksefNumber ?? 'OFFLINE'}</Text>
        </View>
        <View style={{ width: CONTENT_WIDTH - QR_COLUMN_WIDTH - 12, marginLeft: 12, paddingTop: 28 }}>
          <Text style={s.line}>
            Nie możesz zeskanować kodu z obrazka? Kliknij w link weryfikacyjny i przejdź do weryfikacji faktury!
          </Text>
          <Link src={view.qr.url} style={[s.line, { color: '#1a4fa3', marginTop: 4 }]}>
            {splitLink(view.qr.url)}
          </Link>
        </View>
      </View>
    </View>
  );
}

/** The link has no break opportunity textkit would use: put the hash on its own line. */
function splitLink(url: string): string {
  const cut = url.lastIndexOf('/') + 1;
  return `${url.slice(0, cut)}\n${url.slice(cut)}`;
}

export function exchangeRateText(view: TDocumentView): string | undefined {
  const r = view.exchangeRate;
  if (!r) return undefined;
  return `Kurs waluty: 1 ${view.currency} = ${formatExchangeRate(r.rate)} PLN, średni kurs NBP z tabeli ${r.table} z dnia ${formatDate(r.date)}`;
}
