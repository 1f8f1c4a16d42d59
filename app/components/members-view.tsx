'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { MEMBER_ROLES, type MemberRole } from '@/server/accounts/permissions';
import { readError } from './error-text';
import { Field } from './field';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/** The members page (owners): members with their roles, pending invitations, and the invitation form. */
export function MembersView() {
  const { t, locale } = useI18n();
  const m = t.members;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery(trpc.members.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.pathKey() });
  const options = { onSuccess: () => void refresh() };
  const invite = useMutation(trpc.members.invite.mutationOptions(options));
  const revoke = useMutation(trpc.members.revokeInvite.mutationOptions(options));
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions(options));
  const remove = useMutation(trpc.members.remove.mutationOptions(options));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('accountant');
  const inviteError = readError(invite.error, t);
  const listError = readError(changeRole.error ?? remove.error ?? revoke.error, t);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => setEmail('') });
  };
  const roleSelect = (id: string, value: MemberRole, onChange: (r: MemberRole) => void) => (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value as MemberRole)}>
      {MEMBER_ROLES.map((r) => (
        <option key={r} value={r}>
          {t.roles[r]}
        </option>
      ))}
    </select>
  );
  return (
    <>
      <h1>{m.title}</h1>
      <p className="muted">{m.intro}</p>
      <p className="field-error" role={listError ? 'alert' : undefined}>
        {listError?.message ?? '\u00a0'}
      </p>
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
                  {roleSelect(`role-${member.userId}`, member.role, (r) => changeRole.mutate({ userId: member.userId, role: r }))}
                </td>
                <td>{formatDateTime(member.createdAt, locale)}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => window.confirm(m.confirmRemove) && remove.mutate({ userId: member.userId })}
                    disabled={remove.isPending}
                  >
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
      <section className="card" aria-labelledby="invites-h">
        <h2 id="invites-h">{m.invites}</h2>
        {data && data.invites.length === 0 ? <p className="muted">{m.noInvites}</p> : null}
        {data && data.invites.length > 0 ? (
          <div className="table-wrap">
            <table aria-labelledby="invites-h">
              <thead>
                <tr>
                  <th scope="col">{m.email}</th>
                  <th scope="col">{m.role}</th>
                  <th scope="col">{m.expires}</th>
                  <th scope="col" />
                </tr>
              </thead>
              <tbody>
                {data.invites.map((inv) => (
                  <tr key={inv.id}>
                    <td>{inv.email}</td>
                    <td>{t.roles[inv.role]}</td>
                    <td>{inv.expired ? m.expired : formatDateTime(inv.expiresAt, locale)}</td>
                    <td>
                      <button type="button" onClick={() => revoke.mutate({ id: inv.id })} disabled={revoke.isPending}>
                        {m.revoke}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <form className="card form" onSubmit={submit} aria-labelledby="invite-h">
        <h2 id="invite-h">{m.inviteTitle}</h2>
        <Field
          label={m.email}
          name="email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={inviteError?.message ?? null}
          ok={invite.isSuccess ? m.inviteSent : null}
          required
        />
        <div className="field">
          <label htmlFor="invite-role">{m.role}</label>
          {roleSelect('invite-role', role, setRole)}
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={invite.isPending}>
            {m.invite}
          </button>
        </div>
      </form>
    </>
  );
}
