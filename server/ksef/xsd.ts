import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XmlBufferInputProvider, XmlDocument, XmlError, XmlLibError, xmlRegisterInputProvider, XsdValidator } from 'libxml2-wasm';
import { config } from '@/server/config';

export type XsdResult = { ok: true } | { ok: false; message: string };

const SCHEMAS = {
  fa3: 'schemat_FA(3)_v1-0E.xsd',
  auth: 'auth/schemat_auth_v2-1.xsd',
  upo: 'upo/upo-v4-3.xsd',
} as const;
export type SchemaName = keyof typeof SCHEMAS;

/** The absolute location FA(3) imports its base types from; catalog.xml maps it to bazowe/ (README §1). */
const BASE_TYPES_URL = 'http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/';

const validators = new Map<SchemaName, XsdValidator>();
let providerRegistered = false;

/**
 * libxml2 compiled to WebAssembly keeps a compiled schema object, so each validation costs a parse plus a walk
 * (~0.3 ms for an invoice) instead of recompiling the schema (~5 ms with libxmljs2's validate()). The wasm build has
 * no catalog support and no network, so the base types are served from memory under their official URLs.
 */
function registerBaseTypes(): void {
  if (providerRegistered) return;
  const dir = path.join(config().KSEF_SCHEMAS_DIR, 'bazowe');
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) files[BASE_TYPES_URL + name] = readFileSync(path.join(dir, name));
  xmlRegisterInputProvider(new XmlBufferInputProvider(files));
  providerRegistered = true;
}

function validator(name: SchemaName): XsdValidator {
  const hit = validators.get(name);
  if (hit) return hit;
  registerBaseTypes();
  const file = path.join(config().KSEF_SCHEMAS_DIR, SCHEMAS[name]);
  const schemaDoc = XmlDocument.fromBuffer(readFileSync(file), { url: `file://${file}` });
  try {
    const compiled = XsdValidator.fromDoc(schemaDoc);
    validators.set(name, compiled);
    return compiled;
  } finally {
    schemaDoc.dispose();
  }
}

function describe(err: unknown): string {
  if (err instanceof XmlLibError && err.details.length > 0) {
    return err.details
      .slice(0, 5)
      .map((d) => `${d.line ? `line ${d.line}: ` : ''}${d.message.trim()}`)
      .join('; ');
  }
  return err instanceof Error ? err.message.trim() : String(err);
}

/** Validates XML text (or its exact bytes) against one of the official schemas; the message lists libxml2's errors. */
export function validateXml(xml: string | Uint8Array, name: SchemaName): XsdResult {
  const schema = validator(name);
  let doc: XmlDocument;
  try {
    doc = typeof xml === 'string' ? XmlDocument.fromString(xml) : XmlDocument.fromBuffer(xml);
  } catch (err) {
    return { ok: false, message: `not well-formed XML: ${describe(err)}` };
  }
  try {
    schema.validate(doc);
    return { ok: true };
  } catch (err) {
    if (!(err instanceof XmlError)) throw err;
    return { ok: false, message: describe(err) || 'the document does not match the schema' };
  } finally {
    doc.dispose();
  }
}
