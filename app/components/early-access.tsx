'use client';
import { useI18n } from './i18n';

export function EarlyAccess() {
  const { t } = useI18n();
  return (
    <section className="card early-access" aria-labelledby="early-access-title">
      <h1 id="early-access-title">{t.mode.earlyAccessTitle}</h1>
      <p>{t.mode.earlyAccess}</p>
    </section>
  );
}
