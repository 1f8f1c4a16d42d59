'use client';
import { useRouter } from 'next/navigation';
import { useI18n } from '../i18n';
import { SecretOnce } from '../secret-once';

/** The new account's test key, shown once; "continue" opens the dashboard. */
export function TestKeyCard({ testKey }: { testKey: string }) {
  const { t } = useI18n();
  const a = t.auth;
  const router = useRouter();
  return (
    <section className="card auth-card" aria-labelledby="created-h">
      <p className="brand">{t.brand}</p>
      <h1 id="created-h">{a.createdTitle}</h1>
      <SecretOnce title={a.testKeyIntro} value={testKey} />
      <button
        type="button"
        className="primary"
        onClick={() => {
          router.push('/dashboard');
          router.refresh();
        }}
      >
        {a.continue}
      </button>
    </section>
  );
}
