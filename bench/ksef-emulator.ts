/**
 * Invoices per second the KSeF emulator takes from send to KSeF number, on one core: the emulator runs alone in a
 * child process (one Node thread); this process only replays pre-encrypted requests over keep-alive HTTP.
 * Run: npx tsx bench/ksef-emulator.ts [invoices=3000] [concurrency=32]
 */
import { spawn } from 'node:child_process';
import { authenticate } from '@/server/ksef/auth';
import { createKsefClient } from '@/server/ksef/client';
import { encryptAes, sha256Base64 } from '@/server/ksef/crypto';
import { openOnlineSession, getInvoiceStatus, type OnlineSession } from '@/server/ksef/online-session';
import { createEmulatorControl } from '@/emulators/ksef/control-client';
import { randomNip, sampleInvoice } from '@/emulators/ksef/testing';

const total = Number(process.argv[2] ?? 3000);
const concurrency = Number(process.argv[3] ?? 32);
const SESSIONS = 4;

const child = spawn(process.execPath, ['--import', 'tsx', 'emulators/ksef/main.ts'], {
  env: { ...process.env, KSEF_EMULATOR_PORT: '0', KSEF_EMULATOR_LIMITS: 'off', KSEF_EMULATOR_DELAY_MS: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (chunk: Buffer) => {
    const m = /listening on (\S+)/.exec(chunk.toString());
    if (m?.[1]) resolve(m[1]);
  });
  child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
});

try {
  const client = createKsefClient({ baseUrl: url });
  const control = createEmulatorControl(url);
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token });
  const sessions: OnlineSession[] = [];
  for (let i = 0; i < SESSIONS; i++) sessions.push(await openOnlineSession(client, accessToken));

  // Encrypt everything first so the timed part measures the emulator, not this process's AES.
  const requests = Array.from({ length: total }, (_, i) => {
    const session = sessions[i % SESSIONS] as OnlineSession;
    const plain = Buffer.from(sampleInvoice({ nip, number: `BENCH/${i}` }));
    const cipher = encryptAes(plain, { key: Buffer.from(session.aesKey, 'base64'), iv: Buffer.from(session.iv, 'base64') });
    const body = JSON.stringify({
      invoiceHash: sha256Base64(plain),
      invoiceSize: plain.length,
      encryptedInvoiceHash: sha256Base64(cipher),
      encryptedInvoiceSize: cipher.length,
      encryptedInvoiceContent: cipher.toString('base64'),
    });
    return { session: session.referenceNumber, body };
  });

  const accepted: { session: string; ref: string }[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const r = requests[next++];
        if (!r) break;
        const res = await fetch(`${url}/sessions/online/${r.session}/invoices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: r.body,
        });
        if (res.status !== 202) throw new Error(`send answered ${res.status}: ${await res.text()}`);
        accepted.push({ session: r.session, ref: ((await res.json()) as { referenceNumber: string }).referenceNumber });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const counters = await control.counters();
  const last = accepted[accepted.length - 1];
  const lastStatus = last ? await getInvoiceStatus(client, accessToken, last.session, last.ref) : undefined;
  if (counters.invoices.accepted !== total || lastStatus?.status.code !== 200) {
    throw new Error(`expected ${total} accepted, emulator counted ${counters.invoices.accepted} (last status ${lastStatus?.status.code})`);
  }
  console.log(
    `KSeF emulator: ${total} invoices sent → numbered in ${seconds.toFixed(2)} s = ${Math.round(total / seconds)} invoices/s on one core (concurrency ${concurrency}, FA(3) XSD validation included)`,
  );
} finally {
  child.kill('SIGTERM');
}
