'use client';
import type { MemberRole } from '@/server/accounts/permissions';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import { RoleSelect } from './role-select';
import type { MembersData } from './types';

type Props = {
  data: MembersData;
  changeRole: (userId: string, role: MemberRole) => void;
  remove: (userId: string) => void;
  removing: boolean;
};

/** The account's members, each with a role to change and a remove button. */
export function MembersTable({ data, changeRole, remove, removing }: Props) {
  const { t, locale } = useI18n();
  const m = t.members;
  return (
    <div className="table-wrap card">
      <table aria-label={m.list}>
        <thead>
          <tr>
            <th scope="col">{m.email}</th>
            <th scope="col">{m.role}</th>
            <th scope="col">{m.since}</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {data?.members.map((member) => (
            <tr key={member.userId}>
              <td>
                {member.email} {member.userId === data.you ? <span className="muted">{m.you}</span> : null}
              </td>
              <td>
                <label className="sr-only" htmlFor={`role-${member.userId}`}>
                  {m.role}: {member.email}
                </label>
                <RoleSelect id={`role-${member.userId}`} value={member.role} onChange={(r) => changeRole(member.userId, r)} />
              </td>
              <td>{formatDateTime(member.createdAt, locale)}</td>
              <td>
                <button type="button" className="danger" onClick={() => window.confirm(m.confirmRemove) && remove(member.userId)} disabled={removing}>
                  {m.remove}
                </button>
              </td>
            </tr>
          ))}
          {!data ? (
            <tr>
              <td colSpan={4}>{t.common.loading}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
