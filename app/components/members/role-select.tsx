'use client';
import { MEMBER_ROLES, type MemberRole } from '@/server/accounts/permissions';
import { useI18n } from '../i18n';

export function RoleSelect({ id, value, onChange }: { id: string; value: MemberRole; onChange: (r: MemberRole) => void }) {
  const { t } = useI18n();
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value as MemberRole)}>
      {MEMBER_ROLES.map((r) => (
        <option key={r} value={r}>
          {t.roles[r]}
        </option>
      ))}
    </select>
  );
}
