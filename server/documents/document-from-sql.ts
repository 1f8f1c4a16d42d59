import type { DocumentRow } from './document-row';

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A `documents` row read with raw SQL, shaped like drizzle's select: camelCase keys, bigints as numbers and
 * timestamps as Dates (drizzle's postgres.js client hands them over as text).
 */
export function documentFromSql(raw: Record<string, unknown>): DocumentRow {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) out[camel(key)] = value;
  out.seq = Number(out.seq);
  out.createdAt = new Date(out.createdAt as string);
  out.updatedAt = new Date(out.updatedAt as string);
  if (out.offlineDeadline !== null && out.offlineDeadline !== undefined) out.offlineDeadline = new Date(out.offlineDeadline as string);
  if (out.totalGrossGrosze !== null && out.totalGrossGrosze !== undefined) out.totalGrossGrosze = Number(out.totalGrossGrosze);
  delete out.created;
  delete out.jobs;
  return out as DocumentRow;
}
