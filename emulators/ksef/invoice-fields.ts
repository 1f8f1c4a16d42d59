/** The few FA(3) fields KSeF checks beyond the schema, read from schema-valid XML without a second parse. */
export type InvoiceFields = {
  sellerNip?: string;
  kind?: string;
  number?: string;
  issueDate?: string;
  correctedKsefNumbers: string[];
};

const decode = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_m, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[e]) return named[e];
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

const element = (xml: string, name: string, from = 0): string | undefined => {
  const re = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:[\\w.-]+:)?${name}>`, 'g');
  re.lastIndex = from;
  const m = re.exec(xml);
  return m?.[1] === undefined ? undefined : decode(m[1]).trim();
};

export function readInvoiceFields(xml: string): InvoiceFields {
  const podmiot1 = xml.search(/<(?:[\w.-]+:)?Podmiot1[\s>]/);
  const fa = xml.search(/<(?:[\w.-]+:)?Fa[\s>]/);
  const corrected = [...xml.matchAll(/<(?:[\w.-]+:)?NrKSeFFaKorygowanej>([^<]*)</g)].map((m) => (m[1] ?? '').trim());
  return {
    sellerNip: podmiot1 >= 0 ? element(xml, 'NIP', podmiot1) : undefined,
    kind: element(xml, 'RodzajFaktury', Math.max(fa, 0)),
    number: element(xml, 'P_2', Math.max(fa, 0)),
    issueDate: element(xml, 'P_1', Math.max(fa, 0)),
    correctedKsefNumbers: corrected,
  };
}
