import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

export type ContractCheck = { method: string; path: string; status: number; schema: string; errors?: string };

/** OpenAPI 3.0's `nullable` as JSON Schema: a null type beside the declared one, or an anyOf around composed schemas. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toJsonSchema(v)]));
  if (nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'], ...(Array.isArray(out.enum) ? { enum: [...out.enum, null] } : {}) };
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * Validates KSeF responses against the official OpenAPI (read at test time from KSEF_OPENAPI_PATH): the operation is
 * found by path template and method, the schema by status and content type. Used by the emulator's contract tests.
 */
export function createContractChecker(openApiPath: string) {
  const doc = JSON.parse(readFileSync(openApiPath, 'utf8')) as OpenApi;
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'ksef', components: toJsonSchema(doc.components) });
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(doc.paths).map((p) => ({
    template: p,
    re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: p.replace(/\{[^}]+\}/g, '').length,
  }));
  const checks: ContractCheck[] = [];

  function schemaFor(method: string, path: string, status: number, contentType: string): { key: string; schema: unknown } | undefined {
    // The most literal template wins: /sessions/{ref}/invoices/failed before /sessions/{ref}/invoices/{invoiceRef}.
    const hit = templates.filter((t) => t.re.test(path) && doc.paths[t.template]?.[method]).sort((a, b) => b.literal - a.literal)[0];
    if (!hit) return undefined;
    const content = doc.paths[hit.template]?.[method]?.responses?.[String(status)]?.content;
    if (!content) return { key: `${method} ${hit.template} ${status} (no body)`, schema: undefined };
    const type = Object.keys(content).find((t) => contentType.startsWith(t)) ?? Object.keys(content)[0] ?? '';
    return { key: `${method} ${hit.template} ${status} ${type}`, schema: content[type]?.schema };
  }

  function check(method: string, path: string, status: number, contentType: string, text: string): ContractCheck {
    const found = schemaFor(method.toLowerCase(), path, status, contentType);
    if (!found) {
      const c = { method, path, status, schema: '(no operation)', errors: `no OpenAPI operation for ${method} ${path} → ${status}` };
      checks.push(c);
      return c;
    }
    const c: ContractCheck = { method, path, status, schema: found.key };
    if (found.schema && contentType.includes('json')) {
      let validate = compiled.get(found.key);
      if (!validate) {
        const schema = toJsonSchema(JSON.parse(JSON.stringify(found.schema).replace(/"#\/components\//g, '"ksef#/components/'))) as object;
        validate = ajv.compile(schema);
        compiled.set(found.key, validate);
      }
      if (!validate(JSON.parse(text))) c.errors = ajv.errorsText(validate.errors);
    }
    checks.push(c);
    return c;
  }

  /** A fetch that checks every answer from the KSeF base URL before handing it on. */
  function wrap(baseUrl: string, inner: typeof fetch = fetch): typeof fetch {
    const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
    return async (input, init) => {
      const res = await inner(input, init);
      const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
      if (url.pathname.startsWith(`${basePath}/`)) {
        const text = await res.clone().text();
        check(init?.method ?? 'GET', url.pathname.slice(basePath.length), res.status, res.headers.get('content-type') ?? '', text);
      }
      return res;
    };
  }

  return { check, wrap, checks, violations: () => checks.filter((c) => c.errors) };
}
