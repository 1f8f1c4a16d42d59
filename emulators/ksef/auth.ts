import { z } from 'zod';
import { decryptRsaOaep } from '@/server/ksef/crypto';
import { certificateSubject } from './certificate-authority';
import { json, readJson, type Ctx } from './context';
import { fail, KsefFailure, newReferenceNumber } from './kit';
import { nipExists } from './nip';
import type { AuthMethod, AuthOperation, EmulatorState, StatusInfo } from './state';
import { issueBearer, requireBearer } from './tokens';
import { verifyAuthTokenRequest } from './xades-verify';

const ZBase64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected Base64');

const ZInitTokenAuthentication = z.object({
  challenge: z.string().length(36),
  contextIdentifier: z.object({ type: z.enum(['Nip', 'InternalId', 'NipVatUe', 'PeppolId']), value: z.string() }),
  encryptedToken: ZBase64.min(1),
  publicKeyId: z.string().length(44).nullish(),
  authorizationPolicy: z.unknown().optional(),
});

const STATUS = {
  inProgress: { code: 100, description: 'Uwierzytelnianie w toku' },
  ok: { code: 200, description: 'Uwierzytelnianie zakończone sukcesem' },
  noPermissions: (detail: string): StatusInfo => ({
    code: 415,
    description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu braku nadanych uprawnień',
    details: [detail],
  }),
  badToken: (detail: string): StatusInfo => ({
    code: 450,
    description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu',
    details: [detail],
  }),
  blocked: {
    code: 480,
    description: 'Uwierzytelnienie zablokowane',
    details: ['Podejrzenie incydentu bezpieczeństwa. Skontaktuj się z Ministerstwem Finansów.'],
  } as StatusInfo,
} as const;

export function challenge(ctx: Ctx) {
  const now = new Date();
  const challengeNumber = newReferenceNumber('CR', now);
  ctx.state.challenges.set(challengeNumber, { timestampMs: now.getTime(), used: false });
  return json(200, { challenge: challengeNumber, timestamp: now.toISOString(), timestampMs: now.getTime(), clientIp: ctx.ip });
}

/** Unknown or reused challenges are refused at once (21111); an expired one fails the operation later (450). */
function takeChallenge(state: EmulatorState, value: string) {
  const found = state.challenges.get(value);
  if (!found || found.used) throw fail.challenge(found ? 'Wyzwanie zostało już użyte.' : 'Wyzwanie nie istnieje.');
  found.used = true;
  return { ...found, expired: Date.now() - found.timestampMs > state.lifetimes.challengeMs };
}

function startOperation(ctx: Ctx, nip: string, method: AuthMethod, final: StatusInfo, extra: Partial<AuthOperation>) {
  const state = ctx.state;
  const referenceNumber = newReferenceNumber('AU');
  state.auths.set(referenceNumber, {
    referenceNumber,
    nip,
    startDate: new Date(),
    method,
    final: state.blockedContexts.has(nip) ? STATUS.blocked : final,
    readyAt: Date.now() + state.processingDelayMs,
    redeemed: false,
    ...extra,
  });
  const authenticationToken = issueBearer(state, 'authentication', referenceNumber, nip, state.lifetimes.authenticationMs);
  return json(202, { referenceNumber, authenticationToken });
}

export function ksefTokenAuth(ctx: Ctx) {
  const body = readJson(ctx, ZInitTokenAuthentication);
  const key = ctx.state.keys.KsefTokenEncryption;
  if (body.publicKeyId && body.publicKeyId !== key.publicKeyId) throw fail.publicKey(body.publicKeyId);
  if (body.contextIdentifier.type !== 'Nip') throw fail.validation(['contextIdentifier.type: emulator obsługuje tylko kontekst Nip.']);
  if (!nipExists(body.contextIdentifier.value))
    throw fail.validation([`contextIdentifier.value: ${body.contextIdentifier.value} nie jest poprawnym numerem NIP (suma kontrolna).`]);
  const challengeInfo = takeChallenge(ctx.state, body.challenge);
  const nip = body.contextIdentifier.value;
  let final: StatusInfo = STATUS.ok;
  let tokenReference: string | undefined;
  let plain = '';
  try {
    plain = decryptRsaOaep(key.privateKey, Buffer.from(body.encryptedToken, 'base64')).toString('utf8');
  } catch {
    final = STATUS.badToken('Nieprawidłowy token.');
  }
  if (final === STATUS.ok) {
    const cut = plain.lastIndexOf('|');
    const token = ctx.state.ksefTokens.get(plain.slice(0, cut));
    if (challengeInfo.expired) final = STATUS.badToken('Nieprawidłowe wyzwanie autoryzacyjne.');
    else if (cut < 0 || Number(plain.slice(cut + 1)) !== challengeInfo.timestampMs) final = STATUS.badToken('Nieprawidłowy czas tokena.');
    else if (!token) final = STATUS.badToken('Nieprawidłowy token.');
    else if (token.status === 'Revoked') final = STATUS.badToken('Token unieważniony.');
    else if (token.validTo && token.validTo.getTime() <= Date.now()) final = STATUS.badToken('Token wygasł.');
    else if (token.nip !== nip) final = STATUS.noPermissions(`Token nie ma uprawnień w kontekście ${nip}.`);
    else {
      token.lastUseDate = new Date();
      tokenReference = token.referenceNumber;
    }
  }
  return startOperation(ctx, nip, { method: 'Token', category: 'Token', displayName: 'Token KSeF' }, final, { ksefTokenReference: tokenReference });
}

export function xadesAuth(ctx: Ctx) {
  const verified = verifyAuthTokenRequest(ctx.body.toString('utf8'));
  // KSeF's code for a context identifier that does not fit its type (README §5.3)
  if (!nipExists(verified.contextNip))
    throw new KsefFailure(400, 21117, 'Nieprawidłowy identyfikator podmiotu dla wskazanego typu kontekstu.', [
      `${verified.contextNip} nie jest poprawnym numerem NIP (suma kontrolna).`,
    ]);
  const challengeInfo = takeChallenge(ctx.state, verified.challenge);
  let final: StatusInfo = STATUS.ok;
  if (challengeInfo.expired) final = STATUS.badToken('Nieprawidłowe wyzwanie autoryzacyjne.');
  else if (verified.subjectNip !== verified.contextNip) {
    final = STATUS.noPermissions(`Podmiot certyfikatu (${verified.subjectNip ?? 'brak NIP'}) nie ma uprawnień w kontekście ${verified.contextNip}.`);
  }
  const method: AuthMethod = verified.organisation
    ? { method: 'QualifiedSeal', category: 'XadesSignature', displayName: 'Pieczęć kwalifikowana' }
    : { method: 'QualifiedSignature', category: 'XadesSignature', displayName: 'Podpis kwalifikowany' };
  const subject = verified.subjectNip ? certificateSubject(verified.certificateDer, verified.subjectNip) : undefined;
  return startOperation(ctx, verified.contextNip, method, final, { documentDigest: verified.documentDigest, subject });
}

function currentStatus(op: AuthOperation): StatusInfo {
  return Date.now() >= op.readyAt ? op.final : STATUS.inProgress;
}

function ownOperation(ctx: Ctx, ref: string): AuthOperation {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'authentication');
  const op = ctx.state.auths.get(ref);
  if (!op || bearer.authRef !== ref) throw fail.authUnknown(ref);
  return op;
}

export function authStatus(ctx: Ctx) {
  const op = ownOperation(ctx, ctx.params.ref ?? '');
  return json(200, {
    startDate: op.startDate.toISOString(),
    authenticationMethod: op.method.method,
    authenticationMethodInfo: {
      category: op.method.category,
      code: op.method.method === 'Token' ? 'token.ksef' : 'certificate',
      displayName: op.method.displayName,
    },
    status: currentStatus(op),
    isTokenRedeemed: op.redeemed,
    lastTokenRefreshDate: op.lastRefresh?.toISOString() ?? null,
    refreshTokenValidUntil: op.refreshValidUntil?.toISOString() ?? null,
  });
}

export function redeem(ctx: Ctx) {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'authentication');
  const op = ctx.state.auths.get(bearer.authRef);
  if (!op) throw fail.authUnknown(bearer.authRef);
  if (op.redeemed) throw fail.redeemed('Tokeny zostały już pobrane.');
  if (currentStatus(op).code !== 200) throw fail.redeemed(`Status uwierzytelnienia (${currentStatus(op).code}) nie pozwala na pobranie tokenów.`);
  op.redeemed = true;
  const { lifetimes } = ctx.state;
  op.refreshValidUntil = new Date(Date.now() + lifetimes.refreshMs);
  return json(200, {
    accessToken: issueBearer(ctx.state, 'access', op.referenceNumber, op.nip, lifetimes.accessMs),
    refreshToken: issueBearer(ctx.state, 'refresh', op.referenceNumber, op.nip, lifetimes.refreshMs),
  });
}

export function refresh(ctx: Ctx) {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'refresh');
  const op = ctx.state.auths.get(bearer.authRef);
  if (op) op.lastRefresh = new Date();
  return json(200, { accessToken: issueBearer(ctx.state, 'access', bearer.authRef, bearer.nip, ctx.state.lifetimes.accessMs) });
}
