'use client';
import { formatMoney } from '../format';
import { useI18n } from '../i18n';
import type { OverviewData } from './types';

/** Net, VAT and gross of the documents issued this month (the month's VAT register), per currency. */
export function MoneyCard({ data }: { data: OverviewData }) {
  const { t, locale } = useI18n();
  const o = t.overview;
  const money = data?.money;
  const month = money ? new Date(`${money.period}-15T12:00:00Z`).toLocaleDateString(t.lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';
  return (
    <section className="card" aria-labelledby="money-h" data-testid="month-money">
      <h2 id="money-h">
        {o.money} {month ? <span className="muted">({month})</span> : null}
      </h2>
      {money && money.totals.length === 0 ? <p className="muted">{o.noMoney}</p> : null}
      {(money?.totals ?? []).map((c) => (
        <dl className="facts" key={c.currency} data-currency={c.currency}>
          <dt>{o.net}</dt>
          <dd>{formatMoney(c.netGrosze, c.currency, locale)}</dd>
          <dt>{o.vat}</dt>
          <dd>{formatMoney(c.vatGrosze, c.currency, locale)}</dd>
          <dt>{o.gross}</dt>
          <dd>
            <strong>{formatMoney(c.grossGrosze, c.currency, locale)}</strong>
          </dd>
          <dt>{o.issuedDocuments}</dt>
          <dd>{c.documents}</dd>
        </dl>
      ))}
      {!money ? <p>{'\u00a0'}</p> : null}
    </section>
  );
}
