import { jsonPath } from '@/server/json-path';

/**
 * NUL cannot be stored in PostgreSQL text and a lone surrogate cannot be encoded as UTF-8: either would reach the
 * database and fail there (500). Input holding one is refused up front, naming where it is.
 */
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isSafeText = (s: string): boolean => !UNSAFE.test(s);

/** JSON path of the first string or key in a parsed JSON value that is not safe text, or undefined. */
export function findUnsafeText(value: unknown, path: PropertyKey[] = []): string | undefined {
  if (typeof value === 'string') return isSafeText(value) ? undefined : jsonPath('', path) || 'body';
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (!isSafeText(key)) return jsonPath('', path) || 'body';
    const found = findUnsafeText(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Which parameter a path with an undecodable percent-escape names: the id of a /v1 object, a share token, or the path. */
export function undecodablePathParam(pathname: string): string | undefined {
  const segments = pathname.split('/').slice(1);
  const bad = segments.findIndex((s) => !decodes(s));
  if (bad < 0) return undefined;
  if (segments[0] === 'v1' && (segments[1] === 'invoices' || segments[1] === 'webhook_endpoints') && bad === 2) return 'id';
  if (segments[0] === 'd' && bad === 1) return 'token';
  return 'path';
}

function decodes(segment: string): boolean {
  try {
    return isSafeText(decodeURIComponent(segment));
  } catch {
    return false;
  }
}
