import type { z } from 'zod';
import { AppError } from '@/server/errors';
import type { ErrorCode } from '@/server/facts/error-codes';
import { jsonPath, valueAt } from '@/server/json-path';

/** Codes a field may carry instead of parameter_missing when it is absent (spec 4.2 rule 3-4). */
const MISSING_CODES: Record<string, ErrorCode> = { nip: 'buyer_nip_missing', paid_at: 'order_not_paid', vat_rate: 'vat_rate_missing' };

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Turns the first zod issue into the spec's error. Zod reports issues in schema order (the order of the
 * spec's field tables, array items by index), which makes "the first error" deterministic. A blank value
 * is "missing" whatever check failed on it; custom checks name their code in `params.code`.
 */
export function toAppError(error: z.ZodError, input: unknown, root: string): AppError {
  const issue = error.issues[0];
  if (!issue) return new AppError('parameter_invalid', root);
  const param = jsonPath(root, issue.path);
  const last = issue.path.at(-1);
  if (isBlank(valueAt(input, issue.path))) {
    const code = (typeof last === 'string' && MISSING_CODES[last]) || 'parameter_missing';
    return new AppError(code, param, `${param} is required.`);
  }
  const custom = issue.code === 'custom' ? (issue.params?.code as ErrorCode | undefined) : undefined;
  return new AppError(custom ?? 'parameter_invalid', param, `${param}: ${issue.message}`);
}
