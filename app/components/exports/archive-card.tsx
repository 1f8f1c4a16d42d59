'use client';
import { useState } from 'react';
import { useI18n } from '../i18n';
import type { ExportSummary } from './types';

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

type Progress = { state: 'idle' } | { state: 'running'; bytes: number } | { state: 'done'; bytes: number } | { state: 'failed' };

/**
 * The month's archive. It is read through fetch so its progress can be shown: bytes received against the month's
 * stored bytes (tRPC exports.summary; the ZIP deflates the XML, so it ends below them), then handed to the browser
 * as a file.
 */
export function ArchiveCard({ period, summary }: { period: string; summary: ExportSummary }) {
  const x = useI18n().t.exports;
  const [progress, setProgress] = useState<Progress>({ state: 'idle' });
  const archiveUrl = `/dashboard/exports/archive?period=${period}`;

  async function downloadArchive() {
    setProgress({ state: 'running', bytes: 0 });
    try {
      const res = await fetch(archiveUrl);
      if (!res.ok || !res.body) throw new Error(String(res.status));
      const reader = res.body.getReader();
      const parts: Uint8Array[] = [];
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        bytes += value.length;
        setProgress({ state: 'running', bytes });
      }
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'application/zip' }));
      link.download = `archiwum-${period}.zip`;
      link.click();
      URL.revokeObjectURL(link.href);
      setProgress({ state: 'done', bytes });
    } catch {
      setProgress({ state: 'failed' });
    }
  }

  const expected = summary?.storedBytes ?? 0;
  return (
    <section className="card" aria-labelledby="export-archive-h">
      <h2 id="export-archive-h">{x.archive}</h2>
      <p className="muted">{x.archiveHelp}</p>
      <p>
        <button type="button" onClick={() => void downloadArchive()} disabled={progress.state === 'running' || summary?.documents === 0}>
          {x.download}
        </button>{' '}
        <a href={archiveUrl} download>
          {x.direct}
        </a>
      </p>
      {progress.state === 'running' || progress.state === 'done' ? (
        <p>
          <progress
            aria-label={x.progress}
            max={1}
            value={progress.state === 'done' ? 1 : expected > 0 ? Math.min(progress.bytes / expected, 0.99) : undefined}
          />{' '}
          {progress.state === 'done' ? x.done : x.progress}: {mb(progress.bytes)} MB
          {expected > 0 && progress.state === 'running' ? ` / ~${mb(expected)} MB` : ''}
        </p>
      ) : null}
      {progress.state === 'failed' ? <p role="alert">{x.failed}</p> : null}
    </section>
  );
}
