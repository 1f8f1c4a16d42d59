import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument, OPERATIONS } from '@/server/api/openapi';

/**
 * Checks a real /v1 answer against the OpenAPI document (built by the same code the server serves it with): the
 * status must be one the operation describes, the JSON body must match that response's schema, and the headers
 * every answer carries must be there. Every HTTP test's client runs it on every answer.
 */
let doc: ReturnType<typeof buildOpenApiDocument> | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

const templates = OPERATIONS.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** A response schema as a standalone JSON Schema: its `#/components/schemas/…` refs resolve inside it. */
export const withComponents = (media: { schema: object }, openapi: Record<string, unknown>): object => ({
  ...media.schema,
  components: { schemas: (openapi.components as { schemas: object }).schemas },
});

export function operationFor(method: string, pathname: string) {
  return templates.find((t) => t.op.method === method.toLowerCase() && t.pattern.test(pathname))?.op;
}

export function checkAgainstOpenApi(method: string, url: string, status: number, headers: Headers, body: unknown): void {
  const pathname = new URL(url, 'http://x').pathname;
  const op = operationFor(method, pathname);
  if (!op) return; // unknown paths and methods: the route tests check route_not_found / method_not_allowed themselves
  doc ??= buildOpenApiDocument();
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
  }
  const where = `${method.toUpperCase()} ${op.path} → ${status}`;
  const response = (doc.paths as Record<string, Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>>)[op.path]![op.method]!
    .responses[String(status)];
  if (!response) throw new Error(`${where}: the OpenAPI document does not describe this status`);
  for (const h of ['Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', ...(status === 429 ? ['Retry-After'] : [])]) {
    if (!headers.get(h)) throw new Error(`${where}: header ${h} missing`);
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!(type in response.content)) throw new Error(`${where}: content type ${type} is not described (${Object.keys(response.content).join(', ')})`);
  if (type !== 'application/json') return;
  const key = `${op.method} ${op.path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(withComponents(response.content['application/json'] as { schema: object }, doc));
    validators.set(key, validate);
  }
  if (!validate(body))
    throw new Error(`${where}: body does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
}
