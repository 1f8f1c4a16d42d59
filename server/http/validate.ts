import type { z } from 'zod';
import { AppError } from '@/server/errors';
import { jsonPath, valueAt } from '@/server/json-path';

/**
 * Parses with a zod schema and turns the first issue into parameter_missing (absent value) or parameter_invalid,
 * with `param` as the JSON path under `root`.
 */
export function parseParams<S extends z.ZodType>(schema: S, value: unknown, root: readonly PropertyKey[] = []): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = jsonPath('', [...root, ...issue.path]);
  const missing = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
  throw new AppError(missing ? 'parameter_missing' : 'parameter_invalid', path || undefined, describe(path, issue.message, missing));
}

const describe = (path: string, message: string, missing: boolean) =>
  missing ? `Missing required parameter: ${path}.` : `Invalid ${path || 'request'}: ${message}.`;

/** Query string as a plain object (last value wins) for zod. */
export const queryObject = (url: URL): Record<string, string> => Object.fromEntries(url.searchParams.entries());
