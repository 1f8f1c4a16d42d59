import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Mode } from '../db/schema';
import { AppError } from '../errors';
import { isPublicAddress } from './public-address';

/** Every address a host name resolves to; tests swap it to play a DNS answer. */
export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveHost: ResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** `[::1]` in a URL is `::1` to the resolver. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

const invalidUrl = (message: string) => new AppError('parameter_invalid', 'url', message);

/**
 * The receiver URL of spec 4.8: absolute, https in live mode (http also in test mode), no credentials in it.
 * Live mode also refuses hosts that resolve to a non-public address (issue 8.4), so that an API key cannot make
 * the service call its own network; delivery checks again against the address it actually connects to.
 */
export async function checkEndpointUrl(raw: string, mode: Mode, resolve: ResolveHost = resolveHost): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('`url` must be an absolute URL.');
  }
  const allowed = mode === 'live' ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) throw invalidUrl(mode === 'live' ? 'Live-mode endpoints must use https.' : '`url` must use http or https.');
  if (url.username || url.password) throw invalidUrl('`url` must not contain credentials.');
  if (mode === 'live') await checkPublicHost(bareHost(url), resolve);
  return url;
}

async function checkPublicHost(host: string, resolve: ResolveHost): Promise<void> {
  const addresses = isIP(host) ? [host] : await resolve(host).catch(() => []);
  if (addresses.length === 0) throw invalidUrl(`The host ${host} does not resolve.`);
  const blocked = addresses.find((a) => !isPublicAddress(a));
  if (blocked !== undefined) throw invalidUrl(`The host ${host} resolves to ${blocked}, which is not a public address.`);
}
