import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { inRegister } from './register-query';

/**
 * What a month's exports will hold, before downloading them: the register's documents, how many have no UPO or
 * PDF yet (the archive lists them in manifest.csv), and the bytes of their stored files, which the dashboard
 * measures the archive download against (the ZIP is smaller: its XML is deflated).
 */
export type MonthSummary = { documents: number; withoutUpo: number; withoutPdf: number; storedBytes: number };

export async function monthSummary(db: Db, scope: Scope, period: string): Promise<MonthSummary> {
  const [row] = await db.execute<{ documents: number; without_upo: number; without_pdf: number; stored_bytes: string | number | null }>(sql`
    select count(*)::int as documents,
      count(*) filter (where d.upo_xml is null)::int as without_upo,
      count(*) filter (where f.id is null)::int as without_pdf,
      sum(octet_length(d.fa3_xml) + coalesce(octet_length(d.upo_xml), 0) + coalesce(octet_length(f.content), 0)) as stored_bytes
    from documents d left join files f on f.id = d.pdf_file_id and f.document_id = d.id
    where ${inRegister(scope, period)}`);
  return { documents: row!.documents, withoutUpo: row!.without_upo, withoutPdf: row!.without_pdf, storedBytes: Number(row!.stored_bytes ?? 0) };
}
