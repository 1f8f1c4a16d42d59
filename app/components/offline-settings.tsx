'use client';
import { useQuery } from '@tanstack/react-query';
import { OfflineCertificateCard } from './offline/certificate-card';
import { EnrolCard } from './offline/enrol-card';
import { OfflinePolicyForm } from './offline/policy-form';
import { UploadCertificateForm } from './offline/upload-form';
import { useTRPC } from './trpc';

/** The Offline certificate (enrol or upload), the "issue offline" setting and why it cannot be on (issue 17). */
export function OfflineSettings() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.offline.status.queryOptions());
  return (
    <>
      <OfflineCertificateCard data={data} />
      <div className="grid-2">
        <EnrolCard data={data} />
        <UploadCertificateForm />
      </div>
      <OfflinePolicyForm data={data} />
    </>
  );
}
