import { newId } from '@/server/ids';
import { errorObject } from './errors';
import { undecodablePathParam } from './safe-text';

/**
 * A path with a percent-escape that does not decode to text (`/v1/invoices/inv_%ff`, `/%ff`, `/d/%ff`): Next.js
 * cannot match it to a route and would answer a bare 500, so the proxy answers it first with the envelope.
 */
export function undecodablePath(pathname: string): Response | undefined {
  const param = undecodablePathParam(pathname);
  if (param === undefined) return undefined;
  const message = `Invalid ${param}: the path holds a percent-escape that is not UTF-8 text.`;
  return new Response(JSON.stringify({ error: errorObject('parameter_invalid', param, message) }), {
    status: 400,
    headers: { 'Content-Type': 'application/json', 'Request-Id': newId('req'), 'Cache-Control': 'no-store' },
  });
}
