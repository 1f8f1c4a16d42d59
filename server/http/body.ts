import { AppError } from '../errors';

export const MAX_BODY_BYTES = 1_000_000;

/**
 * Reads the body up to `max` bytes. The limit is enforced while streaming: a larger body is cut off
 * as soon as it passes the limit, never buffered whole.
 */
export async function readBody(req: Request, max = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await req.body?.cancel().catch(() => {});
    throw new AppError('body_too_large');
  }
  if (!req.body) return '';
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
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; an empty body counts as `{}` so that parameter errors name what is missing. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new AppError('body_invalid_json');
  }
}
