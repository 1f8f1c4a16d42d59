import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { runOnce, type JobHelpers } from 'graphile-worker';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { useKsefEmulator } from '@/test/pipeline';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { createTaskList, selectTasks } from '@/worker/task-list';
import type { Db } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { recordDocumentEvent } from '@/server/documents/record-document-event';
import { patchDocument } from '@/server/documents/patch-document';
import { transition } from '@/server/documents/transition';
import { reportJobFailure } from '@/server/jobs/job-failure';
import { workerLog } from '@/server/jobs/worker-log';
import { graphileLogger } from '@/server/jobs/graphile-connection';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { PDF_ATTEMPTS } from '@/server/mail/pdf-lane';
import { parseOrderInput } from '@/server/orders/order-schema';
import { receiveStoreDelivery } from '@/server/stores/ingest';
import { reportStoreCallFailure, type StoreRow } from '@/server/stores/store-row';
import { wooClient } from '@/server/stores/woocommerce/client';
import { woocommerce } from '@/server/stores/woocommerce/platform';
import { checkKsefConnection } from '@/server/ksef-connection/check-connection';
import { createWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import { deliverWebhook } from '@/server/webhooks/deliver-webhook';
import { MAX_ATTEMPTS } from '@/server/webhooks/retry-schedule';
import { checkProcessConfig } from './check-config';
import { FAILURES, type FailureKind } from './failures';
import { setLogDestination } from './log';
import { metrics } from './metrics';

/**
 * Invariant 10, one row per failure: what the product does when it happens gives exactly the expected lines at warn
 * or error (with the failure's ids) and one count of ksef_relay_failures_total{kind, mode}; normal flow gives none.
 */
const t = useTestDatabase();
useKsefEmulator();
const lines: Record<string, unknown>[] = [];
let receiver: http.Server;
let base = '';
let scope: Scope;

beforeAll(async () => {
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    }),
  );
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/up' ? 200 : 500).end('receiver broken'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  scope = (await createTestAccount(t.db())).testScope;
});
afterAll(async () => {
  setLogDestination(undefined);
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const newInvoice = async () => (await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()))).document;

async function webhookTo(path: string) {
  const endpoint = await createWebhookEndpoint(t.db(), scope, { url: `${base}${path}`, enabled_events: ['*'] });
  const doc = await newInvoice();
  const eventId = await t.db().transaction((tx) => recordDocumentEvent(tx, doc, 'invoice.accepted', []));
  return { eventId, endpointId: endpoint.id };
}

const move = (
  id: string,
  from: 'pending' | 'queued' | 'sending',
  to: 'queued' | 'sending' | 'error' | 'rejected',
  code?: 'invoice_build_failed' | 'ksef_unavailable' | 'ksef_rejected',
) =>
  withLockedDocument(t.db(), id, [from], async (tx, doc) => {
    await transition(tx, doc, to, code ? { lastError: documentError(code) } : {});
  });

/** Runs `fn` with these variables set (undefined: unset), then puts the environment back. */
function withEnv(patch: Record<string, string | undefined>, fn: () => unknown): void {
  const saved = Object.fromEntries(Object.keys(patch).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(patch);
  try {
    fn();
  } finally {
    apply(saved);
  }
}

type Row = {
  name: string;
  act: () => Promise<unknown>;
  /** The warn and error lines it must give, in order; every field listed must match. */
  lines: { level: 'warn' | 'error'; msg: string; [field: string]: unknown }[];
  counted?: { kind: FailureKind; mode: string };
};

const ids: Record<string, string> = {};

const ROWS: Row[] = [
  {
    name: 'a webhook attempt fails and is retried: warn with the event, endpoint, account, attempt and next try',
    act: async () => {
      Object.assign(ids, await webhookTo('/down'));
      return deliverWebhook(t.db(), { eventId: ids.eventId!, endpointId: ids.endpointId!, attempt: 1 });
    },
    lines: [
      { level: 'warn', msg: 'webhook_attempt_failed', failure: 'webhook_attempt_failed', attempt: 1, statusCode: 500, error: 'answered 500', mode: 'test' },
    ],
    counted: { kind: 'webhook_attempt_failed', mode: 'test' },
  },
  {
    name: 'the last scheduled attempt fails: error, delivery given up',
    act: () => deliverWebhook(t.db(), { eventId: ids.eventId!, endpointId: ids.endpointId!, attempt: MAX_ATTEMPTS }),
    lines: [{ level: 'error', msg: 'webhook_gave_up', attempt: MAX_ATTEMPTS, statusCode: 500, nextAttemptAt: null }],
    counted: { kind: 'webhook_gave_up', mode: 'test' },
  },
  {
    name: 'a manual resend fails: warn (a person is watching it), not a give-up',
    act: () => deliverWebhook(t.db(), { eventId: ids.eventId!, endpointId: ids.endpointId!, attempt: 10, manual: true }),
    lines: [{ level: 'warn', msg: 'webhook_attempt_failed', manual: true, nextAttemptAt: null }],
    counted: { kind: 'webhook_attempt_failed', mode: 'test' },
  },
  {
    name: 'a delivered webhook is normal flow: no line at warn or error',
    act: async () => {
      const up = await webhookTo('/up');
      return deliverWebhook(t.db(), { ...up, attempt: 1 });
    },
    lines: [],
  },
  {
    name: 'a document reaches error: error with its ids and last_error',
    act: async () => {
      ids.errorDoc = (await newInvoice()).id;
      await move(ids.errorDoc, 'pending', 'error', 'invoice_build_failed');
    },
    lines: [{ level: 'error', msg: 'document_error', from: 'pending', to: 'error', documentKind: 'invoice', lastError: { code: 'invoice_build_failed' } }],
    counted: { kind: 'document_error', mode: 'test' },
  },
  {
    name: 'an order that cannot be invoiced (no seller data): warn, the merchant acts on it',
    act: async () => {
      const doc = await newInvoice();
      await withLockedDocument(t.db(), doc.id, ['pending'], async (tx, locked) => {
        await transition(tx, locked, 'skipped', { lastError: documentError('seller_not_configured') });
      });
    },
    lines: [{ level: 'warn', msg: 'document_skipped', to: 'skipped', lastError: { code: 'seller_not_configured' } }],
    counted: { kind: 'document_skipped', mode: 'test' },
  },
  {
    name: 'KSeF does not answer: the document waits in queued, warn; KSeF rejects it later: error',
    act: async () => {
      ids.rejectedDoc = (await newInvoice()).id;
      await move(ids.rejectedDoc, 'pending', 'queued');
      await move(ids.rejectedDoc, 'queued', 'sending');
      await move(ids.rejectedDoc, 'sending', 'queued', 'ksef_unavailable');
      await move(ids.rejectedDoc, 'queued', 'sending');
      await move(ids.rejectedDoc, 'sending', 'rejected', 'ksef_rejected');
    },
    lines: [
      { level: 'warn', msg: 'document_delayed', to: 'queued', lastError: { code: 'ksef_unavailable' } },
      { level: 'error', msg: 'document_rejected', to: 'rejected', lastError: { code: 'ksef_rejected' } },
    ],
    counted: { kind: 'document_rejected', mode: 'test' },
  },
  {
    name: 'a store delivery with a bad signature: warn, refused with 401',
    act: async () => {
      const req = new Request('http://relay.test/hooks/woocommerce/st_nosuch', {
        method: 'POST',
        headers: { 'x-wc-webhook-topic': 'order.updated', 'x-wc-webhook-id': '7', 'x-wc-webhook-signature': 'bm90IGl0' },
        body: '{"id":1}',
      });
      expect((await receiveStoreDelivery(woocommerce, req, 'st_nosuch', 'req_failures_test', t.db())).status).toBe(401);
    },
    lines: [
      { level: 'warn', msg: 'store_delivery_refused', storeId: 'st_nosuch', webhookId: 7, topic: 'order.updated', status: 401, reason: 'signature_invalid' },
    ],
    counted: { kind: 'store_delivery_refused', mode: 'none' },
  },
  {
    name: 'a store that does not answer: warn with the store, account and code',
    act: async () => {
      const err = await wooClient('http://127.0.0.1:1/', { consumerKey: 'ck_x', consumerSecret: 'cs_x' })
        .probe()
        .catch((e: unknown) => e);
      reportStoreCallFailure({ id: 'st_down', accountId: scope.accountId, mode: 'live' } as StoreRow, 'sync', err);
    },
    lines: [{ level: 'warn', msg: 'store_call_failed', storeId: 'st_down', mode: 'live', step: 'sync', code: 'store_unreachable' }],
    counted: { kind: 'store_call_failed', mode: 'live' },
  },
  {
    name: "the buyer's e-mail cannot be sent (no PDF yet): error with the lane job's document",
    act: async () => {
      const doc = await newInvoice();
      await patchDocument(t.db(), doc.id, { mailStatus: 'pending' });
      const helpers = { job: { id: 'm1', attempts: 1, max_attempts: 10 } } as unknown as JobHelpers;
      await createTaskList(t.db()).mail_send!({ accountId: doc.accountId, mode: doc.mode }, helpers);
    },
    lines: [{ level: 'error', msg: 'mail_failed', jobId: 'm1', task: 'mail_send', mode: 'test', documentId: expect.stringMatching(/^inv_/) }],
    counted: { kind: 'mail_failed', mode: 'test' },
  },
  {
    name: "a document's PDF render throws on its last attempt: error with the lane job's document; the lane goes on",
    act: async () => {
      const doc = await newInvoice();
      const broken = { status: 'accepted', number: 'FV/2026/06/1', fa3Xml: '<Faktura>', pdfAttempts: PDF_ATTEMPTS - 1 } as const;
      await t.db().update(documents).set(broken).where(eq(documents.id, doc.id));
      const helpers = { job: { id: 'p1', attempts: 1, max_attempts: 25 } } as unknown as JobHelpers;
      await createTaskList(t.db()).pdf_render!({ accountId: doc.accountId, mode: doc.mode }, helpers);
    },
    lines: [{ level: 'error', msg: 'pdf_gave_up', jobId: 'p1', task: 'pdf_render', mode: 'test', documentId: expect.stringMatching(/^inv_/), attempt: 5 }],
    counted: { kind: 'pdf_gave_up', mode: 'test' },
  },
  {
    name: "KSeF refuses the seller's credential: error with the account, mode and what KSeF said",
    act: async () => {
      await saveKsefCredential(t.db(), scope, { kind: 'token', token: 'not-a-token-ksef-knows' });
      expect(await checkKsefConnection(t.db(), scope)).toMatchObject({ connected: false });
    },
    lines: [
      {
        level: 'error',
        msg: 'ksef_auth_failed',
        accountId: expect.stringMatching(/^acct_/),
        mode: 'test',
        environment: 'test',
        error: expect.stringMatching(/authentication failed/i),
      },
    ],
    counted: { kind: 'ksef_auth_failed', mode: 'test' },
  },
  {
    name: 'a job fails with attempts left: warn with its job id, task and document; on its last attempt: error',
    act: async () => {
      const tasks = createTaskList({} as Db);
      // a payload that fails the registry's schema fails before any database work
      const payload = { documentId: 'inv_job', accountId: '', mode: 'live' };
      const job = (attempts: number) => ({ job: { id: `${attempts}`, attempts, max_attempts: 25 } }) as unknown as JobHelpers;
      await expect(tasks.ksef_send!(payload, job(1))).rejects.toThrow();
      await expect(tasks.ksef_send!(payload, job(25))).rejects.toThrow();
    },
    lines: [
      { level: 'warn', msg: 'job_failed', jobId: '1', task: 'ksef_send', documentId: 'inv_job', attempt: 1, maxAttempts: 25, mode: 'live' },
      { level: 'error', msg: 'job_gave_up', jobId: '25', task: 'ksef_send', attempt: 25, maxAttempts: 25 },
    ],
    counted: { kind: 'job_gave_up', mode: 'live' },
  },
  {
    name: "graphile-worker's own levels: error → error, warning → warn, info and debug left out",
    act: async () => {
      const logger = graphileLogger(workerLog('host:1:abc'));
      logger.info('Completed task 9 (pdf_render, 12.00ms) with success');
      logger.debug('Found task 9 (pdf_render)');
      logger.warn('maxPoolSize (4) smaller than concurrency (8)');
      logger.error('Failed to fail jobs', { error: new Error('connection terminated') });
    },
    lines: [
      { level: 'warn', msg: 'graphile-worker: maxPoolSize (4) smaller than concurrency (8)', failure: 'worker_warning', processId: 'host:1:abc' },
      { level: 'error', msg: 'graphile-worker: Failed to fail jobs', failure: 'worker_error', err: { message: 'connection terminated' } },
    ],
    counted: { kind: 'worker_error', mode: 'none' },
  },
  {
    name: "graphile-worker's line about a failed job: left out when the task wrapper reported it, kept at error otherwise",
    act: async () => {
      const logger = graphileLogger(workerLog('host:1:abc'));
      const reported = new Error('KSeF said no');
      reportJobFailure({ attempts: 2, max_attempts: 25 }, reported);
      logger.error('Failed task 5 (ksef_send, attempt 2 of 25)', { failure: true, error: reported });
      logger.error('Failed task 6 (unknown_task, attempt 1 of 25)', { failure: true, error: new Error("Unsupported task 'unknown_task'") });
    },
    lines: [
      { level: 'warn', msg: 'job_failed', attempt: 2, err: { message: 'KSeF said no' } },
      { level: 'error', msg: 'graphile-worker: Failed task 6 (unknown_task, attempt 1 of 25)', failure: 'worker_error' },
    ],
  },
  {
    name: 'a bad environment at start: one error line naming each variable and the rule it breaks, never its value',
    act: async () =>
      withEnv({ WORKER_CONCURRENCY: 'eight', METRICS_TOKEN: 'short-secret', DATABASE_URL: undefined }, () =>
        expect(checkProcessConfig('worker', ['DATABASE_URL'])).toBe(false),
      ),
    lines: [{ level: 'error', msg: 'config_invalid', process: 'worker' }],
    counted: { kind: 'config_invalid', mode: 'none' },
  },
];

const failureCount = async (kind: string, mode: string) =>
  (await metrics().failures.get()).values.find((v) => v.labels.kind === kind && v.labels.mode === mode)?.value ?? 0;

test.each(ROWS)('$name', async (row) => {
  const before = row.counted ? await failureCount(row.counted.kind, row.counted.mode) : 0;
  lines.length = 0;
  await row.act();
  const loud = lines.filter((l) => l.level === 'warn' || l.level === 'error');
  expect(loud).toHaveLength(row.lines.length);
  row.lines.forEach((expected, i) => expect(loud[i]).toMatchObject(expected));
  for (const line of loud) if (line.failure) expect(line.level).toBe(FAILURES[line.failure as FailureKind]);
  if (row.counted) expect(await failureCount(row.counted.kind, row.counted.mode)).toBe(before + 1);
});

test('the failure lines carry their ids: a webhook attempt its event, endpoint and account; a document its own', async () => {
  lines.length = 0;
  await deliverWebhook(t.db(), { eventId: ids.eventId!, endpointId: ids.endpointId!, attempt: 2 });
  expect(lines.find((l) => l.msg === 'webhook_attempt_failed')).toMatchObject({ eventId: ids.eventId, endpointId: ids.endpointId, accountId: scope.accountId });
  const doc = await newInvoice();
  await move(doc.id, 'pending', 'error', 'invoice_build_failed');
  expect(lines.find((l) => l.msg === 'document_error')).toMatchObject({ documentId: doc.id, accountId: scope.accountId, mode: 'test' });
});

test('a bad environment is named by variable and rule; the secret it holds is not in the line', async () => {
  lines.length = 0;
  withEnv({ METRICS_TOKEN: 'short-secret' }, () => checkProcessConfig('web'));
  const [line] = lines;
  expect(line!.problems).toEqual([expect.stringMatching(/^METRICS_TOKEN /)]);
  expect(JSON.stringify(line)).not.toContain('short-secret');
});

test('ksef_relay_failures_total is exposed with kind and mode labels only', async () => {
  const text = await metrics().registry.getSingleMetricAsString('ksef_relay_failures_total');
  expect(text).toContain('ksef_relay_failures_total{kind="webhook_gave_up",mode="test"}');
  expect(text).toContain('ksef_relay_failures_total{kind="config_invalid",mode="none"}');
  expect(text).not.toContain(scope.accountId);
});

test('a real graphile-worker run: a job with attempts left is one warn line, one on its last attempt one error line', async () => {
  const add = (maxAttempts: number) =>
    t
      .db()
      .execute<{ id: string }>(
        sql`select id::text from graphile_worker.add_job('ksef_send', ${JSON.stringify({ documentId: 'inv_run', accountId: '', mode: 'test' })}::json, max_attempts := ${maxAttempts})`,
      );
  const [[retried], [last]] = await Promise.all([add(5), add(1)]);
  lines.length = 0;
  await runOnce({ connectionString: t.url(), taskList: selectTasks(createTaskList(t.db()), 'ksef_send'), logger: graphileLogger(workerLog('host:2:def')) });
  const loud = lines.filter((l) => l.level === 'warn' || l.level === 'error').sort((a, b) => String(a.level).localeCompare(String(b.level)));
  expect(loud).toEqual([
    expect.objectContaining({ level: 'error', msg: 'job_gave_up', jobId: last!.id, task: 'ksef_send', documentId: 'inv_run', attempt: 1, maxAttempts: 1 }),
    expect.objectContaining({ level: 'warn', msg: 'job_failed', jobId: retried!.id, task: 'ksef_send', documentId: 'inv_run', attempt: 1, maxAttempts: 5 }),
  ]);
});
