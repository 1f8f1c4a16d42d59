import { config } from '@/server/config';
import { randomToken } from '@/server/ids';
import { seal, unseal } from '@/server/security/seal';

/** 256 random bits (the issue asks for at least 192) in base62 after the `whsec_` prefix. */
export const newWebhookSecret = (): string => `whsec_${randomToken(256)}`;

function appSecret(): string {
  const secret = config().APP_SECRET;
  if (!secret) throw new Error('APP_SECRET is not set: it encrypts webhook secrets at rest');
  return secret;
}

/** Webhook secrets are kept sealed (invariant 6) and unsealed only to sign a delivery. */
export const sealWebhookSecret = (secret: string): string => seal(secret, appSecret());
export const unsealWebhookSecret = (sealed: string): string => unseal(sealed, appSecret());
