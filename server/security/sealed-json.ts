import { config } from '@/server/config';
import { seal, unseal } from './seal';

function appSecret(): string {
  const secret = config().APP_SECRET;
  if (!secret) throw new Error('APP_SECRET is not set: it encrypts KSeF credentials and webhook secrets');
  return secret;
}

/** JSON sealed with APP_SECRET (invariant 6). */
export const sealJson = (value: unknown): string => seal(JSON.stringify(value), appSecret());
export const unsealJson = <T>(sealed: string): T => JSON.parse(unseal(sealed, appSecret())) as T;
