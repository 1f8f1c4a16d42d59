import { z } from 'zod';
import { checkCsr, enrollmentData, issueCertificate } from './certificate-authority';
import { json, readJson, type Ctx } from './context';
import { KsefFailure, fail, newReferenceNumber, type Reply } from './kit';
import type { AuthOperation, CertificateSubject, EmulatorState, Enrollment, StatusInfo } from './state';
import { requireBearer } from './tokens';

/**
 * KSeF certificates (OAS tag "Certyfikaty", certyfikaty-KSeF.md): they belong to the authenticated subject, whatever
 * the context; only a XAdES login has a subject that can enrol (a KSeF-token login gets 25001/25002).
 */

/** Per subject identified by NIP (limity.md): 300 enrolment requests, 100 active certificates. */
const LIMITS = { enrollments: 300, certificates: 100 };
/** The OpenAPI examples span two years; the real validity period is not documented. */
const VALIDITY_MS = 2 * 365 * 86_400_000;
const STATUS_KEPT_MS = 30 * 86_400_000;

const ZName = z
  .string()
  .min(5)
  .max(100)
  .regex(/^[a-zA-Z0-9_\- ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]+$/);
const ZEnroll = z.object({
  certificateName: ZName,
  certificateType: z.enum(['Authentication', 'Offline']),
  csr: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'expected Base64'),
  validFrom: z.iso.datetime({ offset: true }).nullish(),
});
const ZRetrieve = z.object({
  certificateSerialNumbers: z
    .array(z.string().regex(/^[0-9A-F]{16}$/))
    .min(1)
    .max(10),
});
const ZRevoke = z.object({ revocationReason: z.enum(['Unspecified', 'Superseded', 'KeyCompromise']).nullish() }).nullish();

function login(ctx: Ctx): { op: AuthOperation | undefined; nip: string } {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  return { op: ctx.state.auths.get(bearer.authRef), nip: bearer.nip };
}

function enrollingSubject(ctx: Ctx, code: 25001 | 25002): CertificateSubject {
  const { op } = login(ctx);
  if (!op?.subject) {
    throw code === 25001
      ? new KsefFailure(400, 25001, 'Brak możliwości pobrania danych do CSR dla wykorzystanego sposobu uwierzytelnienia.', [
          'Uwierzytelnienie tokenem KSeF nie pozwala na wnioski certyfikacyjne; wymagane uwierzytelnienie podpisem XAdES.',
        ])
      : new KsefFailure(400, 25002, 'Brak możliwości złożenia wniosku certyfikacyjnego dla wykorzystanego sposobu uwierzytelnienia.', [
          'Wymagane uwierzytelnienie podpisem XAdES.',
        ]);
  }
  return op.subject;
}

/** The subject the certificate endpoints act on: the login certificate's NIP, else (token login) the context. */
const ownerNip = (ctx: Ctx) => {
  const { op, nip } = login(ctx);
  return op?.subject?.nip ?? nip;
};

function usage(state: EmulatorState, nip: string) {
  const enrollments = [...state.enrollments.values()].filter((e) => e.ownerNip === nip).length;
  const active = [...state.certificates.values()].filter((c) => c.ownerNip === nip && c.status === 'Active' && c.validTo.getTime() > Date.now()).length;
  return { enrollments, active };
}

export function certificateLimits(ctx: Ctx): Reply {
  const { enrollments, active } = usage(ctx.state, ownerNip(ctx));
  const enrollment = { remaining: Math.max(0, LIMITS.enrollments - enrollments), limit: LIMITS.enrollments };
  const certificate = { remaining: Math.max(0, LIMITS.certificates - active), limit: LIMITS.certificates };
  return json(200, { canRequest: enrollment.remaining > 0 && certificate.remaining > 0, enrollment, certificate });
}

export function enrollmentDataHandler(ctx: Ctx): Reply {
  return json(200, enrollmentData(enrollingSubject(ctx, 25001)));
}

export async function enroll(ctx: Ctx): Promise<Reply> {
  const subject = enrollingSubject(ctx, 25002);
  const body = readJson(ctx, ZEnroll);
  const { enrollments, active } = usage(ctx.state, subject.nip);
  if (enrollments >= LIMITS.enrollments) throw new KsefFailure(400, 25006, 'Osiągnięto limit możliwych do złożenia wniosków certyfikacyjnych.');
  if (active >= LIMITS.certificates) throw new KsefFailure(400, 25007, 'Osiągnięto limit dopuszczalnej liczby posiadanych certyfikatów.');
  const csr = await checkCsr(body.csr, subject);
  const now = new Date();
  const enrollment: Enrollment = {
    referenceNumber: newReferenceNumber('EH', now),
    ownerNip: subject.nip,
    requestDate: now,
    readyAt: Date.now() + ctx.state.processingDelayMs,
    final: { code: 200, description: 'Wniosek obsłużony (certyfikat wygenerowany)' },
  };
  const publicKey = Buffer.from(csr.publicKey.rawData).toString('base64');
  const certifiedElsewhere = [...ctx.state.certificates.values()].some((c) => c.ownerNip !== subject.nip && c.publicKey === publicKey);
  if (certifiedElsewhere) {
    enrollment.final = { code: 400, description: 'Wniosek odrzucony', details: ['Klucz publiczny został już certyfikowany przez inny podmiot.'] };
  } else {
    const validFrom = body.validFrom ? new Date(body.validFrom) : now;
    const issued = await issueCertificate(csr, body.certificateType, validFrom, new Date(validFrom.getTime() + VALIDITY_MS));
    enrollment.serialNumber = issued.serialNumber;
    ctx.state.certificates.set(issued.serialNumber, {
      serialNumber: issued.serialNumber,
      name: body.certificateName,
      type: body.certificateType,
      ownerNip: subject.nip,
      commonName: enrollmentData(subject).commonName ?? '',
      der: issued.der,
      publicKey,
      validFrom,
      validTo: new Date(validFrom.getTime() + VALIDITY_MS),
      requestDate: now,
      status: 'Active',
    });
  }
  ctx.state.enrollments.set(enrollment.referenceNumber, enrollment);
  return json(202, { referenceNumber: enrollment.referenceNumber, timestamp: now.toISOString() });
}

export function enrollmentStatus(ctx: Ctx): Reply {
  const nip = ownerNip(ctx);
  const ref = ctx.params.ref ?? '';
  const found = ctx.state.enrollments.get(ref);
  if (!found || found.ownerNip !== nip) throw new KsefFailure(400, 25005, 'Wniosek certyfikacyjny o podanym numerze referencyjnym nie istnieje.', [ref]);
  if (Date.now() - found.requestDate.getTime() > STATUS_KEPT_MS) throw fail.gone(`Status wniosku ${ref} nie jest już dostępny.`);
  const ready = Date.now() >= found.readyAt;
  const status: StatusInfo = ready ? found.final : { code: 100, description: 'Wniosek przyjęty do realizacji' };
  return json(200, {
    requestDate: found.requestDate.toISOString(),
    status,
    ...(ready && found.serialNumber ? { certificateSerialNumber: found.serialNumber } : {}),
  });
}

/** The subject's own certificates only; serials of others are left out like unknown ones. */
export function retrieveCertificates(ctx: Ctx): Reply {
  const nip = ownerNip(ctx);
  const body = readJson(ctx, ZRetrieve);
  const issued = new Set([...ctx.state.enrollments.values()].filter((e) => e.serialNumber && Date.now() >= e.readyAt).map((e) => e.serialNumber));
  const certificates = body.certificateSerialNumbers
    .flatMap((serial) => {
      const c = ctx.state.certificates.get(serial);
      return c && c.ownerNip === nip && issued.has(serial) ? [c] : [];
    })
    .map((c) => ({ certificate: c.der.toString('base64'), certificateName: c.name, certificateSerialNumber: c.serialNumber, certificateType: c.type }));
  return json(200, { certificates });
}

/** POST /certificates/{serial}/revoke: final; a KSeF-token login cannot revoke (certyfikaty-KSeF.md). */
export function revokeCertificate(ctx: Ctx): Reply {
  const subject = enrollingSubject(ctx, 25002);
  readJson(ctx, ZRevoke);
  const serial = ctx.params.serial ?? '';
  const cert = ctx.state.certificates.get(serial);
  if (!cert || cert.ownerNip !== subject.nip) throw new KsefFailure(400, 25008, 'Nie znaleziono certyfikatu.', [serial]);
  if (cert.status !== 'Active') throw new KsefFailure(400, 25009, 'Certyfikat jest już unieważniony lub zablokowany.', [serial]);
  cert.status = 'Revoked';
  return { status: 204 };
}
