'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { Field } from './field';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/** The reset link's page: a new password (sign-up's rules) for the link's address, then signed in with it. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useI18n();
  const a = t.auth;
  const trpc = useTRPC();
  const router = useRouter();
  const preview = useQuery({ ...trpc.auth.previewPasswordReset.queryOptions({ token }), retry: false });
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const failure = readError(preview.error ?? reset.error, t);
  const passwordError = touched && password.length < 10 ? a.passwordShort : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (password.length < 10) return;
    reset.mutate(
      { token, password },
      {
        onSuccess: ({ email }) =>
          void signIn('credentials', { email, password, redirect: false }).then((res) => {
            router.push(res && !res.error ? '/dashboard' : '/signin');
            router.refresh();
          }),
      },
    );
  };
  return (
    <form className="card form auth-card" onSubmit={submit} noValidate aria-labelledby="reset-h">
      <p className="brand">{t.brand}</p>
      <h1 id="reset-h">{a.resetTitle}</h1>
      {failure ? (
        <p className="field-error" role="alert">
          {failure.message}
        </p>
      ) : null}
      {!preview.data && !preview.error ? <p className="muted">{t.common.loading}</p> : null}
      {preview.data ? (
        <>
          {/* the address lets a password manager file the new password under the right user */}
          <input type="email" name="email" autoComplete="username" value={preview.data.email} readOnly hidden />
          <p className="muted">{preview.data.email}</p>
          <Field
            label={a.newPassword}
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={passwordError}
            hint={a.passwordHint}
            required
          />
          <button type="submit" className="primary" disabled={reset.isPending || reset.isSuccess}>
            {a.resetSave}
          </button>
        </>
      ) : null}
      <p>{preview.error ? <Link href="/forgot-password">{a.forgotTitle}</Link> : <Link href="/signin">{a.backToSignIn}</Link>}</p>
    </form>
  );
}
