import { Server, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { newId } from '@/server/ids';
import { errorObject } from './errors';

/**
 * Answers that Next.js or Node write without our route code (OPTIONS, trailing-slash and `//` redirects, pages, a
 * method a route file does not export) get a Request-Id like every other answer: when the headers go out without
 * one, one is added. A route that set its own (the /v1 pipeline, the store hook, for its access line) keeps it. The
 * cost is one header lookup per answer; the proxy, which could add it too, runs only for rare paths because of what
 * it costs on every request (proxy.ts).
 *
 * A request line Node's parser refuses (raw bytes ≥ 0x80 or control characters in the path, a broken header) never
 * reaches Next.js: Node would write a bare `400 Bad Request`. It gets the envelope and a Request-Id instead.
 */
export function addRequestIdToEveryAnswer(): void {
  const proto = ServerResponse.prototype as ServerResponse & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const writeHead = proto.writeHead;
  proto.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.hasHeader('request-id') && !namesRequestId(args.find((a) => typeof a === 'object' && a !== null))) this.setHeader('Request-Id', newId('req'));
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof proto.writeHead;

  const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'clientError' && this.listenerCount('clientError') === 0) {
      const [err, socket] = args as [NodeJS.ErrnoException, Socket];
      if (answerUnparsable(err, socket)) return true;
    }
    return emit.call(this, event, ...args);
  } as typeof Server.prototype.emit;
}

const INSTALLED = Symbol.for('ksef-relay.request-id-on-every-answer');

function namesRequestId(headers: unknown): boolean {
  if (Array.isArray(headers)) return headers.some((h, i) => i % 2 === 0 && String(h).toLowerCase() === 'request-id');
  return Object.keys((headers ?? {}) as OutgoingHttpHeaders).some((k) => k.toLowerCase() === 'request-id');
}

/**
 * A request Node's parser refused (llhttp's `HPE_*` codes): 400 with the envelope, naming the path when the request
 * line was at fault. Oversized headers and time-outs keep Node's own answers (431, 408).
 */
function answerUnparsable(err: NodeJS.ErrnoException, socket: Socket): boolean {
  const code = err.code ?? '';
  if (!code.startsWith('HPE_') || code === 'HPE_HEADER_OVERFLOW' || !socket.writable) return false;
  const inPath = code === 'HPE_INVALID_URL';
  const body = JSON.stringify({
    error: inPath
      ? errorObject('parameter_invalid', 'path', 'Invalid path: it holds bytes that are not allowed in a URL; percent-encode them.')
      : errorObject('parameter_invalid', undefined, `The request is not valid HTTP/1.1 (${code}).`),
  });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nRequest-Id: ${newId('req')}\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  return true;
}
