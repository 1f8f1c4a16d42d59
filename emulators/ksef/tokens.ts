import { createHmac } from 'node:crypto';
import type { Bearer, BearerKind, EmulatorState } from './state';
import { fail } from './kit';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** HS256 JWTs shaped like KSeF's (README §5.7); the emulator still looks them up, so revocation is immediate. */
export function issueBearer(state: EmulatorState, kind: BearerKind, authRef: string, nip: string, lifetimeMs: number): { token: string; validUntil: string } {
  const validUntil = Date.now() + lifetimeMs;
  const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({
    'token-type': kind === 'authentication' ? 'OperationToken' : kind === 'access' ? 'ContextToken' : 'RefreshToken',
    'context-identifier-type': 'Nip',
    'context-identifier-value': nip,
    'operation-reference-number': authRef,
    exp: Math.floor(validUntil / 1000),
    jti: Math.random().toString(36).slice(2),
  })}`;
  const token = `${head}.${createHmac('sha256', state.secret).update(head).digest('base64url')}`;
  state.bearers.set(token, { kind, authRef, nip, validUntil });
  return { token, validUntil: new Date(validUntil).toISOString() };
}

export function requireBearer(state: EmulatorState, header: string | undefined, kind: BearerKind): Bearer {
  const token = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();
  if (!token) throw fail.unauthorized('Brak tokenu uwierzytelniającego.');
  const bearer = state.bearers.get(token);
  if (!bearer || bearer.kind !== kind) throw fail.unauthorized(`Nieprawidłowy token (oczekiwano: ${kind}).`);
  if (bearer.validUntil <= Date.now()) throw fail.unauthorized('Token wygasł.');
  return bearer;
}
