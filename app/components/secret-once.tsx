'use client';
import { useState } from 'react';
import { useI18n } from './i18n';

/** A key or secret shown exactly once, with a copy button and the warning that it will not come back. */
export function SecretOnce({ title, value }: { title: string; value: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      <p>
        <strong>{title}</strong>
      </p>
      <div className="secret-row">
        <code data-testid="secret-value">{value}</code>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? t.common.copied : t.common.copy}
        </button>
      </div>
      <p className="muted">{t.common.showOnce}</p>
    </div>
  );
}
