const YEAR = 365 * 24 * 3600;

/** The dashboard's preference cookies (mode, language, account): readable by the server on the next render. */
export function writePreference(name: 'kr_mode' | 'kr_lang' | 'kr_account', value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${YEAR}; samesite=lax`;
}
