'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { MemberRole } from '@/server/accounts/permissions';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';
import { useRefresh } from '../use-refresh';
import { RoleSelect } from './role-select';

/** Invites a member by e-mail address with a role. */
export function InviteForm() {
  const { t } = useI18n();
  const m = t.members;
  const trpc = useTRPC();
  const refresh = useRefresh(trpc.members.pathKey());
  const invite = useMutation(trpc.members.invite.mutationOptions({ onSuccess: () => void refresh() }));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('accountant');
  const inviteError = readError(invite.error, t);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => setEmail('') });
  };
  return (
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
        <RoleSelect id="invite-role" value={role} onChange={setRole} />
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={invite.isPending}>
          {m.invite}
        </button>
      </div>
    </form>
  );
}
