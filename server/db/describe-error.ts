/** What postgres.js puts on its errors: PostgreSQL's fields (a SQLSTATE `code`, `severity`, …) or its own `code`. */
type DriverError = Error & { code?: unknown; severity?: unknown; detail?: unknown; hint?: unknown };

const QUERY_SHOWN = 160;

/**
 * An error as one line for a person (CLI output, start-up and migration logs). drizzle wraps a failed statement as
 * "Failed query: <statement>\nparams: …" with the driver's error as `cause`, so its own message names the statement
 * but not what PostgreSQL said: here PostgreSQL's message and SQLSTATE come first, then its detail and hint, then
 * the start of the statement. The params are left out: they may hold personal data.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const query = (err as { query?: unknown }).query;
  if (typeof query !== 'string' || !(err.cause instanceof Error)) return err.message;
  const cause = err.cause as DriverError;
  const server = typeof cause.severity === 'string';
  const code = typeof cause.code === 'string' ? ` (${server ? 'PostgreSQL ' : ''}${cause.code})` : '';
  const parts = [`${cause.message}${code}`];
  if (server && typeof cause.detail === 'string') parts.push(`detail: ${cause.detail}`);
  if (server && typeof cause.hint === 'string') parts.push(`hint: ${cause.hint}`);
  const oneLine = query.replace(/\s+/g, ' ').trim();
  parts.push(`query: ${oneLine.length > QUERY_SHOWN ? `${oneLine.slice(0, QUERY_SHOWN)}…` : oneLine}`);
  return parts.join('; ');
}
