import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { config } from '@/server/config';
import type { Mode } from '@/server/db/schema';
import { AppError, type ErrorDetail } from '@/server/errors';
import { isPublicAddress } from './public-address';

/** Every address a host name resolves to; tests swap it to play a DNS answer. */
export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveHost: ResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** `[::1]` in a URL is `::1` to the resolver. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

const invalidUrl = (detail: ErrorDetail) => AppError.detailed('parameter_invalid', 'url', detail);

/**
 * The one policy for outgoing URLs (webhook receivers and store URLs): whether a mode may reach private, loopback or
 * link-local addresses. Only test mode, and only where ALLOW_PRIVATE_TARGETS=1: the local stack sets it (DESIGN.md
 * "Processes": a developer's emulators and receiver live on loopback); production commands leave it to the operator.
 */
export const privateTargetsAllowed = (mode: Mode): boolean => mode === 'test' && config().ALLOW_PRIVATE_TARGETS === '1';

/**
 * The receiver URL of spec 4.8: absolute, https in live mode (http also in test mode), no credentials in it.
 * Hosts that resolve to a non-public address are refused (issue 8.4, 18.7), so that an API key cannot make the
 * service call its own network; delivery checks again against the address it actually connects to.
 */
export async function checkEndpointUrl(raw: string, mode: Mode, resolve: ResolveHost = resolveHost, o: { allowPrivate?: boolean } = {}): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('url_not_absolute');
  }
  const allowed = mode === 'live' ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) throw invalidUrl(mode === 'live' ? 'url_live_https' : 'url_scheme');
  if (url.username || url.password) throw invalidUrl('url_credentials');
  const allowPrivate = mode === 'test' && (o.allowPrivate ?? privateTargetsAllowed(mode));
  if (!allowPrivate) await checkPublicHost(bareHost(url), mode, resolve);
  return url;
}

/**
 * A host that does not resolve yet (a receiver set up before its DNS record) is accepted: every delivery resolves
 * again and refuses non-public addresses then, so nothing unsafe is reached. What resolves now must be public.
 */
async function checkPublicHost(host: string, mode: Mode, resolve: ResolveHost): Promise<void> {
  const addresses = isIP(host) ? [host] : await resolve(host).catch((): string[] => []);
  const blocked = addresses.find((a) => !isPublicAddress(a));
  if (blocked === undefined) return;
  throw AppError.detailed('url_not_public', 'url', mode === 'live' ? 'url_not_public_live' : 'url_not_public_test', { host, address: blocked });
}
