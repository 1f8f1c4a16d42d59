import type { KsefNoticeRow } from '@/server/db/schema';
import { NOTICE_MODES } from '@/server/outage/modes';
import { addNotice, endNotice, listNotices } from '@/server/outage/notices';
import { type CliCommand, UsageError } from './cli-args';

// `ksef-notice …`: a Ministry of Finance notice of a KSeF outage (server/outage): the mode, and the start and end it announces

/** An ISO 8601 instant with its offset (`2026-03-02T10:00:00+01:00`): a notice's times are Warsaw times as published. */
function instant(flag: string, value: string): Date {
  if (!/T.*(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) throw new UsageError(`${flag} takes an ISO instant with an offset`);
  return new Date(value);
}

const noticeJson = (n: KsefNoticeRow) => ({
  id: n.id,
  mode: n.mode,
  start: n.startsAt.toISOString(),
  end: n.endsAt?.toISOString() ?? null,
  source: n.source,
  note: n.note,
});

const asUsageError = (err: unknown): never => {
  throw new UsageError(err instanceof Error ? err.message : String(err));
};

export const noticeAdd: CliCommand = async (db, _arg, values) => {
  const mode = NOTICE_MODES.find((m) => m === values.mode);
  if (!mode) throw new UsageError(`--mode ${NOTICE_MODES.join('|')} is required`);
  if (!values.start) throw new UsageError('--start is required');
  const row = await addNotice(db, {
    mode,
    startsAt: instant('--start', values.start),
    endsAt: values.end ? instant('--end', values.end) : null,
    source: 'operator',
    note: values.note ?? null,
  }).catch(asUsageError);
  return { notice: noticeJson(row) };
};

export const noticeEnd: CliCommand = async (db, arg, values) => {
  const id = Number(arg);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError('notice id required');
  const row = await endNotice(db, id, values.end ? instant('--end', values.end) : new Date()).catch(asUsageError);
  if (!row) throw new UsageError(`no notice ${id}`);
  return { notice: noticeJson(row) };
};

export const noticeList: CliCommand = async (db) => ({ notices: (await listNotices(db)).map(noticeJson) });
