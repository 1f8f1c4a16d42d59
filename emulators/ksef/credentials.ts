import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { json, readJson, type Ctx } from './context';
import { fail, newReferenceNumber, type Reply } from './kit';
import type { EmulatorState, KsefToken } from './state';
import { requireBearer } from './tokens';

const PERMISSIONS = ['InvoiceRead', 'InvoiceWrite', 'CredentialsRead', 'CredentialsManage', 'SubunitManage', 'EnforcementOperations', 'Introspection'] as const;

const ZGenerateToken = z.object({ permissions: z.array(z.enum(PERMISSIONS)).min(1), description: z.string().min(5).max(256) });

/**
 * Tokens issued until 31.12.2026 are announced to stop working on 30.11.2027 (00:00 in Warsaw) (KSeF API changelog,
 * 2026). Later tokens get a lifetime from a token endpoint announced for 2027; until it is published, only the control
 * endpoint gives one (`validTo`).
 */
const END_OF_2026_TOKENS = new Date('2027-11-29T23:00:00Z');
const endOf = (issued: Date): Date | null => (issued.getTime() < Date.parse('2026-12-31T23:00:00Z') ? END_OF_2026_TOKENS : null);

/** KSeF tokens look like `20251010-EC-…|nip-5265877635|<hex>` and carry `|` themselves (README §5.2). */
export function createKsefToken(
  state: EmulatorState,
  nip: string,
  permissions: string[],
  description: string,
  opts: { issuedAt?: Date; validTo?: Date | null } = {},
): KsefToken {
  const issuedAt = opts.issuedAt ?? new Date();
  const referenceNumber = newReferenceNumber('EC', issuedAt);
  const token: KsefToken = {
    token: `${referenceNumber}|nip-${nip}|${randomBytes(32).toString('hex')}`,
    referenceNumber,
    nip,
    permissions,
    description,
    dateCreated: issuedAt,
    status: 'Active',
    validTo: opts.validTo === undefined ? endOf(issuedAt) : opts.validTo,
  };
  state.ksefTokens.set(token.token, token);
  state.tokenByReference.set(referenceNumber, token);
  return token;
}

/** POST /tokens (access token of the context): a new KSeF token for that context, active at once. */
export function generateToken(ctx: Ctx): Reply {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const body = readJson(ctx, ZGenerateToken);
  const token = createKsefToken(ctx.state, bearer.nip, body.permissions, body.description);
  return json(202, { referenceNumber: token.referenceNumber, token: token.token });
}

function ownToken(ctx: Ctx): KsefToken {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const token = ctx.state.tokenByReference.get(ctx.params.ref ?? '');
  if (!token || token.nip !== bearer.nip) throw fail.validation([`Token ${ctx.params.ref} nie istnieje.`]);
  return token;
}

export function tokenStatus(ctx: Ctx): Reply {
  const token = ownToken(ctx);
  return json(200, {
    referenceNumber: token.referenceNumber,
    authorIdentifier: { type: 'Nip', value: token.nip },
    contextIdentifier: { type: 'Nip', value: token.nip },
    description: token.description,
    requestedPermissions: token.permissions,
    dateCreated: token.dateCreated.toISOString(),
    lastUseDate: token.lastUseDate?.toISOString() ?? null,
    status: token.status,
    statusDetails: [],
  });
}

export function revokeToken(ctx: Ctx): Reply {
  ownToken(ctx).status = 'Revoked';
  return { status: 204 };
}

const ZContextBlock = z.object({ contextIdentifier: z.object({ type: z.string(), value: z.string() }) });

/** POST /testdata/context/block|unblock: authentication in that context ends with 480 (README §12). */
export function blockContext(block: boolean) {
  return (ctx: Ctx): Reply => {
    const body = readJson(ctx, ZContextBlock);
    if (block) ctx.state.blockedContexts.add(body.contextIdentifier.value);
    else ctx.state.blockedContexts.delete(body.contextIdentifier.value);
    return { status: 200 };
  };
}

/** Test-data calls the emulator accepts without effect: every NIP context is usable with a self-signed certificate anyway. */
export const acceptTestData = (ctx: Ctx): Reply => {
  readJson(ctx, z.record(z.string(), z.unknown()));
  return { status: 200 };
};
