'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { readError } from './error-text';
import { useI18n } from './i18n';
import { InviteForm } from './members/invite-form';
import { InvitesCard } from './members/invites-card';
import { MembersTable } from './members/members-table';
import { useTRPC } from './trpc';

/** The members page (owners): members with their roles, pending invitations, and the invitation form. */
export function MembersView() {
  const { t } = useI18n();
  const m = t.members;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery(trpc.members.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.pathKey() });
  const options = { onSuccess: () => void refresh() };
  const revoke = useMutation(trpc.members.revokeInvite.mutationOptions(options));
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions(options));
  const remove = useMutation(trpc.members.remove.mutationOptions(options));
  const listError = readError(changeRole.error ?? remove.error ?? revoke.error, t);
  return (
    <>
      <h1>{m.title}</h1>
      <p className="muted">{m.intro}</p>
      <p className="field-error" role={listError ? 'alert' : undefined}>
        {listError?.message ?? '\u00a0'}
      </p>
      <MembersTable
        data={data}
        changeRole={(userId, role) => changeRole.mutate({ userId, role })}
        remove={(userId) => remove.mutate({ userId })}
        removing={remove.isPending}
      />
      <InvitesCard data={data} revoke={(id) => revoke.mutate({ id })} revoking={revoke.isPending} />
      <InviteForm />
    </>
  );
}
