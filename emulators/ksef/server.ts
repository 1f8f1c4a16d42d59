import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Ctx } from './context';
import { drawFaults, type FaultRule } from './faults';
import { emulatorKeys } from './keys';
import { KsefFailure, fail, renderFailure, sleep, traceId, type Reply } from './kit';
import { consumeLimit, type LimitsMode } from './limits';
import { findRoute, type Area } from './routes';
import { bump, createState, type EmulatorState } from './state';

export type KsefEmulatorOptions = { port?: number; host?: string; limits?: LimitsMode; processingDelayMs?: number; seed?: number };
export type KsefEmulator = { url: string; close(): Promise<void> };

const MAX_BODY_BYTES = 120_000_000;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let body: string | Buffer | undefined = reply.body;
  if (reply.json !== undefined) {
    body = JSON.stringify(reply.json);
    headers['content-type'] = reply.contentType ?? 'application/json; charset=utf-8';
  } else if (body !== undefined) headers['content-type'] = reply.contentType ?? 'application/octet-stream';
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(reply.status, headers);
  res.end(body);
}

const tooMany = (path: string, detail: string, retryAfterSeconds: number, problem: boolean): Reply => ({
  status: 429,
  headers: { 'retry-after': String(retryAfterSeconds) },
  ...(problem
    ? {
        json: { title: 'Too Many Requests', status: 429, instance: path, detail, timestamp: new Date().toISOString(), traceId: traceId() },
        contentType: 'application/problem+json',
      }
    : { json: { status: { code: 429, description: 'Too Many Requests', details: [detail] } } }),
});

const htmlPage = (status: number, title: string): Reply => ({
  status,
  body: `<!DOCTYPE html><html><head><title>${status} ${title}</title></head><body><h1>${status} ${title}</h1><hr><p>nginx</p></body></html>`,
  contentType: 'text/html',
});

/** The limit counts per (context, client IP): the context is the bearer's NIP, public calls count per IP only. */
function limitContext(state: EmulatorState, authorization: string | undefined): string {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  return (token && state.bearers.get(token)?.nip) || '-';
}

/** What a drawn fault does to the request; undefined lets it go on (latency, or faults the handler applies). */
async function applyFaults(
  faults: FaultRule[],
  state: EmulatorState,
  req: IncomingMessage,
  path: string,
  held: Set<Socket>,
  problem: boolean,
): Promise<Reply | 'dropped' | undefined> {
  for (const f of faults) {
    bump(state.counters.faults, f.kind);
    switch (f.kind) {
      case 'latency':
        await sleep(f.latencyMs ?? 1000);
        break;
      case 'reset':
        req.socket.destroy();
        return 'dropped';
      case 'timeout':
        held.add(req.socket);
        return 'dropped';
      case 'error5xx':
        return {
          status: f.status ?? 500,
          json: {
            title: 'Internal Server Error',
            status: f.status ?? 500,
            detail: 'Wystąpił nieoczekiwany błąd.',
            instance: path,
            timestamp: new Date().toISOString(),
            traceId: traceId(),
          },
          contentType: 'application/problem+json',
        };
      case 'html502':
        return htmlPage(502, 'Bad Gateway');
      case 'html503':
        return htmlPage(503, 'Service Temporarily Unavailable');
      case 'gone':
        return renderFailure(new KsefFailure(410, 0, 'Gone', ['Status operacji nie jest już dostępny.']), path, true);
      case 'exception':
        return renderFailure(
          new KsefFailure(f.status ?? 400, f.exceptionCode ?? 21405, f.exceptionDescription ?? 'Błąd wymuszony przez emulator.'),
          path,
          problem,
        );
      case 'rate429':
        state.counters.rateLimited++;
        return tooMany(path, 'Przekroczono limit żądań (wymuszone przez emulator).', f.retryAfterSeconds ?? 1, problem);
      default:
        break;
    }
  }
  return undefined;
}

/**
 * `X-System-Warning` of an answer (API 2.6.0): the warnings of fired 'warning' rules, then, as KSeF TEST does, the
 * content of the request's `X-Test-System-Warning`; several are joined by ` | `, KSeF's separator.
 */
function withWarnings(reply: Reply, faults: FaultRule[], forced: string | string[] | undefined): Reply {
  const warnings = [
    ...faults.filter((f) => f.kind === 'warning').map((f) => f.warning ?? '[emulator]: Ostrzezenie testowe emulatora'),
    ...[forced ?? []].flat(),
  ];
  if (warnings.length === 0) return reply;
  return { ...reply, headers: { ...reply.headers, 'x-system-warning': warnings.join(' | ') } };
}

/** The client's address: the first of X-Forwarded-For, else the socket's, without an IPv4-mapped prefix. */
const clientIp = (req: IncomingMessage): string =>
  (
    String(req.headers['x-forwarded-for'] ?? '')
      .split(',')[0]
      ?.trim() ||
    req.socket.remoteAddress ||
    ''
  ).replace(/^::ffff:/, '');

/** One request: routed, counted, faults drawn and applied, rate-limited, then answered by its route (with warnings). */
async function handle(state: EmulatorState, held: Set<Socket>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const prefix = /^\/(v2|control|qr|latarnia)\//.exec(url.pathname)?.[1];
  const area: Area = prefix === 'v2' ? 'api' : prefix === 'control' || prefix === 'qr' || prefix === 'latarnia' ? prefix : 'storage';
  const path = area === 'api' ? url.pathname.slice(3) : url.pathname;
  const problem = String(req.headers['x-error-format'] ?? '').toLowerCase() === 'problem-details';
  const found = findRoute(area, req.method ?? 'GET', path);
  if (!found || found === 'method') {
    return send(
      res,
      found === 'method'
        ? { status: 405, json: { title: 'Method Not Allowed', status: 405, detail: `${req.method} ${url.pathname}` } }
        : renderFailure(fail.notFound(url.pathname), url.pathname, true),
    );
  }
  const { route, params } = found;
  bump(state.counters.requests, route.op);
  const body = await readBody(req);
  const ip = clientIp(req);
  const faults = area === 'control' || area === 'qr' ? [] : drawFaults(state.faults, route.op, path);
  const early = await applyFaults(faults, state, req, path, held, problem);
  if (early === 'dropped') return;
  if (early) return send(res, early);
  const verdict = consumeLimit(
    state.limits,
    route.group,
    route.group === 'other' ? route.op : route.group,
    route.group === 'public' ? '-' : limitContext(state, req.headers.authorization),
    ip,
  );
  if (!verdict.ok) {
    state.counters.rateLimited++;
    return send(res, tooMany(path, verdict.detail, verdict.retryAfterSeconds, problem));
  }
  const ctx: Ctx = {
    state,
    method: req.method ?? 'GET',
    path,
    params,
    query: url.searchParams,
    headers: req.headers,
    body,
    ip,
    origin: `http://${req.headers.host}`,
    faults,
  };
  const forced = area === 'api' ? req.headers['x-test-system-warning'] : undefined;
  try {
    send(res, withWarnings(await route.handler(ctx), faults, forced));
  } catch (err) {
    if (err instanceof KsefFailure) return send(res, withWarnings(renderFailure(err, path, problem), faults, forced));
    console.error('ksef emulator: unexpected error', err);
    send(res, {
      status: 500,
      json: { title: 'Internal Server Error', status: 500, detail: String(err), instance: path, timestamp: new Date().toISOString(), traceId: traceId() },
    });
  }
}

/** Starts the KSeF 2.0 emulator; `url` is the base URL to use as KSEF_TEST_BASE_URL (it ends in /v2). */
export async function startKsefEmulator(opts: KsefEmulatorOptions = {}): Promise<KsefEmulator> {
  const keys = await emulatorKeys();
  const state = createState({ keys, processingDelayMs: opts.processingDelayMs ?? 1000, limits: opts.limits ?? 'off', seed: opts.seed ?? 1 });
  const held = new Set<Socket>();

  const server = createServer((req, res) => {
    handle(state, held, req, res).catch((err: unknown) => {
      console.error('ksef emulator: request failed', err);
      if (!res.headersSent) send(res, { status: 500, json: { title: 'Internal Server Error', status: 500, detail: String(err) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Node's 5 s default closes an idle kept-alive socket just as a client in the same process, its event loop
    // held by CPU work (a test decoding a PDF's QR codes), takes it from its pool: read ECONNRESET
    server.keepAliveTimeout = 30_000;
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/v2`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      for (const s of held) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
