'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { writePreference } from './cookies';
import { readError } from './error-text';
import { Field } from './field';
import { InviteFacts } from './invite/invite-facts';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/**
 * The invitation link's page: what the invitation offers, then accepting it as a new user (a password for the
 * invited address), as an existing user (sign in, then accept) or as the user already signed in.
 */
export function InviteAccept({ token, signedIn }: { token: string; signedIn: boolean }) {
  const { t } = useI18n();
  const a = t.auth;
  const v = t.invite;
  const trpc = useTRPC();
  const router = useRouter();
  const preview = useQuery({ ...trpc.invites.preview.queryOptions({ token }), retry: false });
  const signUp = useMutation(trpc.invites.signUp.mutationOptions());
  const accept = useMutation(trpc.invites.accept.mutationOptions());
  const [password, setPassword] = useState('');
  const [existing, setExisting] = useState(false);
  const [signInFailed, setSignInFailed] = useState(false);
  // the accepted account is the one the dashboard opens, also for a user with accounts of their own
  const open = (accepted?: { accountId: string }) => {
    if (accepted) writePreference('kr_account', accepted.accountId);
    router.push('/dashboard');
    router.refresh();
  };
  const failure = readError(preview.error ?? signUp.error ?? accept.error, t);
  const email = preview.data?.email ?? '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSignInFailed(false);
    try {
      if (!existing) await signUp.mutateAsync({ token, password });
      const res = await signIn('credentials', { email, password, redirect: false });
      if (!res || res.error) return setSignInFailed(true);
      open(existing ? await accept.mutateAsync({ token }) : undefined);
    } catch {
      // the failed call's message is shown from its mutation's state
    }
  };

  return (
    <section className="card form auth-card" aria-labelledby="invite-h">
      <p className="brand">{t.brand}</p>
      <h1 id="invite-h">{v.title}</h1>
      {preview.data ? <InviteFacts preview={preview.data} /> : null}
      {failure ? (
        <p className="field-error" role="alert">
          {failure.message}
        </p>
      ) : null}
      {!preview.data && !preview.error ? <p className="muted">{t.common.loading}</p> : null}
      {preview.data && signedIn ? (
        <>
          <p>{v.signedIn}</p>
          <button type="button" className="primary" disabled={accept.isPending} onClick={() => accept.mutate({ token }, { onSuccess: open })}>
            {v.accept}
          </button>
        </>
      ) : null}
      {preview.data && !signedIn ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <p>{existing ? v.existingUser : v.newUser}</p>
          <Field
            label={a.password}
            type="password"
            name="password"
            autoComplete={existing ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={signInFailed ? a.badCredentials : !existing && password.length > 0 && password.length < 10 ? a.passwordShort : null}
            hint={existing ? undefined : a.passwordHint}
            required
          />
          <div className="actions">
            <button type="submit" className="primary" disabled={signUp.isPending || accept.isPending}>
              {existing ? v.signInAccept : v.accept}
            </button>
            <button type="button" className="link-button" onClick={() => setExisting(!existing)}>
              {existing ? v.newUser : `${v.existingUser} ${a.signIn}`}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
