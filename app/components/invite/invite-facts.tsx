'use client';
import { useI18n } from '../i18n';
import type { RouterOutputs } from '../trpc';

/** What the invitation offers: the account, the role, and the invited address. */
export function InviteFacts({ preview }: { preview: RouterOutputs['invites']['preview'] }) {
  const { t } = useI18n();
  return (
    <dl className="facts">
      <dt>{t.invite.account}</dt>
      <dd>{preview.accountEmail ?? '—'}</dd>
      <dt>{t.invite.role}</dt>
      <dd>{t.roles[preview.role]}</dd>
      <dt>{t.auth.email}</dt>
      <dd>{preview.email}</dd>
    </dl>
  );
}
