'use client';
import { useState, type FormEvent } from 'react';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { readFile, readPemPair } from '../read-file';
import type { KsefActions } from './use-ksef-actions';

/** Saves a KSeF certificate: a PKCS#12 file with its password, or PEM certificate and key files. */
export function CertificateForm({ actions: { saveCert, busy } }: { actions: KsefActions }) {
  const { t } = useI18n();
  const k = t.ksef;
  const [format, setFormat] = useState<'p12' | 'pem'>('p12');
  const [password, setPassword] = useState('');
  const [files, setFiles] = useState<{ p12?: File; cert?: File; key?: File }>({});
  const [certError, setCertError] = useState<string | null>(null);
  const certFailure = readError(saveCert.error, t);

  const submitCert = async (e: FormEvent) => {
    e.preventDefault();
    setCertError(null);
    if (format === 'p12') {
      if (!files.p12) return setCertError(t.common.required);
      saveCert.mutate({ format: 'p12', p12Base64: await readFile(files.p12, 'base64'), password });
    } else {
      if (!files.cert || !files.key) return setCertError(t.common.required);
      saveCert.mutate(await readPemPair(files.cert, files.key, password));
    }
  };
  return (
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
  );
}
