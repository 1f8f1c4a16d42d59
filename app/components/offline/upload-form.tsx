'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '../error-text';
import { Field } from '../field';
import { useI18n } from '../i18n';
import { readPemPair } from '../read-file';
import { useTRPC } from '../trpc';
import { useRefreshOffline } from './types';

/** Uploads an Offline certificate made elsewhere: PEM certificate and key files. */
export function UploadCertificateForm() {
  const { t } = useI18n();
  const o = t.offline;
  const trpc = useTRPC();
  const upload = useMutation(trpc.offline.uploadCertificate.mutationOptions(useRefreshOffline()));
  const [files, setFiles] = useState<{ cert?: File; key?: File }>({});
  const [password, setPassword] = useState('');
  const uploadError = readError(upload.error, t);

  const submitUpload = async (e: FormEvent) => {
    e.preventDefault();
    if (!files.cert || !files.key) return;
    upload.mutate(await readPemPair(files.cert, files.key, password));
  };
  return (
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
  );
}
