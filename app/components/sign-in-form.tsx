'use client';
import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Field } from './field';
import { useI18n } from './i18n';

export function SignInForm() {
  const { t } = useI18n();
  const a = t.auth;
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await signIn('credentials', { email, password, redirect: false });
    setBusy(false);
    if (!res || res.error) return setError(a.badCredentials);
    router.push('/dashboard');
    router.refresh();
  };
  return (
    <form className="card form auth-card" onSubmit={(e) => void submit(e)} aria-labelledby="signin-h">
      <p className="brand">{t.brand}</p>
      <h1 id="signin-h">{a.signInTitle}</h1>
      <Field label={a.email} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      <Field
        label={a.password}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error}
        required
      />
      <p className="forgot">
        <Link href="/forgot-password">{a.forgotLink}</Link>
      </p>
      <button type="submit" className="primary" disabled={busy}>
        {a.signIn}
      </button>
      <p>
        {a.noAccount} <Link href="/signup">{a.signUp}</Link>
      </p>
    </form>
  );
}
