import { randomUUID } from 'node:crypto';
import { KsefRelayConnectionError, KsefRelayError } from './errors.js';
import { FINAL_STATUSES } from './facts.js';
import type {
  Account,
  ApiErrorObject,
  Correction,
  CreateCorrectionParams,
  CreateInvoiceParams,
  CreateWebhookEndpointParams,
  DeletedWebhookEndpoint,
  Document,
  Event,
  Invoice,
  List,
  ListEventsParams,
  ListInvoicesParams,
  ListParams,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './types.js';

export type KsefRelayOptions = {
  /** `sk_test_…` or `sk_live_…`: the key decides the mode. */
  apiKey: string;
  /** Where the service runs, e.g. `https://relay.example.com` (no `/v1`). */
  baseUrl: string;
  /** Retries of one call after a network error, a 5xx or a 429 (default 3); POSTs keep one Idempotency-Key. */
  maxRetries?: number;
  /** First back-off in ms, doubled each retry (default 500); a 429's Retry-After wins. */
  retryDelayMs?: number;
  /** Time-out of one attempt in ms (default 30 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

export type RequestOptions = { idempotencyKey?: string };
export type WaitOptions = { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal };

type Query = Record<string, string | number | undefined>;

/** `period` is `YYYY-MM`; `changed_since` (Unix seconds) keeps the rows whose KSeF number or marker changed after it. */
export type SalesRegisterParams = { period: string; format?: 'csv' | 'xml'; changed_since?: number };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * A typed client of the KSeF Relay API (/v1). Every method answers the API's object or throws KsefRelayError
 * with the API's `code`; network errors, 5xx and 429 are retried with back-off, POSTs under one Idempotency-Key
 * so that a retry never creates a second invoice.
 */
export class KsefRelay {
  readonly invoices;
  readonly account;
  readonly webhookEndpoints;
  readonly events;
  readonly exports;
  private readonly base: string;
  private readonly options: Required<Omit<KsefRelayOptions, 'apiKey' | 'baseUrl'>>;

  constructor(private readonly config: KsefRelayOptions) {
    this.base = config.baseUrl.replace(/\/$/, '');
    this.options = {
      maxRetries: config.maxRetries ?? 3,
      retryDelayMs: config.retryDelayMs ?? 500,
      timeoutMs: config.timeoutMs ?? 30_000,
      fetch: config.fetch ?? fetch,
    };
    const pages = <T extends { id: string }>(path: string) => ({
      list: (params: Query = {}) => this.json<List<T>>('GET', path, { query: params }),
      listAll: (params: Query = {}) => this.paginate<T>(path, params),
    });
    this.invoices = {
      create: (params: CreateInvoiceParams, o: RequestOptions = {}) => this.json<Invoice>('POST', '/v1/invoices', { body: params, ...o }),
      retrieve: (id: string) => this.json<Document>('GET', `/v1/invoices/${encodeURIComponent(id)}`),
      list: (params: ListInvoicesParams = {}) => pages<Invoice>('/v1/invoices').list(params),
      /** Every invoice, newest first, fetching pages of `limit` (default 100) as the loop goes. */
      listAll: (params: Omit<ListInvoicesParams, 'starting_after'> = {}) => pages<Invoice>('/v1/invoices').listAll(params),
      createCorrection: (invoiceId: string, params: CreateCorrectionParams, o: RequestOptions = {}) =>
        this.json<Correction>('POST', `/v1/invoices/${encodeURIComponent(invoiceId)}/corrections`, { body: params, ...o }),
      /**
       * Sends a document in `error` (or `skipped` for `seller_not_configured` / `original_not_invoiced`) through the
       * pipeline again once its cause is fixed; it keeps its number if it had one. Other states: `document_not_retryable`.
       */
      retry: (id: string, o: RequestOptions = {}) => this.json<Document>('POST', `/v1/invoices/${encodeURIComponent(id)}/retry`, o),
      /** The PDF bytes; throws KsefRelayError `pdf_not_ready` until it is rendered. */
      pdf: (id: string) => this.bytes(`/v1/invoices/${encodeURIComponent(id)}/pdf`),
      xml: (id: string) => this.bytes(`/v1/invoices/${encodeURIComponent(id)}/xml`),
      upo: (id: string) => this.bytes(`/v1/invoices/${encodeURIComponent(id)}/upo`),
      /** Polls (spec: every 3–5 s; default 4 s) until the document is accepted, rejected, skipped or error. */
      waitForFinal: (id: string, o: WaitOptions = {}) => this.waitForFinal(id, o),
    };
    this.account = { retrieve: () => this.json<Account>('GET', '/v1/account') };
    this.webhookEndpoints = {
      create: (params: CreateWebhookEndpointParams, o: RequestOptions = {}) =>
        this.json<WebhookEndpointWithSecret>('POST', '/v1/webhook_endpoints', { body: params, ...o }),
      retrieve: (id: string) => this.json<WebhookEndpoint>('GET', `/v1/webhook_endpoints/${encodeURIComponent(id)}`),
      delete: (id: string) => this.json<DeletedWebhookEndpoint>('DELETE', `/v1/webhook_endpoints/${encodeURIComponent(id)}`),
      list: (params: ListParams = {}) => pages<WebhookEndpoint>('/v1/webhook_endpoints').list(params),
      listAll: (params: Omit<ListParams, 'starting_after'> = {}) => pages<WebhookEndpoint>('/v1/webhook_endpoints').listAll(params),
    };
    this.events = {
      list: (params: ListEventsParams = {}) => pages<Event>('/v1/events').list(params),
      listAll: (params: Omit<ListEventsParams, 'starting_after'> = {}) => pages<Event>('/v1/events').listAll(params),
    };
    this.exports = {
      /** A Warsaw month's sales register: CSV for Polish Excel (default) or JPK_V7M(3) sales rows as XML. */
      salesRegister: (params: SalesRegisterParams) => this.bytes('/v1/exports/sales-register', params),
      /** A Warsaw month's ZIP of XML, UPO and PDF files as a stream (a month can be gigabytes: pipe it to a file). */
      archive: async (params: { period: string }) => (await this.request('GET', '/v1/exports/archive', { query: params })).body!,
    };
  }

  private async *paginate<T extends { id: string }>(path: string, params: Query): AsyncGenerator<T, void, undefined> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.json<List<T>>('GET', path, { query: { limit: 100, ...params, starting_after: startingAfter } });
      yield* page.data;
      if (!page.has_more || page.data.length === 0) return;
      startingAfter = page.data[page.data.length - 1]!.id;
    }
  }

  private async waitForFinal(id: string, o: WaitOptions): Promise<Document> {
    const interval = o.intervalMs ?? 4_000;
    const deadline = Date.now() + (o.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const doc = await this.json<Document>('GET', `/v1/invoices/${encodeURIComponent(id)}`);
      if (FINAL_STATUSES.includes(doc.status)) return doc;
      if (Date.now() + interval > deadline) throw new Error(`${id} is still ${doc.status} after the wait`);
      await sleep(interval, o.signal);
    }
  }

  private async json<T>(method: string, path: string, o: { query?: Query; body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
    const res = await this.request(method, path, o);
    return (await res.json()) as T;
  }

  private async bytes(path: string, query?: Query): Promise<Uint8Array> {
    const res = await this.request('GET', path, { query });
    return new Uint8Array(await res.arrayBuffer());
  }

  private async request(method: string, path: string, o: { query?: Query; body?: unknown; idempotencyKey?: string }): Promise<Response> {
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Authorization: `Bearer ${this.config.apiKey}`, 'User-Agent': 'ksef-relay-node/0.1' };
    if (o.body !== undefined) headers['Content-Type'] = 'application/json';
    // one key for every attempt: a retry of a create that did happen replays its answer instead of creating again
    if (method === 'POST') headers['Idempotency-Key'] = o.idempotencyKey ?? randomUUID();
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.options.maxRetries;
      const backoff = this.options.retryDelayMs * 2 ** attempt;
      let res: Response;
      try {
        res = await this.options.fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.options.timeoutMs) });
      } catch (err) {
        if (last) throw new KsefRelayConnectionError(`${method} ${path}: no answer (${err instanceof Error ? err.message : String(err)})`, { cause: err });
        await sleep(backoff);
        continue;
      }
      if (res.ok) return res;
      const retryAfter = Number(res.headers.get('retry-after')) || undefined;
      if (!last && (res.status >= 500 || res.status === 429)) {
        await res.body?.cancel();
        await sleep(retryAfter !== undefined ? retryAfter * 1000 : backoff);
        continue;
      }
      throw await toError(res, retryAfter);
    }
  }
}

async function toError(res: Response, retryAfter: number | undefined): Promise<KsefRelayError> {
  const text = await res.text();
  let error: ApiErrorObject | undefined;
  try {
    error = (JSON.parse(text) as { error?: ApiErrorObject }).error;
  } catch {
    error = undefined;
  }
  const fallback: ApiErrorObject = { type: 'api_error', code: 'internal_error', message: `HTTP ${res.status}: ${text.slice(0, 200)}`, doc_url: '' };
  return new KsefRelayError(res.status, (error ?? fallback) as ApiErrorObject<never>, res.headers.get('request-id'), retryAfter);
}
