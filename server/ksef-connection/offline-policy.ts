import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { accountModes } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { offlineCertificateState } from './offline-certificate';

/**
 * "Issue offline when KSeF is not answering" per account mode: off (default); when_unavailable, after the
 * document could not be sent for `delaySeconds`; always (offline-first: the buyer gets the invoice at once).
 */
export type OfflinePolicy = { policy: 'off' | 'when_unavailable' | 'always'; delaySeconds: number };

export const DELAY_LIMITS = { min: 1, max: 6 * 3600 } as const;

/** The account_modes columns of the policy, for reads that take more of the row. */
export const OFFLINE_POLICY_COLUMNS = { policy: accountModes.offlinePolicy, delaySeconds: accountModes.offlineDelaySeconds };
/** What a scope without an account mode row has. */
export const NO_OFFLINE_POLICY: OfflinePolicy = { policy: 'off', delaySeconds: 300 };

export async function getOfflinePolicy(db: DbOrTx, scope: Scope): Promise<OfflinePolicy> {
  const [row] = await db.select(OFFLINE_POLICY_COLUMNS).from(accountModes).where(inScope(accountModes, scope));
  return row ?? NO_OFFLINE_POLICY;
}

/** Turning it on needs a valid KSeF Offline certificate (KOD II cannot be signed otherwise); the error says why. */
export async function setOfflinePolicy(db: DbOrTx, scope: Scope, next: OfflinePolicy, now = new Date()): Promise<void> {
  if (!Number.isInteger(next.delaySeconds) || next.delaySeconds < DELAY_LIMITS.min || next.delaySeconds > DELAY_LIMITS.max) {
    throw AppError.detailed('parameter_invalid', 'delay_seconds', 'offline_delay_range', DELAY_LIMITS);
  }
  if (next.policy !== 'off') {
    const [row] = await db.select().from(accountModes).where(inScope(accountModes, scope));
    const state = row ? offlineCertificateState(row, now) : { state: 'missing' as const, reason: 'No such account mode.' };
    if (state.state === 'missing') throw AppError.detailed('parameter_invalid', 'policy', 'offline_certificate_missing');
    if (state.state === 'expired' || state.state === 'not_yet_valid') {
      const date = (state.state === 'expired' ? state.validTo : state.validFrom).toISOString();
      throw AppError.detailed('parameter_invalid', 'policy', `offline_certificate_${state.state}`, { serial: state.serial, date });
    }
  }
  await db
    .update(accountModes)
    .set({ offlinePolicy: next.policy, offlineDelaySeconds: next.delaySeconds, updatedAt: new Date() })
    .where(inScope(accountModes, scope));
}
