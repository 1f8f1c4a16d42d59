'use client';
import { useI18n } from './i18n';

/** What an owner-only page shows a member whose role does not allow it (the procedures refuse them too). */
export function ForbiddenNotice() {
  const { t } = useI18n();
  return (
    <section className="card" role="alert" aria-labelledby="forbidden-h">
      <h1 id="forbidden-h">{t.forbidden.title}</h1>
      <p>{t.forbidden.text}</p>
    </section>
  );
}
