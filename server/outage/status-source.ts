import { z } from 'zod';
import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import { log } from '@/server/observability/log';
import { KSEF_STATUSES, modeOfStatus, noticeAt, type KsefStatus } from './modes';
import { addNotice, endNotice, listNotices } from './notices';

/**
 * The status service's answer (GET /status of the Ministry's "Latarnia" API, api-latarnia[-test].ksef.mf.gov.pl): the
 * status, and the messages of the current status, which this service does not read (the operator enters the
 * Ministry's notices). Not in the KSeF OpenAPI of ../shared/ksef: see docs/outage-modes.md for the sources.
 */
const ZStatus = z.object({ status: z.enum(KSEF_STATUSES) }).passthrough();

const TIMEOUT_MS = 10_000;

export async function fetchKsefStatus(baseUrl: string): Promise<KsefStatus> {
  const res = await fetch(`${baseUrl.replace(/\/$/, '')}/status`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`KSeF status service answered ${res.status}`);
  return ZStatus.parse(await res.json()).status;
}

export type StatusOutcome = { status: KsefStatus; opened?: number; ended?: number[] };

/**
 * Follows the status service: an outage it reports that no notice covers opens a notice (source status_service,
 * from `now`, no end); its notices of another mode end at `now`. A notice the operator entered is never changed
 * here: the Ministry's notice, not the status page, gives the end a failure's count starts from (art. 106nf ust. 1).
 */
export async function applyKsefStatus(db: Db, status: KsefStatus, now: Date): Promise<StatusOutcome> {
  const mode = modeOfStatus(status);
  const open = (await listNotices(db)).filter((n) => n.source === 'status_service' && n.endsAt === null);
  const ended: number[] = [];
  for (const n of open) {
    if (n.mode === mode) continue;
    await endNotice(db, n.id, now > n.startsAt ? now : new Date(n.startsAt.getTime() + 1));
    log.info({ status, noticeId: n.id, mode: n.mode }, 'ksef_status_outage_ended');
    ended.push(n.id);
  }
  if (!mode) return { status, ended };
  const notices = (await listNotices(db)).map((n) => ({ id: n.id, mode: n.mode, startsAt: n.startsAt, endsAt: n.endsAt }));
  if (noticeAt(notices, now)?.mode === mode) return { status, ended };
  const added = await addNotice(db, { mode, startsAt: now, source: 'status_service' });
  log.warn({ status, noticeId: added.id }, 'ksef_status_outage');
  return { status, opened: added.id, ended };
}

/** The ksef_check cron's look at the status service, when KSEF_STATUS_URL is set; a failed look changes nothing. */
export async function followKsefStatus(db: Db, now: Date, url = config().KSEF_STATUS_URL): Promise<StatusOutcome | null> {
  if (!url) return null;
  try {
    return await applyKsefStatus(db, await fetchKsefStatus(url), now);
  } catch (err) {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'ksef_status_unreadable');
    return null;
  }
}
