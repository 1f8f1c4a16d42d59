import type { Mode } from '../db/schema';

/** The dashboard's test/live switch lives in this cookie; anything but `live` is test mode. */
export const MODE_COOKIE = 'kr_mode';

export function readMode(cookieHeader: string | null | undefined): Mode {
  const match = /(?:^|;\s*)kr_mode=(test|live)(?:;|$)/.exec(cookieHeader ?? '');
  return match?.[1] === 'live' ? 'live' : 'test';
}
