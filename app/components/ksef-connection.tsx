'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { checkErrorText, readError } from './error-text';
import { Field } from './field';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

const readFile = (file: File, as: 'text' | 'base64') =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => resolve(as === 'text' ? String(reader.result) : String(reader.result).replace(/^data:[^,]*,/, ''));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });

export function KsefConnection() {
  const { t, locale } = useI18n();
  const k = t.ksef;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery(trpc.ksef.status.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.ksef.pathKey() });
  const onDone = { onSettled: refresh };
  const saveToken = useMutation(trpc.ksef.saveToken.mutationOptions(onDone));
  const saveCert = useMutation(trpc.ksef.saveCertificate.mutationOptions(onDone));
  const test = useMutation(trpc.ksef.testConnection.mutationOptions(onDone));
  const emulator = useMutation(trpc.ksef.connectEmulator.mutationOptions(onDone));
  const [token, setToken] = useState('');
  const [format, setFormat] = useState<'p12' | 'pem'>('p12');
  const [password, setPassword] = useState('');
  const [files, setFiles] = useState<{ p12?: File; cert?: File; key?: File }>({});
  const [certError, setCertError] = useState<string | null>(null);
  const last = [test, emulator, saveToken, saveCert].find((m) => m.isSuccess || m.isError);
  const lastResult = last?.data as { connected: boolean; error: string | null } | undefined;
  const busy = test.isPending || emulator.isPending || saveToken.isPending || saveCert.isPending;
  const certFailure = readError(saveCert.error, t);

  const submitCert = async (e: FormEvent) => {
    e.preventDefault();
    setCertError(null);
    if (format === 'p12') {
      if (!files.p12) return setCertError(t.common.required);
      saveCert.mutate({ format: 'p12', p12Base64: await readFile(files.p12, 'base64'), password });
    } else {
      if (!files.cert || !files.key) return setCertError(t.common.required);
      saveCert.mutate({
        format: 'pem',
        certificatePem: await readFile(files.cert, 'text'),
        privateKeyPem: await readFile(files.key, 'text'),
        keyPassword: password || undefined,
      });
    }
  };

  return (
    <>
      <h1>{k.title}</h1>
      <section className="card" aria-labelledby="ksef-state-h">
        <h2 id="ksef-state-h">{k.state}</h2>
        <dl className="facts">
          <dt>{k.environment}</dt>
          <dd>{data ? k.env[data.environment] : '\u00a0'}</dd>
          <dt>{k.credential}</dt>
          <dd>{data ? (data.credentialKind ? k.credentialKind[data.credentialKind] : t.common.none) : '\u00a0'}</dd>
          {data?.credentialExpiry ? (
            <>
              <dt>{k.validTo}</dt>
              <dd data-testid="ksef-valid-to" className={data.credentialExpiry === 'expiring' || data.credentialExpiry === 'expired' ? 'warn' : undefined}>
                {data.credentialValidTo ? formatDateTime(data.credentialValidTo, locale) : k.noExpiryKnown}
                {data.credentialExpiry === 'expiring' ? ` (${k.expiringSoon})` : data.credentialExpiry === 'expired' ? ` (${k.expired})` : ''}
              </dd>
            </>
          ) : null}
          <dt>{k.state}</dt>
          <dd data-testid="ksef-state" className={data?.connected ? 'ok' : 'warn'}>
            {data ? (data.connected ? k.connected : (checkErrorText(data.checkError, t) ?? '—')) : '\u00a0'}
          </dd>
          <dt>{k.lastCheck}</dt>
          <dd>{data?.checkedAt ? formatDateTime(data.checkedAt, locale) : '—'}</dd>
        </dl>
        <div className="actions">
          <button type="button" onClick={() => test.mutate()} disabled={busy || !data?.credentialKind}>
            {test.isPending ? k.testing : k.test}
          </button>
          <span role="status" aria-live="polite" className={lastResult?.connected ? 'ok' : 'field-error'}>
            {busy
              ? k.testing
              : lastResult
                ? lastResult.connected
                  ? k.testOk
                  : checkErrorText(lastResult.error, t)
                : (readError(last?.error, t)?.message ?? '')}
          </span>
        </div>
        <p className="muted">{k.stored}</p>
        {data?.credentialKind === 'token' ? <p className="muted">{k.tokenEnd}</p> : null}
      </section>
      {data?.emulator ? (
        <section className="card" aria-labelledby="emulator-h">
          <h2 id="emulator-h">{k.emulatorTitle}</h2>
          <p>{k.emulatorIntro}</p>
          {data.sellerNip ? null : <p className="warn">{k.needSeller}</p>}
          <div className="actions">
            <button type="button" className="primary" onClick={() => emulator.mutate({ kind: 'token' })} disabled={busy || !data.sellerNip}>
              {k.emulatorButton}
            </button>
            <button type="button" onClick={() => emulator.mutate({ kind: 'certificate' })} disabled={busy || !data.sellerNip}>
              {k.emulatorCertButton}
            </button>
          </div>
        </section>
      ) : null}
      <div className="grid-2">
        <form
          className="card form"
          aria-labelledby="token-h"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (token.trim()) saveToken.mutate({ token });
          }}
        >
          <h2 id="token-h">{k.tokenTitle}</h2>
          <Field
            label={k.token}
            name="token"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            error={readError(saveToken.error, t)?.message}
          />
          <button type="submit" className="primary" disabled={busy || !token.trim()}>
            {k.saveToken}
          </button>
        </form>
        <form className="card form" aria-labelledby="cert-h" noValidate onSubmit={(e) => void submitCert(e)}>
          <h2 id="cert-h">{k.certTitle}</h2>
          <fieldset className="radios">
            <legend>{k.certFormat}</legend>
            <label>
              <input type="radio" name="format" checked={format === 'p12'} onChange={() => setFormat('p12')} /> {k.p12}
            </label>
            <label>
              <input type="radio" name="format" checked={format === 'pem'} onChange={() => setFormat('pem')} /> {k.pem}
            </label>
          </fieldset>
          {format === 'p12' ? (
            <Field
              label={k.p12File}
              type="file"
              accept=".p12,.pfx,application/x-pkcs12"
              onChange={(e) => setFiles({ p12: e.target.files?.[0] })}
              error={certError ?? (certFailure?.param === 'p12' ? certFailure.message : null)}
            />
          ) : (
            <>
              <Field
                label={k.certFile}
                type="file"
                accept=".pem,.crt,.cer"
                onChange={(e) => setFiles((f) => ({ ...f, cert: e.target.files?.[0] }))}
                error={certError ?? (certFailure?.param === 'certificate' ? certFailure.message : null)}
              />
              <Field
                label={k.keyFile}
                type="file"
                accept=".pem,.key"
                onChange={(e) => setFiles((f) => ({ ...f, key: e.target.files?.[0] }))}
                error={certFailure?.param === 'private_key' ? certFailure.message : null}
              />
            </>
          )}
          <Field
            label={format === 'p12' ? k.p12Password : k.keyPassword}
            type="password"
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={certFailure?.param === 'password' ? certFailure.message : null}
          />
          <button type="submit" className="primary" disabled={busy}>
            {k.saveCert}
          </button>
        </form>
      </div>
    </>
  );
}
