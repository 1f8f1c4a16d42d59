'use client';
import { useState } from 'react';
import { useI18n } from '../i18n';
import type { ExportSummary } from './types';

/** The month's sales register as CSV or XML, and the CSV of what changed since a moment. */
export function RegisterCard({ period, summary }: { period: string; summary: ExportSummary }) {
  const x = useI18n().t.exports;
  const [changedSince, setChangedSince] = useState('');
  const registerUrl = (format: 'csv' | 'xml') => `/dashboard/exports/sales-register?period=${period}&format=${format}`;
  const since = changedSince ? Math.floor(new Date(changedSince).getTime() / 1000) : null;
  return (
    <section className="card" aria-labelledby="export-register-h">
      <h2 id="export-register-h">{x.register}</h2>
      <p>
        {x.summary}: <strong>{summary ? summary.documents : '…'}</strong>
        {summary && (summary.withoutUpo > 0 || summary.withoutPdf > 0)
          ? ` (${summary.withoutUpo} ${x.withoutUpo}, ${summary.withoutPdf} ${x.withoutPdf})`
          : null}
      </p>
      <p>
        <a href={registerUrl('csv')} download>
          {x.csv}
        </a>
        {' · '}
        <a href={registerUrl('xml')} download>
          {x.xml}
        </a>
      </p>
      <div className="field">
        <label htmlFor="export-changed-since">{x.changedSince}</label>
        <input id="export-changed-since" type="datetime-local" value={changedSince} onChange={(e) => setChangedSince(e.target.value)} />
        <p className="muted">{x.changedSinceHelp}</p>
      </div>
      {since !== null ? (
        <p>
          <a href={`${registerUrl('csv')}&changed_since=${since}`} download>
            {x.changedLink}
          </a>
        </p>
      ) : null}
    </section>
  );
}
