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
