import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { EmulatorControl } from '@/emulators/ksef/control-client';
import type { Db } from '@/server/db/client';

/**
 * Numbers 1..n per seller, and the KSeF emulator received each document's XML exactly once (invariants 1 and 4).
 * On failure it shows, for up to five documents received twice (or never), every batch that held them and their
 * status history: which steps claimed and sent them.
 */
export async function expectExactlyOnce(db: Db, ksef: EmulatorControl, ids: string[]): Promise<void> {
  const rows = await db.execute<{ id: string; account_id: string; number: string; xml_sha256: string }>(
    sql`select id, account_id, number, xml_sha256 from documents where id in ${ids}`,
  );
  const bySeller = new Map<string, number[]>();
  for (const r of rows) bySeller.set(r.account_id, [...(bySeller.get(r.account_id) ?? []), Number(r.number.split('/')[3])]);
  for (const numbers of bySeller.values()) expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  const received = (await ksef.counters()).invoices.byHash;
  const bad = rows.filter((r) => received[r.xml_sha256] !== 1);
  const shown = bad.slice(0, 5).map((r) => r.id);
  const batches = shown.length
    ? await db.execute(sql`
        select bd.document_id, b.id, b.status, b.reference_number, b.document_count, b.created_at, b.updated_at
        from ksef_batch_documents bd join ksef_batches b on b.id = bd.batch_id
        where bd.document_id in ${shown} order by bd.document_id, b.created_at`)
    : [];
  const history = shown.length
    ? await db.execute(sql`
        select t.document_id, t.from_status, t.to_status, t.error->>'code' as code, t.error->>'message' as message, t.at
        from document_transitions t where t.document_id in ${shown} order by t.document_id, t.id`)
    : [];
  expect({ bad: bad.map((r) => ({ ...r, received: received[r.xml_sha256] ?? 0 })), batches, history }).toEqual({ bad: [], batches: [], history: [] });
}
