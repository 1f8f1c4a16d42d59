import { and, asc, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/server/db/client';
import { ksefWarnings, type KsefEnvironment, type KsefWarningRow } from '@/server/db/schema';
import type { KsefWarningSeen } from '@/server/ksef/http';
import { parseSystemWarnings, warningSubject } from '@/server/ksef/system-warning';
import { log } from '@/server/observability/log';
import { metrics } from '@/server/observability/metrics';
import { ksefEndpointGroup } from './rate-limits';

/**
 * Keeps what KSeF warned about (X-System-Warning, API 2.6.0): a row per warning with the request it answered,
 * counted and logged. A failed insert is logged and dropped: KSeF's answer, already given, must reach the caller.
 */
export async function recordKsefWarning(
  db: Db,
  key: { environment: KsefEnvironment; context: string },
  seen: KsefWarningSeen,
  now = new Date(),
): Promise<void> {
  const subject = warningSubject(seen.method, seen.path, seen.responseText);
  const warnings = parseSystemWarnings(seen.value);
  const { group } = ksefEndpointGroup(seen.method, seen.path);
  metrics().ksefWarnings.inc({ environment: key.environment, group }, warnings.length);
  log.warn({ environment: key.environment, method: seen.method, path: seen.path, status: seen.status, ...subject, warnings }, 'ksef_system_warning');
  if (warnings.length === 0) return;
  try {
    await db
      .insert(ksefWarnings)
      .values(
        warnings.map((w) => ({ ...key, method: seen.method, path: seen.path, status: seen.status, ...subject, code: w.code, message: w.message, at: now })),
      );
  } catch (err) {
    log.warn({ err, environment: key.environment, path: seen.path }, 'ksef_system_warning_not_stored');
  }
}

export type DocumentKsefRefs = { ksefEnvironment: KsefEnvironment; ksefSessionRef: string | null; ksefInvoiceRef: string | null; ksefNumber: string | null };

/**
 * The warnings that concern a document: those on its invoice (reference or KSeF number) and those on its session
 * as a whole (opening, closing, status), oldest first.
 */
export async function warningsOfDocument(db: DbOrTx, doc: DocumentKsefRefs, limit = 50): Promise<KsefWarningRow[]> {
  const mine: SQL[] = [];
  if (doc.ksefInvoiceRef) mine.push(eq(ksefWarnings.invoiceRef, doc.ksefInvoiceRef));
  if (doc.ksefNumber) mine.push(eq(ksefWarnings.ksefNumber, doc.ksefNumber));
  if (doc.ksefSessionRef) mine.push(and(eq(ksefWarnings.sessionRef, doc.ksefSessionRef), isNull(ksefWarnings.invoiceRef), isNull(ksefWarnings.ksefNumber))!);
  if (mine.length === 0) return [];
  return db
    .select()
    .from(ksefWarnings)
    .where(and(eq(ksefWarnings.environment, doc.ksefEnvironment), or(...mine)))
    .orderBy(asc(ksefWarnings.at), asc(ksefWarnings.id))
    .limit(limit);
}
