import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { config } from '../config';

type LibxmlDocument = { validate(schema: LibxmlDocument): boolean; validationErrors: { message: string; line?: number }[] };
type Libxml = { parseXml(text: string, options?: { baseUrl?: string; nonet?: boolean }): LibxmlDocument };

export type XsdResult = { ok: true } | { ok: false; message: string };

const SCHEMAS = {
  fa3: 'schemat_FA(3)_v1-0E.xsd',
  auth: 'auth/schemat_auth_v2-1.xsd',
  upo: 'upo/upo-v4-3.xsd',
} as const;
export type SchemaName = keyof typeof SCHEMAS;

let libxml: Libxml | undefined;
const compiled = new Map<SchemaName, LibxmlDocument>();

/**
 * libxml2 resolves the FA(3) schema's absolute import of the base types through the catalog next to the
 * official schemas; it must be in the environment before libxml2 loads its first external entity.
 */
function load(): Libxml {
  if (libxml) return libxml;
  process.env.XML_CATALOG_FILES = path.join(config().KSEF_SCHEMAS_DIR, 'catalog.xml');
  libxml = createRequire(import.meta.url)('libxmljs2') as Libxml;
  return libxml;
}

function schema(name: SchemaName): LibxmlDocument {
  const hit = compiled.get(name);
  if (hit) return hit;
  const file = path.join(config().KSEF_SCHEMAS_DIR, SCHEMAS[name]);
  const doc = load().parseXml(readFileSync(file, 'utf8'), { baseUrl: file });
  compiled.set(name, doc);
  return doc;
}

/** Validates XML text against one of the official schemas; the message lists libxml2's errors. */
export function validateXml(xml: string, name: SchemaName): XsdResult {
  let doc: LibxmlDocument;
  try {
    doc = load().parseXml(xml);
  } catch (err) {
    return { ok: false, message: `not well-formed XML: ${err instanceof Error ? err.message : String(err)}`.trim() };
  }
  if (doc.validate(schema(name))) return { ok: true };
  const message = doc.validationErrors
    .slice(0, 5)
    .map((e) => `${e.line ? `line ${e.line}: ` : ''}${e.message.trim()}`)
    .join('; ');
  return { ok: false, message: message || 'the document does not match the schema' };
}
