'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { Field } from './field';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Asks for the account's address; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const { t } = useI18n();
  const a = t.auth;
  const trpc = useTRPC();
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const emailError = touched && !EMAIL.test(email) ? a.emailInvalid : (readError(request.error, t)?.message ?? null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (EMAIL.test(email)) request.mutate({ email });
  };
  return (
    <form className="card form auth-card" onSubmit={submit} noValidate aria-labelledby="forgot-h">
      <p className="brand">{t.brand}</p>
      <h1 id="forgot-h">{a.forgotTitle}</h1>
      {request.isSuccess ? (
        <p role="status" className="ok">
          {a.forgotSent}
        </p>
      ) : (
        <>
          <p className="muted">{a.forgotIntro}</p>
          <Field
            label={a.email}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={emailError}
            required
          />
          <button type="submit" className="primary" disabled={request.isPending}>
            {a.forgotSend}
          </button>
        </>
      )}
      <p>
        <Link href="/signin">{a.backToSignIn}</Link>
      </p>
    </form>
  );
}
