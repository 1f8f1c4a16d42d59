import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { FaultRule } from './faults';
import { fail, type Reply } from './kit';
import type { EmulatorState } from './state';

export type Ctx = {
  state: EmulatorState;
  method: string;
  /** Path below the /v2 base, or the full path for control and storage routes. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  ip: string;
  /** Scheme, host and port this server answers on, for the URLs it hands out. */
  origin: string;
  /** Faults drawn for this request that act inside the handler ('reject', 'stuck'). */
  faults: FaultRule[];
};

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

/** Parses the JSON body with a zod schema; any mismatch is KSeF's 21405 with the paths at fault. */
export function readJson<T extends z.ZodType>(ctx: Ctx, schema: T): z.infer<T> {
  let raw: unknown;
  try {
    raw = ctx.body.length ? JSON.parse(ctx.body.toString('utf8')) : undefined;
  } catch {
    throw fail.validation(['Treść żądania nie jest poprawnym JSON.']);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fail.validation(parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`));
  return parsed.data;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, json: body, headers });
