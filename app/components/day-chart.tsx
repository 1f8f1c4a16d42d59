'use client';
import type { DocumentStatus } from '@/server/facts/document-statuses';
import { useI18n } from './i18n';

type Day = { day: string; counts: Partial<Record<DocumentStatus, number>> };

const ORDER: DocumentStatus[] = ['accepted', 'sending', 'queued', 'pending', 'waiting_for_plan_limit', 'skipped', 'rejected', 'error'];
const W = 600;
const H = 160;

/**
 * Stacked bars per day in plain SVG (no chart library): fixed size, so nothing moves when data arrives. `days`
 * is undefined while loading; days without any document say so rather than draw an empty scale.
 */
export function DayChart({ days = [], description }: { days: Day[] | undefined; description: string }) {
  const { t } = useI18n();
  const empty = days.length > 0 && days.every((d) => Object.keys(d.counts).length === 0);
  const max = Math.max(1, ...days.map((d) => Object.values(d.counts).reduce((s, n) => s + (n ?? 0), 0)));
  const slot = W / Math.max(days.length, 30);
  const present = ORDER.filter((s) => days.some((d) => d.counts[s]));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={description} preserveAspectRatio="none">
        <line x1={0} x2={W} y1={H} y2={H} className="axis" />
        {days.map((d, i) => {
          let y = H;
          const total = Object.values(d.counts).reduce((s, n) => s + (n ?? 0), 0);
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${total}`}</title>
              {ORDER.map((s) => {
                const n = d.counts[s] ?? 0;
                if (!n) return null;
                const h = (n / max) * (H - 10);
                y -= h;
                return <rect key={s} x={i * slot + 2} y={y} width={Math.max(1, slot - 4)} height={h} className={`bar-${s}`} />;
              })}
            </g>
          );
        })}
      </svg>
      {/* labels in HTML: the SVG stretches to the card width and would distort text */}
      <div className="ticks" aria-hidden="true">
        {days.map((d, i) =>
          i % 7 === 0 ? (
            <span key={d.day} style={{ left: `${((i * slot + (i === 0 ? 0 : slot / 2)) / W) * 100}%` }}>
              {d.day.slice(5)}
            </span>
          ) : null,
        )}
      </div>
      <figcaption className="legend">
        {present.map((s) => (
          <span key={s}>
            <i className={`swatch bar-${s}`} aria-hidden="true" /> {t.status[s]}
          </span>
        ))}
        {empty ? <span className="muted">{t.overview.chartEmpty}</span> : null}
        {present.length ? <span className="muted">{t.overview.chartMax.replace('{n}', String(max))}</span> : null}
      </figcaption>
    </figure>
  );
}
