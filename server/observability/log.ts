import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { logLevel } from '@/server/config';

/** What every log line of a request or a job carries: ids only, never names, e-mails or secrets. */
export type LogContext = {
  requestId?: string;
  accountId?: string;
  mode?: 'test' | 'live';
  documentId?: string;
  jobId?: string;
  task?: string;
};

const context = new AsyncLocalStorage<LogContext>();

/**
 * Keys whose values never reach a log line, at any depth we log objects (error causes, KSeF answers, job
 * payloads): credentials and API keys, webhook secrets, and personal data of buyers beyond ids.
 */
export const REDACTED_KEYS = [
  'authorization',
  'apiKey',
  'api_key',
  'key',
  'token',
  'accessToken',
  'refreshToken',
  'password',
  'secret',
  'privateKeyPem',
  'certificatePem',
  'cookie',
  'email',
  'buyer',
  'name',
  'address_line1',
  'address_line2',
] as const;
const REDACTED = new Set<string>(REDACTED_KEYS);
const CENSOR = '[redacted]';
/** Keys are censored in the logged object, its values and their values (pino's `key`, `*.key`, `*.*.key`). */
const REDACT_LEVELS = 3;

/**
 * The logged object with every REDACTED_KEYS value within REDACT_LEVELS levels censored, arrays and errors (and
 * an error's `cause`) included. The caller's objects are never changed: a level is copied only where something
 * beneath it is censored, so a line with nothing to hide (every request's access line) costs one look at each
 * key. pino's `redact` option tried its 60 wildcard paths on every line: 37 µs a request, 2.6 % of the web
 * process's CPU under load (issue 19).
 */
export function redactLogObject<T>(value: T, level = 0): T {
  if (level >= REDACT_LEVELS || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  if (value instanceof Error && 'cause' in value && !keys.includes('cause')) keys.push('cause');
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) {
    const before = source[key];
    const after = REDACTED.has(key) ? CENSOR : redactLogObject(before, level + 1);
    if (after === before) continue;
    copy ??= copyOf(source);
    copy[key] = after;
  }
  return (copy ?? value) as T;
}

/** A shallow copy keeping the prototype and every own property, so an error stays an error for pino's serializer. */
function copyOf(source: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(source)) return [...source] as unknown as Record<string, unknown>;
  return Object.create(Object.getPrototypeOf(source), Object.getOwnPropertyDescriptors(source)) as Record<string, unknown>;
}

let root: Logger | undefined;

const options = (): pino.LoggerOptions => ({
  level: logLevel(),
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }), log: (obj) => redactLogObject(obj) },
  mixin: () => ({ ...context.getStore() }),
  serializers: { err: pino.stdSerializers.err },
});

const base = (): Logger => (root ??= pino(options()));

/** The process's one logger; the request's or job's ids are added to every line from the async context. */
export const log = {
  fatal: (obj: object, msg?: string) => base().fatal(obj, msg),
  error: (obj: object, msg?: string) => base().error(obj, msg),
  warn: (obj: object, msg?: string) => base().warn(obj, msg),
  info: (obj: object, msg?: string) => base().info(obj, msg),
  debug: (obj: object, msg?: string) => base().debug(obj, msg),
  isLevelEnabled: (level: string) => base().isLevelEnabled(level),
};

/** Runs `fn` with these ids added to every log line written inside it (nested contexts inherit the outer ids). */
export function withLogContext<T>(ids: LogContext, fn: () => T): T {
  return context.run({ ...context.getStore(), ...ids }, fn);
}

/** Adds ids learnt during the request or job (the account after authentication, a document once loaded). */
export function addLogContext(ids: LogContext): void {
  const store = context.getStore();
  if (store) Object.assign(store, ids);
}

export const currentLogContext = (): LogContext => ({ ...context.getStore() });

/** A URL for a log line: path only, so query strings (which may hold personal data) never reach the log. */
export const pathOnly = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0]!;
  }
};

/** Sends the root logger's lines elsewhere (tests read them); undefined goes back to stdout. */
export function setLogDestination(destination: pino.DestinationStream | undefined): void {
  root = destination ? pino(options(), destination) : undefined;
}
