'use client';
import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { Field } from './field';
import { useI18n } from './i18n';
import { TestKeyCard } from './sign-up/test-key-card';
import { useTRPC } from './trpc';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sign-up, then a signed-in session and the test key shown once before the dashboard opens. */
export function SignUpForm() {
  const { t } = useI18n();
  const a = t.auth;
  const trpc = useTRPC();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [testKey, setTestKey] = useState<string | null>(null);
  const signUp = useMutation(trpc.auth.signUp.mutationOptions());
  const failure = readError(signUp.error, t);
  const emailError = touched && !EMAIL.test(email) ? a.emailInvalid : failure?.param === 'email' ? a.emailTaken : null;
  const passwordError = touched && password.length < 10 ? a.passwordShort : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!EMAIL.test(email) || password.length < 10) return;
    signUp.mutate(
      { email, password },
      {
        // the key appears once the session exists, so "continue" always lands signed in
        onSuccess: (created) => {
          void signIn('credentials', { email, password, redirect: false }).then(() => setTestKey(created.testKey));
        },
      },
    );
  };
  if (testKey) return <TestKeyCard testKey={testKey} />;
  return (
    <form className="card form auth-card" onSubmit={submit} noValidate aria-labelledby="signup-h">
      <p className="brand">{t.brand}</p>
      <h1 id="signup-h">{a.signUpTitle}</h1>
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
      <Field
        label={a.password}
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={passwordError}
        hint={a.passwordHint}
        required
      />
      <button type="submit" className="primary" disabled={signUp.isPending}>
        {a.signUp}
      </button>
      {failure && failure.param !== 'email' ? <p className="field-error">{failure.message}</p> : null}
      <p>
        {a.haveAccount} <Link href="/signin">{a.signIn}</Link>
      </p>
    </form>
  );
}
