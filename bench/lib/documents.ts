import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** Milliseconds from creation to acceptance of each accepted document. */
export async function createdToAcceptedMs(db: Db, ids: string[]): Promise<number[]> {
  const rows = await db.execute<{ ms: number }>(sql`
    select extract(epoch from (t.at - d.created_at)) * 1000 as ms
    from documents d join document_transitions t on t.document_id = d.id and t.to_status = 'accepted'
    where d.id in ${ids}`);
  return rows.map((r) => Number(r.ms));
}
