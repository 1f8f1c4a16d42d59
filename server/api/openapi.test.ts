import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { ROOT } from '@/server/config';
import { ERRORS } from '@/server/errors';
import { withComponents } from '@/test/openapi-check';
import { buildOpenApiDocument } from './openapi';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }>; headers: Record<string, unknown> }> }>>;
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
