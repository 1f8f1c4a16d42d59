import { z } from 'zod';
import { json, readJson, type Ctx } from './context';
import { createKsefToken } from './credentials';
import { FAULT_KINDS, setFaults } from './faults';
import type { Reply } from './kit';
import { createLimitsState } from './limits';
import { createTestCertificate } from './self-signed-certificate';

/** Control endpoints outside the KSeF API (README.md of the emulator): test credentials, faults, limits, counters. */
const ZCredentials = z.object({
  nip: z.string().regex(/^\d{10}$/),
  description: z.string().min(5).max(256).optional(),
  /** issue day (its reference number's date) and end; by default today, and 30.11.2027 for tokens issued in 2026 */
  issuedAt: z.iso.datetime().optional(),
  validTo: z.iso.datetime().nullable().optional(),
});
const ZCertificateCredentials = z.object({ nip: z.string().regex(/^\d{10}$/), kind: z.enum(['seal', 'person']).optional() });

export const ZFaultRule = z.object({
  endpoint: z.string().min(1),
  kind: z.enum(FAULT_KINDS),
  probability: z.number().min(0).max(1).optional(),
  times: z.number().int().min(1).optional(),
  latencyMs: z.number().int().min(0).optional(),
  // 5xx for 'error5xx'; any error status for 'exception'
  status: z.number().int().min(400).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  rejectCode: z.number().int().optional(),
  rejectDetail: z.string().optional(),
  stuckSeconds: z.number().min(0).optional(),
  exceptionCode: z.number().int().positive().optional(),
  exceptionDescription: z.string().optional(),
  // KSeF folds its warnings to ASCII; an HTTP header could not carry more anyway
  warning: z
    .string()
    .regex(/^[\x20-\x7e]+$/)
    .optional(),
});
const ZFaults = z.object({ rules: z.array(ZFaultRule), seed: z.number().int().optional() });
const ZLimits = z.object({ mode: z.enum(['test', 'prod', 'off']) });
const ZProcessing = z.object({ delayMs: z.number().int().min(0) });
const ZLifetimes = z.object({
  accessSeconds: z.number().positive().optional(),
  refreshSeconds: z.number().positive().optional(),
  challengeSeconds: z.number().positive().optional(),
});

export function createCredentials(ctx: Ctx): Reply {
  const body = readJson(ctx, ZCredentials);
  const token = createKsefToken(ctx.state, body.nip, ['InvoiceRead', 'InvoiceWrite', 'CredentialsManage'], body.description ?? 'KSeF Relay emulator token', {
    issuedAt: body.issuedAt ? new Date(body.issuedAt) : undefined,
    validTo: body.validTo === undefined ? undefined : body.validTo === null ? null : new Date(body.validTo),
  });
  return json(201, { nip: body.nip, token: token.token, referenceNumber: token.referenceNumber, validTo: token.validTo?.toISOString() ?? null });
}

/**
 * A test certificate of the NIP, as anyone may make for the real test environment, which accepts self-signed
 * certificates (README §5.3): a company seal by default. It logs in with a XAdES signature, the login that certificate
 * enrolment requires (a KSeF-token login gets 25001/25002), so an Offline certificate can be enrolled with it.
 */
export async function createCertificateCredentials(ctx: Ctx): Promise<Reply> {
  const body = readJson(ctx, ZCertificateCredentials);
  const cert = await createTestCertificate({ nip: body.nip, kind: body.kind });
  return json(201, { nip: body.nip, certificatePem: cert.certificatePem, privateKeyPem: cert.privateKeyPem });
}

export function putFaults(ctx: Ctx): Reply {
  const body = readJson(ctx, ZFaults);
  setFaults(ctx.state.faults, body.rules, body.seed);
  return json(200, { rules: body.rules.length });
}

export function clearFaults(ctx: Ctx): Reply {
  setFaults(ctx.state.faults, []);
  return { status: 204 };
}

export function putLimits(ctx: Ctx): Reply {
  ctx.state.limits = createLimitsState(readJson(ctx, ZLimits).mode);
  return json(200, { mode: ctx.state.limits.mode });
}

export function putProcessing(ctx: Ctx): Reply {
  ctx.state.processingDelayMs = readJson(ctx, ZProcessing).delayMs;
  return json(200, { delayMs: ctx.state.processingDelayMs });
}

export function putLifetimes(ctx: Ctx): Reply {
  const body = readJson(ctx, ZLifetimes);
  const l = ctx.state.lifetimes;
  if (body.accessSeconds) l.accessMs = body.accessSeconds * 1000;
  if (body.refreshSeconds) l.refreshMs = body.refreshSeconds * 1000;
  if (body.challengeSeconds) l.challengeMs = body.challengeSeconds * 1000;
  return json(200, { accessSeconds: l.accessMs / 1000, refreshSeconds: l.refreshMs / 1000, challengeSeconds: l.challengeMs / 1000 });
}

export function getCounters(ctx: Ctx): Reply {
  const c = ctx.state.counters;
  return json(200, {
    requests: Object.fromEntries(c.requests),
    rateLimited: c.rateLimited,
    faults: Object.fromEntries(c.faults),
    invoices: {
      byNumber: Object.fromEntries(c.invoiceNumbers),
      byHash: Object.fromEntries(c.invoiceHashes),
      accepted: c.accepted,
      rejected: c.rejected,
    },
  });
}
