import { AppError } from '@/server/errors';
import { findUnsafeText } from './safe-text';

export const MAX_BODY_BYTES = 1_000_000;

/** Reads the body as UTF-8 text up to `max` bytes (readBodyBytes); bytes that are not UTF-8 are body_invalid_json. */
export async function readBody(req: Request, max = MAX_BODY_BYTES): Promise<string> {
  return decodeUtf8(await readBodyBytes(req, max));
}

/**
 * Reads the raw body up to `max` bytes. The limit is enforced while streaming: a larger body is cut off
 * as soon as it passes the limit, never buffered whole.
 */
export async function readBodyBytes(req: Request, max = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await req.body?.cancel().catch(() => {});
    throw new AppError('body_too_large');
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new AppError('body_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The bytes as text; bytes that are not UTF-8 are body_invalid_json. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // Bytes that are not UTF-8 would otherwise be stored as U+FFFD, silently changing the seller's data.
    throw new AppError('body_invalid_json', undefined, 'The request body is not valid UTF-8.');
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a JSON object body; an empty body counts as `{}` so that parameter errors name what is missing. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new AppError('body_invalid_json');
  }
  const unsafe = findUnsafeText(body);
  if (unsafe !== undefined) throw new AppError('parameter_invalid', unsafe, `Invalid ${unsafe}: NUL characters and unpaired surrogates are not allowed.`);
  return body;
}
