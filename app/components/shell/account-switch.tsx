'use client';
import type { MemberRole } from '@/server/accounts/permissions';
import { useI18n } from '../i18n';

type Props = {
  accounts: { accountId: string; email: string | null; role: MemberRole }[];
  accountId: string;
  onSwitch: (accountId: string) => void;
};

/** Switches between the user's accounts; nothing for a user with one. */
export function AccountSwitch({ accounts, accountId, onSwitch }: Props) {
  const { t } = useI18n();
  if (accounts.length <= 1) return null;
  return (
    <label className="lang">
      <span className="sr-only">{t.accountSwitch}</span>
      <select value={accountId} onChange={(e) => onSwitch(e.target.value)} aria-label={t.accountSwitch}>
        {accounts.map((a) => (
          <option key={a.accountId} value={a.accountId}>
            {a.email ?? a.accountId} · {t.roles[a.role]}
          </option>
        ))}
      </select>
    </label>
  );
}
