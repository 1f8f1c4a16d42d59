import { xmlTree, type Tree } from '@/server/ksef/fa3/xml-tree';
import { parseGrosze } from '@/server/orders/money';
import { lateDeadline } from '@/server/orders/tax-dates';
import { SUMMARY_FIELDS } from './format';
import type { TDocumentView, TPartyView, TRowView, TVatSummaryView } from './view-model';

/**
 * Everything the printout shows, read from the FA(3) XML as sent: the PDF is a visualisation of the e-invoice,
 * as the Ministry's generator is, so a field the XML gains (P_6, P_16, P_18A, P_12_Zal_15, JST/GV, Podmiot3 …)
 * appears without a second source to keep in step. Only KSeF's number and the QR links come from elsewhere.
 */
export type IssuedFacts = Omit<TDocumentView, 'ksefNumber' | 'qr' | 'certificateQr'>;

/** TFormaPlatnosci 1–7 as the Ministry's visualisation names them. */
const PAYMENT_FORM: Record<string, string> = { '1': 'Gotówka', '2': 'Karta', '3': 'Bon', '4': 'Czek', '5': 'Kredyt', '6': 'Przelew', '7': 'Mobilna' };

export function readIssuedFacts(fa3Xml: string | Buffer): IssuedFacts {
  const tree = xmlTree(typeof fa3Xml === 'string' ? fa3Xml : fa3Xml.toString('utf8'));
  const fa = child(tree, 'Fa');
  const seller = party(child(tree, 'Podmiot1'));
  const buyer = party(child(tree, 'Podmiot2'));
  if (!fa || !seller || !buyer) throw new Error('FA(3) XML without Podmiot1, Podmiot2 or Fa');
  const type = text(fa, 'RodzajFaktury');
  if (type !== 'VAT' && type !== 'KOR') throw new Error(`FA(3) RodzajFaktury ${type} is not printed by this service`);
  const issueDate = required(fa, 'P_1');
  const rows: TRowView[] = [];
  const vatSummary: TVatSummaryView[] = [];
  const notes: IssuedFacts['notes'] = [];
  const rates = new Set<string>();
  for (const c of fa.children) {
    if (c.name === 'FaWiersz') {
      rows.push(row(c));
      const rate = text(c, 'KursWaluty');
      if (rate) rates.add(rate);
    } else if (c.name === 'DodatkowyOpis') notes.push({ key: text(c, 'Klucz') ?? '', value: text(c, 'Wartosc') ?? '', ...opt('row', text(c, 'NrWiersza')) });
  }
  for (const field of SUMMARY_FIELDS) {
    const net = amount(fa, `P_13_${field}`);
    const vat = amount(fa, `P_14_${field}`);
    const vatPln = amount(fa, `P_14_${field}W`);
    if (net === undefined && vat === undefined) continue;
    vatSummary.push({ field, netGrosze: net ?? 0, vatGrosze: vat ?? 0, ...(vatPln !== undefined && { vatPlnGrosze: vatPln }) });
  }
  const adnotacje = child(fa, 'Adnotacje');
  const yes = (name: string) => (adnotacje ? text(adnotacje, name) === '1' : false);
  const platnosc = child(fa, 'Platnosc');
  const payment: IssuedFacts['payment'] = platnosc && {
    paid: text(platnosc, 'Zaplacono') === '1',
    ...opt('date', text(platnosc, 'DataZaplaty')),
    ...opt('form', PAYMENT_FORM[text(platnosc, 'FormaPlatnosci') ?? '']),
  };
  const deliveryDate = text(fa, 'P_6') ?? undefined;
  const systemInfo = text(child(tree, 'Naglowek'), 'SystemInfo');
  // without P_6 the supply is dated P_1 (art. 106e ust. 1 pkt 6 omits an equal date), so only a payment can make it late
  const lateSince = type === 'VAT' ? lateDeadline(issueDate, deliveryDate ?? issueDate, payment?.paid ? payment.date : undefined) : undefined;
  return {
    type,
    number: required(fa, 'P_2'),
    issueDate,
    ...opt('issuePlace', text(fa, 'P_1M')),
    ...opt('deliveryDate', deliveryDate),
    currency: required(fa, 'KodWaluty'),
    // one rate for all rows is the only case this service issues; rows with differing rates print no common rate
    ...opt('exchangeRate', rates.size === 1 ? [...rates][0] : undefined),
    seller,
    buyer,
    otherParties: tree.children
      .filter((c) => c.name === 'Podmiot3')
      .map((p) => party(p))
      .filter((p): p is TPartyView => p !== undefined),
    ...(type === 'KOR' && { correction: correction(fa) }),
    rows,
    vatSummary,
    totalGrosze: amount(fa, 'P_15') ?? 0,
    annotations: { cashAccounting: yes('P_16'), selfBilling: yes('P_17'), reverseCharge: yes('P_18'), splitPayment: yes('P_18A') },
    notes,
    ...(payment && { payment }),
    orders: (child(fa, 'WarunkiTransakcji')?.children ?? [])
      .filter((c) => c.name === 'Zamowienia')
      .map((z) => ({ ...opt('number', text(z, 'NrZamowienia')), ...opt('date', text(z, 'DataZamowienia')) })),
    ...opt('lateSince', lateSince),
    ...opt('systemInfo', systemInfo),
  };
}

function correction(fa: Tree): NonNullable<IssuedFacts['correction']> {
  const type = Number(text(fa, 'TypKorekty'));
  const invoices = fa.children
    .filter((c) => c.name === 'DaneFaKorygowanej')
    .map((d) => ({
      number: required(d, 'NrFaKorygowanej'),
      issueDate: required(d, 'DataWystFaKorygowanej'),
      ...opt('ksefNumber', text(d, 'NrKSeFFaKorygowanej')),
    }));
  return {
    ...opt('reason', text(fa, 'PrzyczynaKorekty')),
    ...(type === 1 || type === 2 || type === 3 ? { type } : {}),
    invoices,
  };
}

/** The seller's name as issued (Podmiot1), for the e-mail: that one element parsed, not the whole document's rows. */
export function readSellerName(fa3Xml: string): string {
  const start = fa3Xml.indexOf('<Podmiot1>');
  const end = fa3Xml.indexOf('</Podmiot1>', start);
  if (start < 0 || end < 0) throw new Error('FA(3) XML without Podmiot1');
  return party(xmlTree(fa3Xml.slice(start, end + '</Podmiot1>'.length)))!.name;
}

function party(p: Tree | undefined): TPartyView | undefined {
  if (!p) return undefined;
  const id = child(p, 'DaneIdentyfikacyjne');
  const adres = child(p, 'Adres');
  const contact = child(p, 'DaneKontaktowe');
  const role = Number(text(p, 'Rola'));
  return {
    name: text(id, 'Nazwa') ?? '',
    ...opt('nip', text(id, 'NIP')),
    ...opt('internalId', text(id, 'IDWew')),
    addressLines: [text(adres, 'AdresL1'), text(adres, 'AdresL2')].filter((l): l is string => !!l),
    ...opt('countryCode', text(adres, 'KodKraju')),
    ...opt('email', text(contact, 'Email')),
    ...opt('phone', text(contact, 'Telefon')),
    ...opt('customerNumber', text(p, 'NrKlienta')),
    ...opt('jst', flag(text(p, 'JST'))),
    ...opt('gv', flag(text(p, 'GV'))),
    ...(role >= 1 && role <= 11 && { role }),
  };
}

function row(w: Tree): TRowView {
  const values: Record<string, string> = {};
  for (const c of w.children) if (c.text !== null) values[c.name] = c.text;
  const gross = parseGrosze(values.P_11A ?? '');
  if (gross === null || !values.P_7 || !values.P_9B || !values.P_8B || !values.P_12) {
    throw new Error(`FA(3) FaWiersz ${values.NrWierszaFa ?? '?'} lacks P_7, P_8B, P_9B, P_11A or P_12: only the gross method is printed`);
  }
  return {
    lp: values.NrWierszaFa ?? '',
    ...opt('uuId', values.UU_ID),
    name: values.P_7,
    ...opt('sku', values.Indeks),
    quantity: values.P_8B,
    ...opt('unit', values.P_8A),
    unitGross: values.P_9B,
    ...opt('discount', values.P_10),
    rate: values.P_12,
    ...(values.P_12_Zal_15 === '1' && { annex15: true }),
    grossGrosze: gross,
    ...(values.StanPrzed === '1' && { before: true }),
  };
}

/** TWybor1_2: 1 yes, 2 no; absent stays absent. */
const flag = (value: string | null): boolean | null => (value === null ? null : value === '1');
const child = (t: Tree | undefined, name: string): Tree | undefined => t?.children.find((c) => c.name === name);
const text = (t: Tree | undefined, name: string): string | null => child(t, name)?.text ?? null;
const opt = <K extends string, V>(key: K, value: V | null | undefined) => (value === null || value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

function required(t: Tree, name: string): string {
  const value = text(t, name);
  if (!value) throw new Error(`FA(3) ${t.name}/${name} is missing`);
  return value;
}

function amount(t: Tree, name: string): number | undefined {
  const value = text(t, name);
  if (value === null) return undefined;
  const grosze = parseGrosze(value);
  if (grosze === null) throw new Error(`FA(3) ${name} is not an amount: ${value}`);
  return grosze;
}
