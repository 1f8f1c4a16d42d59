import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { registerCsvHeader, registerCsvLine } from './register-csv';
import { readRegisterFacts } from './register-facts';
import { registerDocuments, type RegisterFilter } from './register-query';
import { buildRegisterRow, type RegisterRow } from './register-row';
import { registerXmlHead, registerXmlRow, registerXmlTail, rowVatPln } from './register-xml';

export const REGISTER_FORMATS = ['csv', 'xml'] as const;
export type RegisterFormat = (typeof REGISTER_FORMATS)[number];

/** The register's rows in order, each read from its FA(3) XML as issued. */
export async function* registerRows(db: Db, scope: Scope, filter: RegisterFilter): AsyncGenerator<RegisterRow> {
  for await (const doc of registerDocuments(db, scope, filter)) yield buildRegisterRow(doc, readRegisterFacts(doc.fa3Xml));
}

/** The register as CSV text pieces: the header, then one line per row. */
export async function* registerCsv(rows: AsyncIterable<RegisterRow>): AsyncGenerator<string> {
  yield registerCsvHeader();
  let lp = 0;
  for await (const row of rows) yield registerCsvLine(++lp, row);
}

/** The register as JPK_V7M(3) sales rows, the control totals last. */
export async function* registerXml(rows: AsyncIterable<RegisterRow>): AsyncGenerator<string> {
  yield registerXmlHead();
  let lp = 0;
  let vat = 0;
  for await (const row of rows) {
    vat += rowVatPln(row);
    yield registerXmlRow(++lp, row);
  }
  yield registerXmlTail(lp, vat);
}

export function registerPieces(db: Db, scope: Scope, filter: RegisterFilter, format: RegisterFormat): AsyncGenerator<string> {
  const rows = registerRows(db, scope, filter);
  return format === 'csv' ? registerCsv(rows) : registerXml(rows);
}
