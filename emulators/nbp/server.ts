import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { addDays, isIsoDate, toWarsawDate } from '@/server/calendar/date-text';
import { findCurrency, tableFor, type Table } from './tables';

/** What the control endpoint can make the emulator do to every /api request. */
const ZFault = z.object({ fault: z.enum(['none', 'error', 'hang']), status: z.number().int().min(400).max(599).default(500) });
type Fault = z.infer<typeof ZFault>;

export type NbpEmulatorOptions = { port?: number; host?: string; /** the emulator's clock, for reproducible tests */ now?: () => Date };
export type NbpEmulator = { url: string; close: () => Promise<void> };

const FIRST_DATE = '2002-01-02';
const MAX_RANGE_DAYS = 93;
const MAX_LAST = 255;

/**
 * NBP Web API, table A only, at `<url>/exchangerates/...`: the same paths, JSON and plain-text errors as
 * api.nbp.pl. `/__control` (GET state and request count, POST `{ fault }`) injects outages for tests.
 */
export async function startNbpEmulator(options: NbpEmulatorOptions = {}): Promise<NbpEmulator> {
  const now = options.now ?? (() => new Date());
  let fault: Fault = { fault: 'none', status: 500 };
  let requests = 0;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://nbp.local');
    if (url.pathname === '/__control') return void handleControl(req, res).catch(() => sendText(res, 400, 'bad control request'));
    if (!url.pathname.startsWith('/api/')) return sendText(res, 404, '404 NotFound');
    requests += 1;
    if (fault.fault === 'hang') return; // the socket stays open until the client gives up or close() runs
    if (fault.fault === 'error') return sendText(res, fault.status, `${fault.status} Emulated failure`);
    if (req.method !== 'GET') return sendText(res, 405, '405 MethodNotAllowed');
    const answer = route(url, clockAt(now()));
    if (typeof answer === 'string') return sendText(res, Number(answer.slice(0, 3)), answer);
    // mid goes out as a JSON number with exactly the digits of the table, like NBP's.
    const body = JSON.stringify(answer).replace(/"mid":"(\d+\.\d+)"/g, '"mid":$1');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });

  async function handleControl(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      fault = ZFault.parse(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      if (fault.fault === 'none') requests = 0;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...fault, requests }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/api`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections(); // hung requests would otherwise keep close() waiting forever
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Warsaw today, and the last day whose table is out: today's appears around midday Warsaw time. */
type Clock = { today: string; latest: string };
function clockAt(at: Date): Clock {
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Warsaw', hour: '2-digit', hourCycle: 'h23' }).format(at));
  const today = toWarsawDate(at);
  return { today, latest: hour >= 12 ? today : addDays(today, -1) };
}

const NOT_FOUND = '404 NotFound - Not Found - Brak danych';
const badRequest = (why: string) => `400 BadRequest - ${why}`;

/** A JSON answer, or an error line whose first three characters are the status (NBP errors are plain text). */
function route(url: URL, clock: Clock): unknown {
  if (url.searchParams.get('format')?.toLowerCase() === 'xml') return badRequest('the emulator serves JSON only');
  const parts = url.pathname
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  if (parts[0] !== 'exchangerates' || (parts[1] !== 'rates' && parts[1] !== 'tables')) return NOT_FOUND;
  if (parts[2] !== 'a') return NOT_FOUND;
  if (parts[1] === 'tables') {
    const tables = selectTables(parts.slice(3), clock);
    return typeof tables === 'string' ? tables : tables.map(({ table, no, effectiveDate, rates }) => ({ table, no, effectiveDate, rates }));
  }
  const currency = parts[3] ? findCurrency(parts[3]) : undefined;
  if (!currency) return NOT_FOUND;
  const tables = selectTables(parts.slice(4), clock);
  if (typeof tables === 'string') return tables;
  return {
    table: 'A',
    currency: currency.name,
    code: currency.code,
    rates: tables.map((t) => ({ no: t.no, effectiveDate: t.effectiveDate, mid: t.rates.find((r) => r.code === currency.code)?.mid })),
  };
}

/** Tables selected by the path tail: (nothing) | today | {date} | {start}/{end} | last/{n}; ascending by date. */
function selectTables(tail: string[], { today, latest }: Clock): Table[] | string {
  const [first, second, ...rest] = tail;
  if (rest.length > 0) return NOT_FOUND;
  if (first === undefined) return lastTables(1, latest);
  if (first === 'last') {
    const n = Number(second);
    if (!/^\d+$/.test(second ?? '') || n < 1) return badRequest('Nieprawidłowa liczba / Invalid number');
    if (n > MAX_LAST) return badRequest(`Przekroczony limit ${MAX_LAST} wyników / Maximum size of ${MAX_LAST} data series has been exceeded`);
    return lastTables(n, latest);
  }
  if (first === 'today') return second === undefined ? nonEmpty(rangeTables(today, today, latest)) : NOT_FOUND;
  if (!isIsoDate(first)) return badRequest('Błędny zakres dat / Invalid date range');
  const end = second ?? first;
  if (!isIsoDate(end) || end < first) return badRequest('Błędny zakres dat / Invalid date range');
  if (addDays(first, MAX_RANGE_DAYS) <= end) return badRequest(`Przekroczony limit ${MAX_RANGE_DAYS} dni / Limit of ${MAX_RANGE_DAYS} days has been exceeded`);
  return nonEmpty(rangeTables(first, end, latest));
}

function rangeTables(start: string, end: string, latest: string): Table[] {
  const out: Table[] = [];
  for (let d = start < FIRST_DATE ? FIRST_DATE : start; d <= end && d <= latest; d = addDays(d, 1)) {
    const table = tableFor(d);
    if (table) out.push(table);
  }
  return out;
}

function lastTables(n: number, latest: string): Table[] {
  const out: Table[] = [];
  for (let d = latest; out.length < n && d >= FIRST_DATE; d = addDays(d, -1)) {
    const table = tableFor(d);
    if (table) out.unshift(table);
  }
  return out;
}

const nonEmpty = (tables: Table[]): Table[] | string => (tables.length > 0 ? tables : NOT_FOUND);

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}
