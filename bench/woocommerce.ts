/**
 * bench/woocommerce.ts (issue 15): a connected WooCommerce store (the emulator, in this process) against
 * `next start`, a worker process and the KSeF emulator (its own process, delay 0, test limits).
 *   1. ingestion: a burst of N signed order deliveries to POST /hooks/woocommerce/{store}, C at a time (a shop's
 *      Action Scheduler sends its queue with a few runners; C = N sends all at once); p50/p99/max answer time
 *      (goal p99 ≤ 200 ms: WooCommerce gives up after a few seconds and disables the webhook after repeated
 *      failures);
 *   2. throughput: orders/s from the first delivery until every invoice is accepted, and p50/p99 of
 *      delivery-received → accepted.
 * The deliveries are the emulator's own order JSON, signed with the webhook's secret as WooCommerce signs them.
 * Usage: npx tsx bench/woocommerce.ts [deliveries=500] [concurrency=8]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { createEmulatorControl } from '@/emulators/ksef/control-client';
import { randomNip } from '@/emulators/ksef/testing';
import { wooControl } from '@/emulators/woocommerce/control-client';
import { startWooEmulator } from '@/emulators/woocommerce/server';
import { createAccount } from '@/server/accounts/create-account';
import { resetConfig, ROOT } from '@/server/config';
import { storeWebhooks } from '@/server/db/schema';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { connectStore } from '@/server/stores/connect';
import { unsealWebhookSecret } from '@/server/webhooks/webhook-secret';
import { collect, freePort, startWeb, stopGroup, waitFor } from '@/test/web';
import { percentile } from './lib/documents';
import { createBenchDatabase } from './lib/stack';

const [deliveries = 500, concurrency = 8] = process.argv.slice(2).map(Number);
const children: ChildProcess[] = [];

function child(file: string, env: Record<string, string>) {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, file)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(proc);
  return collect(proc);
}

async function main() {
  const { url, db, stop: dropDatabase } = await createBenchDatabase();
  process.env.APP_SECRET ??= 'bench-app-secret-not-for-production';
  const woo = await startWooEmulator({ port: 0 });
  const web = await startWeb({ DATABASE_URL: url, APP_SECRET: process.env.APP_SECRET });
  try {
    process.env.PUBLIC_BASE_URL = web.url;
    resetConfig();
    const port = await freePort();
    const ksefUrl = `http://127.0.0.1:${port}/v2`;
    child('emulators/ksef/main.ts', { KSEF_EMULATOR_PORT: String(port), KSEF_EMULATOR_LIMITS: 'test', KSEF_EMULATOR_DELAY_MS: '0' });
    await waitFor(
      async () =>
        fetch(`${ksefUrl}/security/public-key-certificates`).then(
          () => true,
          () => false,
        ),
      30_000,
    );
    const nip = randomNip();
    const acct = await createAccount(db, {
      email: 'bench-woo@example.test',
      seller: { nip, name: 'Kawowy Świat sp. z o.o.', address1: 'ul. Piotrkowska 1', address2: '90-001 Łódź' },
    });
    const scope = { accountId: acct.accountId, mode: 'test' as const };
    await saveKsefCredential(db, scope, { kind: 'token', token: (await createEmulatorControl(ksefUrl).createCredentials(nip)).token });
    const shop = wooControl(woo.url);
    const key = await shop.createKey();
    const { store } = await connectStore(db, scope, { url: woo.url, consumerKey: key.consumer_key, consumerSecret: key.consumer_secret });

    // the shop stays quiet while the orders are placed; their bodies are then delivered by us, all at once
    await shop.failDeliveries(true);
    const orders = [];
    for (let i = 0; i < deliveries; i++) orders.push(await shop.createOrder({ nip: '386-161-02-27', paid: true }));
    await shop.idle();
    const [hook] = await db
      .select()
      .from(storeWebhooks)
      .where(and(eq(storeWebhooks.storeId, store), eq(storeWebhooks.topic, 'order.updated')));
    const secret = unsealWebhookSecret(hook!.secret);
    const bodies = await Promise.all(
      orders.map(async (o) => {
        const { notes: _notes, ...order } = await shop.order(o.id);
        return JSON.stringify(order);
      }),
    );
    const target = `${web.url}/hooks/woocommerce/${store}`;
    const send = async (body: string) => {
      const t = performance.now();
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-WC-Webhook-Topic': 'order.updated',
          'X-WC-Webhook-ID': String(hook!.remoteId),
          'X-WC-Webhook-Signature': createHmac('sha256', secret).update(body).digest('base64'),
        },
        body,
      });
      await res.arrayBuffer();
      return { ms: performance.now() - t, status: res.status };
    };
    // warm-up: first requests compile routes and open pools
    for (let i = 0; i < 5; i++) await send(JSON.stringify({ id: 1, status: 'pending', line_items: [], n: i }));

    // service time of one request alone: the first 50 deliveries one after another
    const SOLO = Math.min(50, Math.floor(deliveries / 10));
    const solo: number[] = [];
    const t0 = Date.now();
    for (let i = 0; i < SOLO; i++) solo.push((await send(bodies[i]!)).ms);
    const answers: { ms: number; status: number }[] = [];
    let next = SOLO;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, bodies.length) }, async () => {
        while (next < bodies.length) answers.push(await send(bodies[next++]!));
      }),
    );
    const burstMs = Date.now() - t0;
    // the worker starts after the burst, so the answer times are the endpoint's own (on a shared 2-core machine
    // a worker busy with the same orders would take most of the CPU); orders/s counts from the burst's start
    const worker = child('worker/main.ts', {
      DATABASE_URL: url,
      KSEF_TEST_BASE_URL: ksefUrl,
      PUBLIC_BASE_URL: web.url,
      WORKER_TASKS: '-pdf_render,-mail_send',
      WORKER_CONCURRENCY: '16',
    });
    await waitFor(async () => worker().includes('worker: running'), 30_000, worker);
    const times = answers.map((a) => a.ms);
    const bad = answers.filter((a) => a.status !== 200).length;

    const final = async () =>
      (
        await db.execute<{ n: number }>(
          sql`select count(*)::int as n from documents where account_id = ${acct.accountId} and kind = 'invoice' and status in ('accepted','rejected','error','skipped')`,
        )
      )[0]!.n;
    await waitFor(async () => (await final()) >= deliveries, 600_000);
    const elapsed = (Date.now() - t0) / 1000;
    const lat = (
      await db.execute<{ ms: number }>(sql`
        select extract(epoch from (t.at - sd.received_at)) * 1000 as ms
        from store_deliveries sd
        join documents d on d.account_id = ${acct.accountId} and d.kind = 'invoice' and d.order_external_id = (sd.body->>'id')
        join document_transitions t on t.document_id = d.id and t.to_status = 'accepted'
        where sd.store_id = ${store}`)
    ).map((r) => Number(r.ms));
    const [accepted] = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from documents where account_id = ${acct.accountId} and status = 'accepted'`,
    );

    console.log(
      `\nwoocommerce: ${deliveries} signed order deliveries, ${concurrency} at a time, to the ingestion endpoint; next start; then 1 worker process × 16; KSeF emulator delay 0, test limits`,
    );
    console.table([
      {
        measure: 'ingestion answer (one at a time)',
        'p50 ms': Math.round(percentile(solo, 50)),
        'p99 ms': Math.round(percentile(solo, 99)),
        'max ms': Math.round(Math.max(...solo)),
        note: `${SOLO} deliveries`,
      },
      {
        measure: `ingestion answer (burst, ${concurrency} at a time)`,
        'p50 ms': Math.round(percentile(times, 50)),
        'p99 ms': Math.round(percentile(times, 99)),
        'max ms': Math.round(Math.max(...times)),
        note: `${answers.length} answered in ${burstMs} ms (${Math.round((answers.length + SOLO) / (burstMs / 1000))}/s), ${bad} not 200`,
      },
      {
        measure: 'delivery → accepted',
        'p50 ms': Math.round(percentile(lat, 50)),
        'p99 ms': Math.round(percentile(lat, 99)),
        'max ms': Math.round(Math.max(...lat)),
        note: `${accepted!.n}/${deliveries} accepted, ${(deliveries / elapsed).toFixed(1)} orders/s over ${elapsed.toFixed(1)} s`,
      },
    ]);
    console.log('goal: ingestion p99 ≤ 200 ms under a burst of 500');
  } finally {
    await Promise.all(children.map((c) => stopGroup(c)));
    await web.stop();
    await woo.close();
    await dropDatabase();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
