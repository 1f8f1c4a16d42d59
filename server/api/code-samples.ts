import type { Operation } from './openapi';

/** `x-codeSamples` entry: the reference page shows one tab per sample above the operation's examples. */
export type CodeSample = { lang: string; label: string; source: string };

/** Where the samples point when the document is built without an absolute server URL (tests, `/`). */
const LOCAL_URL = 'http://localhost:3000';

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** JSON as a TypeScript object literal: identifier keys unquoted, the rest as JSON has it. */
const tsLiteral = (value: unknown) => JSON.stringify(value, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:');

const pathWith = (op: Operation) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(op.example.path?.[name] ?? `{${name}}`));

const queryString = (op: Operation) => {
  const entries = Object.entries(op.example.query ?? {}).map(([k, v]) => [k, String(v)]);
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
};

function curl(op: Operation, base: string): string {
  const binary = op.responses.some((r) => 'contentType' in r);
  const lines = [
    `curl${op.method === 'get' ? '' : ` -X ${op.method.toUpperCase()}`}${binary ? ' -OJ' : ''} ${shellQuote(`${base}${pathWith(op)}${queryString(op)}`)}`,
  ];
  lines.push(`-H "Authorization: Bearer $KSEF_RELAY_KEY"`);
  if (op.example.idempotencyKey) lines.push(`-H ${shellQuote(`Idempotency-Key: ${op.example.idempotencyKey}`)}`);
  if (op.example.body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `--data ${shellQuote(JSON.stringify(op.example.body, null, 2))}`);
  return lines.join(' \\\n  ');
}

function sdk(op: Operation, base: string): string {
  const args = [
    ...Object.values(op.example.path ?? {}).map((id) => `'${id}'`),
    ...(op.example.body !== undefined ? [tsLiteral(op.example.body)] : []),
    ...(op.example.query ? [tsLiteral(op.example.query)] : []),
    ...(op.example.idempotencyKey ? [`{ idempotencyKey: '${op.example.idempotencyKey}' }`] : []),
  ];
  return [
    `import { KsefRelay } from '@ksef-relay/sdk';`,
    '',
    `const relay = new KsefRelay({ apiKey: process.env.KSEF_RELAY_KEY!, baseUrl: '${base}' });`,
    `const ${op.sdk.result} = await relay.${op.sdk.method}(${args.join(', ')});`,
  ].join('\n');
}

/**
 * The curl and SDK (TypeScript, `sdk/`) samples of one operation, both made from its request example so that
 * they send what the examples test sends to a real server.
 */
export function codeSamples(op: Operation, serverUrl: string): CodeSample[] {
  const base = /^https?:\/\//.test(serverUrl) ? serverUrl.replace(/\/$/, '') : LOCAL_URL;
  return [
    { lang: 'Shell', label: 'curl', source: curl(op, base) },
    { lang: 'TypeScript', label: 'SDK (TypeScript)', source: sdk(op, base) },
  ];
}
