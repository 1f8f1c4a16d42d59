/**
 * postgres.js 3.4.x (3.4.9 is the newest release) schedules small writes with setImmediate; when the server
 * closes the connection first (57P01 on pg_terminate_backend, a restart), the scheduled write runs on a null socket
 * and throws `Cannot read properties of null (reading 'write')` outside any promise (porsager/postgres#1154, fix
 * proposed in #1168/#1176, not released). The query it belonged to was already rejected with CONNECTION_CLOSED and
 * the pool opens a new connection for the next one, so the throw carries no information: it is recognised here so
 * that a process can log it instead of dying.
 */
export function isDriverWriteAfterClose(err: unknown): boolean {
  return (
    err instanceof TypeError &&
    err.message.includes("reading 'write'") &&
    /nextWrite/.test(err.stack ?? '') &&
    /postgres[\\/]src[\\/]connection\.js/.test(err.stack ?? '')
  );
}

/** postgres.js' own codes for a connection that could not be made or was lost. */
const DRIVER_CODES = new Set(['CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']);
/** Socket codes: a database fault only under a failed query, since fetch (KSeF, NBP, webhooks) raises them too. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** SQLSTATEs of a server that is going away or not taking connections: class 08, admin/crash shutdown, too many clients. */
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;

/**
 * Whether an error (or any error in its cause chain: drizzle wraps the driver's) says the database could not be
 * reached, rather than that the statement was wrong. Such a failure is the infrastructure's, not the job's.
 */
export const isDatabaseUnavailable = (err: unknown): boolean => databaseFaultCode(err) !== undefined;

/** A connect that timed out: what a broken postgres.js pool reports, and the cue to renew it (renewPool). */
export const isConnectTimeout = (err: unknown): boolean => databaseFaultCode(err) === 'CONNECT_TIMEOUT';

/** The first connection-fault code in the error's cause chain. */
function databaseFaultCode(err: unknown): string | undefined {
  let underQuery = false;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    underQuery ||= e.name === 'DrizzleQueryError' || e.message.startsWith('Failed query');
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (DRIVER_CODES.has(code) || SERVER_CODES.test(code) || (underQuery && SOCKET_CODES.has(code))) return code;
  }
  return undefined;
}
