'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { Field } from './field';
import { formatDateTime } from './format';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';
import type { Locale } from '@/app/i18n/locale';
import type { Dictionary } from '@/app/i18n/pl';
import { fillTemplate, type TemplateParams } from '@/server/template';

const readFile = (file: File, as: 'text' | 'base64') =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => resolve(as === 'text' ? String(reader.result) : String(reader.result).replace(/^data:[^,]*,/, ''));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });

type Policy = 'off' | 'when_unavailable' | 'always';

type CertificateState = { state: 'missing' } | { state: 'expired' | 'not_yet_valid' | 'valid' | 'expiring'; serial: string; validFrom: Date; validTo: Date };

/** A kept enrolment failure by its cause; one stored before causes were kept, in English only to an English reader. */
function enrolmentErrorText(e: { detail: string | null; params: TemplateParams; text: string }, t: Dictionary): string {
  const template = e.detail ? t.errorDetails[e.detail] : undefined;
  if (template) return fillTemplate(template, e.params);
  return t.lang === 'en' ? e.text : t.offline.enrolmentFailed;
}

/** The certificate's state in the reader's language (the service's `reason` is English). */
function certificateText(cert: CertificateState, t: Dictionary, locale: Locale): string {
  const o = t.offline;
  if (cert.state === 'missing') return o.certificateMissing;
  if (cert.state === 'expired') return fillTemplate(o.certificateExpired, { serial: cert.serial, date: formatDateTime(cert.validTo, locale) });
  if (cert.state === 'not_yet_valid') return fillTemplate(o.certificateNotYetValid, { serial: cert.serial, date: formatDateTime(cert.validFrom, locale) });
  return `${o.serial} ${cert.serial}`;
}

/** The Offline certificate (enrol or upload), the "issue offline" setting and why it cannot be on (issue 17). */
export function OfflineSettings() {
  const { t, locale } = useI18n();
  const o = t.offline;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useQuery(trpc.offline.status.queryOptions());
  const onDone = { onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.offline.pathKey() }) };
  const enrol = useMutation(trpc.offline.enrol.mutationOptions(onDone));
  const upload = useMutation(trpc.offline.uploadCertificate.mutationOptions(onDone));
  const setPolicy = useMutation(trpc.offline.setPolicy.mutationOptions(onDone));
  const [policy, setPolicyChoice] = useState<Policy | null>(null);
  const [delay, setDelay] = useState<string | null>(null);
  const [files, setFiles] = useState<{ cert?: File; key?: File }>({});
  const [password, setPassword] = useState('');
  const cert = data?.certificate;
  const uploadError = readError(upload.error, t);

  const submitUpload = async (e: FormEvent) => {
    e.preventDefault();
    if (!files.cert || !files.key) return;
    upload.mutate({
      format: 'pem',
      certificatePem: await readFile(files.cert, 'text'),
      privateKeyPem: await readFile(files.key, 'text'),
      keyPassword: password || undefined,
    });
  };
  const chosenPolicy = policy ?? data?.policy ?? 'off';
  const chosenDelay = delay ?? String(data?.delaySeconds ?? 300);

  return (
    <>
      <section className="card" aria-labelledby="offline-h">
        <h2 id="offline-h">{o.title}</h2>
        <p className="muted">{o.intro}</p>
        <dl className="facts">
          <dt>{o.certificate}</dt>
          <dd data-testid="offline-certificate" className={cert && 'reason' in cert ? 'warn' : 'ok'}>
            {cert ? certificateText(cert, t, locale) : '\u00a0'}
          </dd>
          {cert && 'validTo' in cert ? (
            <>
              <dt>{o.validTo}</dt>
              <dd className={cert.state === 'expiring' ? 'warn' : undefined}>
                {formatDateTime(cert.validTo, locale)}
                {cert.state === 'expiring' ? ` – ${o.certificateExpiring}` : ''}
              </dd>
            </>
          ) : null}
          {cert?.source ? (
            <>
              <dt>{o.source}</dt>
              <dd>{o.sources[cert.source]}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <div className="grid-2">
        <section className="card" aria-labelledby="offline-enrol-h">
          <h2 id="offline-enrol-h">{o.enrolTitle}</h2>
          <p>{o.enrolIntro}</p>
          {data?.cannotEnrol ? (
            <p className="warn">
              {t.errorDetails.enrol_needs_certificate}
              {data.cannotEnrol === 'token_emulator' ? ` ${o.emulatorCertificateHint}` : ''}
            </p>
          ) : null}
          {data?.enrolmentError ? <p className="field-error">{enrolmentErrorText(data.enrolmentError, t)}</p> : null}
          <button type="button" className="primary" onClick={() => enrol.mutate()} disabled={enrol.isPending || !data?.canEnrol}>
            {enrol.isPending ? o.enrolling : o.enrol}
          </button>
          <span role="status" aria-live="polite" className="field-error">
            {readError(enrol.error, t)?.message ?? (enrol.data?.state === 'pending' || data?.enrolmentPending ? o.enrolPending : '')}
          </span>
        </section>
        <form className="card form" aria-labelledby="offline-upload-h" noValidate onSubmit={(e) => void submitUpload(e)}>
          <h2 id="offline-upload-h">{o.uploadTitle}</h2>
          <Field
            label={t.ksef.certFile}
            type="file"
            accept=".pem,.crt,.cer"
            onChange={(e) => setFiles((f) => ({ ...f, cert: e.target.files?.[0] }))}
            error={uploadError?.param === 'certificate' ? uploadError.message : null}
          />
          <Field
            label={t.ksef.keyFile}
            type="file"
            accept=".pem,.key"
            onChange={(e) => setFiles((f) => ({ ...f, key: e.target.files?.[0] }))}
            error={uploadError?.param === 'private_key' ? uploadError.message : null}
          />
          <Field label={t.ksef.keyPassword} type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
          <button type="submit" className="primary" disabled={upload.isPending || !files.cert || !files.key}>
            {o.upload}
          </button>
        </form>
      </div>
      <form
        className="card form"
        aria-labelledby="offline-setting-h"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setPolicy.mutate({ policy: chosenPolicy, delaySeconds: Number(chosenDelay) });
        }}
      >
        <h2 id="offline-setting-h">{o.settingTitle}</h2>
        <fieldset className="radios">
          <legend>{o.settingTitle}</legend>
          {(['off', 'when_unavailable', 'always'] as const).map((p) => (
            <label key={p}>
              <input type="radio" name="offline-policy" checked={chosenPolicy === p} onChange={() => setPolicyChoice(p)} /> {o.policy[p]}
            </label>
          ))}
        </fieldset>
        <Field
          label={o.delay}
          name="delay"
          inputMode="numeric"
          value={chosenDelay}
          onChange={(e) => setDelay(e.target.value)}
          error={readError(setPolicy.error, t)?.param === 'delay_seconds' ? readError(setPolicy.error, t)?.message : null}
        />
        {readError(setPolicy.error, t)?.param === 'policy' ? (
          <p className="field-error" role="alert">
            {readError(setPolicy.error, t)?.message}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={setPolicy.isPending}>
          {o.saveSetting}
        </button>
      </form>
    </>
  );
}
