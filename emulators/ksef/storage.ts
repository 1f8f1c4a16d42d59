import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EmulatorState } from './state';

/**
 * Pre-signed links (UPO downloads, batch part uploads) work without Authorization, like KSeF's blob URLs:
 * the path and expiry are signed with the emulator's secret.
 */
export function presign(state: EmulatorState, origin: string, path: string, ttlMs: number): { url: string; expires: Date } {
  const expires = new Date(Date.now() + ttlMs);
  const se = String(expires.getTime());
  const sig = createHmac('sha256', state.secret).update(`${path}|${se}`).digest('base64url');
  return { url: `${origin}${path}?se=${se}&sig=${sig}`, expires };
}

export function checkPresigned(state: EmulatorState, path: string, query: URLSearchParams): boolean {
  const se = query.get('se') ?? '';
  const sig = Buffer.from(query.get('sig') ?? '');
  const want = Buffer.from(createHmac('sha256', state.secret).update(`${path}|${se}`).digest('base64url'));
  return sig.length === want.length && timingSafeEqual(sig, want) && Number(se) > Date.now();
}
