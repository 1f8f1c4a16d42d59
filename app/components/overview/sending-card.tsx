'use client';
import { checkErrorText } from '../error-text';
import { useI18n } from '../i18n';
import type { OverviewData } from './types';

/** KSeF in a shop owner's words: connection, queue, this account's documents sent today and in the last hour. */
export function SendingCard({ data }: { data: OverviewData }) {
  const { t } = useI18n();
  const o = t.overview;
  const s = data?.sending;
  const blank = '\u00a0';
  return (
    <section className="card" aria-labelledby="sending-h">
      <h2 id="sending-h">{o.sending}</h2>
      <dl className="facts">
        <dt>{o.environment}</dt>
        <dd>{s ? t.ksef.env[s.environment] : blank}</dd>
        <dt>{o.connection}</dt>
        <dd>{s ? (s.connected ? o.connected : `${o.notConnected}${s.checkError ? ` (${checkErrorText(s.checkError, t)})` : ''}`) : blank}</dd>
        <dt>{o.queueDepth}</dt>
        <dd data-testid="queue-depth">
          {s
            ? `${s.queue.total} (${t.status.pending} ${s.queue.pending}, ${t.status.queued} ${s.queue.queued}, ${t.status.sending} ${s.queue.sending})`
            : blank}
        </dd>
        <dt>{o.sentToday}</dt>
        <dd data-testid="sent-today">{s ? s.usage.today : blank}</dd>
        <dt>{o.sentLastHour}</dt>
        <dd data-testid="sent-last-hour">{s ? s.usage.lastHour : blank}</dd>
        <dt>{o.hourlyLimit}</dt>
        <dd>{s ? (s.usage.perHour === null ? o.noHourlyLimit : o.hourlyLimitText.replace('{n}', String(s.usage.perHour))) : blank}</dd>
        <dt>{o.sendingMode}</dt>
        <dd data-testid="sending-method">{s ? (s.method === 'batch' ? o.batch : o.interactive) : blank}</dd>
        <dt>{o.retryAfter}</dt>
        <dd>{s ? (s.blockedUntil ? `${o.until} ${new Date(s.blockedUntil).toLocaleTimeString(t.lang)}` : o.none) : blank}</dd>
      </dl>
    </section>
  );
}
