import type { KsefClient } from './client';
import type { StatusInfo } from './online-session';

/**
 * KSeF certificate enrolment (OAS tag "Certyfikaty"; KSeF brief §4 of ksef-offline.md): limits → DN data → CSR →
 * enrol → poll status → retrieve. Only a XAdES login may call the data and enrol endpoints (25001/25002 otherwise).
 */
export type KsefCertificateType = 'Authentication' | 'Offline';

export type CertificateLimits = { canRequest: boolean; enrollment: { remaining: number; limit: number }; certificate: { remaining: number; limit: number } };

/** CertificateEnrollmentDataResponse: the subject the CSR must carry, exactly. */
export type EnrollmentData = {
  commonName: string;
  countryName: string;
  givenName?: string | null;
  surname?: string | null;
  serialNumber?: string | null;
  uniqueIdentifier?: string | null;
  organizationName?: string | null;
  organizationIdentifier?: string | null;
};

export type EnrollmentStatus = { requestDate: string; status: StatusInfo; certificateSerialNumber?: string | null };

export type RetrievedCertificate = { certificate: string; certificateName: string; certificateSerialNumber: string; certificateType: KsefCertificateType };

/** Codes of a login method that cannot enrol (KSeF token): the seller must connect with a certificate (XAdES). */
export const ENROLMENT_NEEDS_XADES = new Set([25001, 25002]);

export const getCertificateLimits = (client: KsefClient, accessToken: string) =>
  client.http.json<CertificateLimits>({ method: 'GET', path: '/certificates/limits', bearer: accessToken });

export const getEnrollmentData = (client: KsefClient, accessToken: string) =>
  client.http.json<EnrollmentData>({ method: 'GET', path: '/certificates/enrollments/data', bearer: accessToken });

export const enrollCertificate = (
  client: KsefClient,
  accessToken: string,
  request: { certificateName: string; certificateType: KsefCertificateType; csr: string; validFrom?: string },
) =>
  client.http.json<{ referenceNumber: string; timestamp: string }>({ method: 'POST', path: '/certificates/enrollments', bearer: accessToken, json: request });

export const getEnrollmentStatus = (client: KsefClient, accessToken: string, referenceNumber: string) =>
  client.http.json<EnrollmentStatus>({ method: 'GET', path: `/certificates/enrollments/${referenceNumber}`, bearer: accessToken });

export async function retrieveCertificates(client: KsefClient, accessToken: string, serials: string[]): Promise<RetrievedCertificate[]> {
  const res = await client.http.json<{ certificates: RetrievedCertificate[] }>({
    method: 'POST',
    path: '/certificates/retrieve',
    bearer: accessToken,
    json: { certificateSerialNumbers: serials },
  });
  return res.certificates;
}

export async function revokeCertificate(
  client: KsefClient,
  accessToken: string,
  serial: string,
  reason: 'Unspecified' | 'Superseded' | 'KeyCompromise' = 'Superseded',
): Promise<void> {
  await client.http.send({ method: 'POST', path: `/certificates/${serial}/revoke`, bearer: accessToken, json: { revocationReason: reason } });
}
