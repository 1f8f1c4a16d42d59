'use client';
import type { DocumentStatus } from '@/server/facts/document-statuses';
import { useI18n } from './i18n';

export function StatusBadge({ status }: { status: DocumentStatus }) {
  const { t } = useI18n();
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {t.status[status]}
    </span>
  );
}
