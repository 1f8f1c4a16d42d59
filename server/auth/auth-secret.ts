import 'server-only';
import { createHmac } from 'node:crypto';
import { config } from '@/server/config';

/** next-auth's JWT secret, derived from APP_SECRET so an operator manages one secret, not two. */
export function deriveAuthSecret(): string {
  const appSecret = config().APP_SECRET;
  if (!appSecret) throw new Error('APP_SECRET is not set: dashboard sessions need it');
  return createHmac('sha256', appSecret).update('next-auth session key').digest('base64url');
}
