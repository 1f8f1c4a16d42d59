import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { ROOT } from '@/server/config';
import { ERRORS } from '@/server/facts/error-codes';
import { isValidKsefNumber } from '@/server/ksef/ksef-number';
import { isValidNip, normalizeNip } from '@/server/orders/nip';
import { withComponents } from '@/test/openapi-check';
import { KsefRelay } from '@/sdk/src/index';
import { buildOpenApiDocument, OPERATIONS } from './openapi';

type Media = { schema: object; example?: unknown };
type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name?: string; in?: string; schema?: object; example?: unknown }[];
        requestBody?: { content: Record<string, Media> };
        responses: Record<string, { content: Record<string, Media>; headers: Record<string, unknown> }>;
        'x-codeSamples': { lang: string; label: string; source: string }[];
      }
    >
  >;
};
const doc = buildOpenApiDocument() as unknown as Doc;

/** Every route file under app/v1 with the methods it serves (the keys given to v1Routes), as OpenAPI path + method. */
function routesOnDisk(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const source = readFileSync(full, 'utf8');
        const served = /v1Routes\(\{([^}]*)\}\)/.exec(source);
        if (!served) throw new Error(`${full} does not build its methods with v1Routes`);
        const methods = [...served[1]!.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s*:/g)].map((m) => m[1]!.toLowerCase());
        const apiPath = path
          .relative(path.join(ROOT, 'app'), path.dirname(full))
          .split(path.sep)
          .map((s) => s.replace(/^\[(.+)\]$/, '{$1}'))
          .join('/');
        for (const m of methods) found.push(`${m} /${apiPath}`);
      }
    }
  };
  walk(path.join(ROOT, 'app/v1'));
  return found.sort();
}

const described = () =>
  Object.entries(doc.paths)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
    .sort();

describe('OpenAPI document of /v1', () => {
  test('describes exactly the routes that exist under app/v1 (a new route without a description fails here)', () => {
    const onDisk = routesOnDisk();
    expect(onDisk.length).toBeGreaterThanOrEqual(13);
    expect(described()).toEqual(onDisk);
  });

  test('is OpenAPI 3.1 and every schema in it compiles as JSON Schema 2020-12', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          if (!r.content['application/json']) continue;
          expect(ajv.compile(withComponents(r.content['application/json'], doc)), `${m} ${p} ${status}`).toBeTypeOf('function');
        }
      }
    }
  });

  test('every operation answers 401, 429 (with Retry-After) and 500 in the error envelope, and every answer has Request-Id and RateLimit-*', () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        for (const status of ['401', '403', '405', '429', '500']) expect(op.responses[status], `${m} ${p} ${status}`).toBeDefined();
        expect(Object.keys(op.responses['429']!.headers)).toContain('Retry-After');
        for (const r of Object.values(op.responses))
          expect(Object.keys(r.headers)).toEqual(expect.arrayContaining(['Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
      }
    }
  });

  test('every request error code of the errors table is answered by some operation, under its own HTTP status', () => {
    const text = JSON.stringify(doc.paths);
    const requestCodes = Object.entries(ERRORS).filter(([code, e]) => e.status !== null && code !== 'route_not_found' && !('surface' in e));
    for (const [code, e] of requestCodes) {
      expect(text, code).toContain(`"${code}"`);
      const statuses = Object.values(doc.paths).flatMap((ops) =>
        Object.values(ops).flatMap((op) =>
          Object.entries(op.responses)
            .filter(([, r]) => JSON.stringify(r).includes(`"${code}"`))
            .map(([s]) => Number(s)),
        ),
      );
      expect(new Set(statuses), code).toEqual(new Set([e.status]));
    }
  });

  test('POST operations take an Idempotency-Key', () => {
    for (const ops of Object.values(doc.paths)) {
      const post = ops.post as unknown as { parameters?: { $ref?: string }[] } | undefined;
      if (post) expect(post.parameters?.map((p) => p.$ref)).toContain('#/components/parameters/Idempotency-Key');
    }
  });
});

/** Every string and number inside an example, with its JSON path. */
function leaves(value: unknown, at = ''): [string, string | number][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${at}.${k}`));
  return typeof value === 'string' || typeof value === 'number' ? [[at, value]] : [];
}

describe('examples of the OpenAPI document', () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => ({ where: `${m} ${p}`, op })));

  test('every parameter, request body and JSON answer (success and error) has an example that its schema accepts', () => {
    let checked = 0;
    for (const { where, op } of operations) {
      for (const param of op.parameters ?? []) {
        if (param.in !== 'path') continue;
        expect(param.example, `${where} ${param.name}`).toBeDefined();
        expect(ajv.validate(param.schema!, param.example), `${where} ${param.name}`).toBe(true);
      }
      const media = [...Object.entries(op.responses).map(([s, r]) => [s, r.content['application/json']] as const)];
      if (op.requestBody) media.push(['request', op.requestBody.content['application/json']]);
      for (const [status, m] of media) {
        if (!m) continue;
        expect(m.example, `${where} ${status}`).toBeDefined();
        const validate = ajv.compile(withComponents(m, doc));
        expect(validate(m.example), `${where} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  test('request examples pass the zod schemas the handlers parse with (the document alone is looser: refinements)', () => {
    for (const op of OPERATIONS) {
      if (op.body) expect(op.body.safeParse(op.example.body).error, op.operationId).toBeUndefined();
      if (op.query)
        expect(op.query.safeParse(Object.fromEntries(Object.entries(op.example.query ?? {}).map(([k, v]) => [k, String(v)]))).error).toBeUndefined();
      if (op.pathParams) expect(op.pathParams.safeParse(op.example.path).error, op.operationId).toBeUndefined();
    }
  });

  test('examples are realistic: NIPs with a valid checksum, valid KSeF numbers, dates and times in 2026', () => {
    const all = operations.flatMap(({ where, op }) =>
      leaves([
        op.requestBody?.content['application/json']?.example,
        op.parameters?.map((p) => p.example),
        Object.values(op.responses).map((r) => r.content['application/json']?.example),
      ]).map(([at, v]) => [`${where}${at}`, v] as const),
    );
    const nips = all.filter(([at]) => /nip$/.test(at));
    expect(nips.length).toBeGreaterThan(5);
    for (const [at, v] of nips) expect(isValidNip(normalizeNip(String(v))), `${at} ${v}`).toBe(true);
    for (const [at, v] of all.filter(([at]) => /ksef_number$/.test(at))) expect(isValidKsefNumber(String(v)), at).toBe(true);
    const dates = all.filter(([, v]) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v));
    expect(dates.length).toBeGreaterThan(5);
    for (const [at, v] of dates) expect(String(v).slice(0, 4), at).toBe('2026');
    for (const [at, v] of all.filter(([at]) => /\.(created|updated)$/.test(at))) expect(new Date(Number(v) * 1000).getUTCFullYear(), at).toBe(2026);
  });

  test('every operation has a curl and an SDK sample made from its example, calling a method the SDK has', () => {
    const relay = new KsefRelay({ apiKey: 'sk_test_x', baseUrl: 'http://localhost:3000' });
    for (const op of OPERATIONS) {
      const samples = doc.paths[op.path]![op.method]!['x-codeSamples'];
      expect(samples.map((s) => s.label)).toEqual(['curl', 'SDK (TypeScript)']);
      const [curl, sdk] = samples.map((s) => s.source);
      expect(curl).toContain(`curl`);
      expect(curl).toContain(op.path.replace(/\{id\}/, op.example.path?.id ?? ''));
      if (op.example.body !== undefined) expect(curl).toContain(JSON.stringify(op.example.body, null, 2));
      expect(sdk).toContain(`relay.${op.sdk.method}(`);
      const [group, method] = op.sdk.method.split('.') as [keyof KsefRelay, string];
      expect(typeof (relay[group] as unknown as Record<string, unknown>)[method], op.sdk.method).toBe('function');
    }
  });
});
