/**
 * Fault injection: rules per endpoint (operation name, or a path pattern with `*` for one segment and `**` for any
 * rest), each with a probability, drawn from a seeded generator so a test sees the same sequence on every run.
 */
export const FAULT_KINDS = [
  'latency',
  'error5xx',
  'html502',
  'html503',
  'reset',
  'timeout',
  'rate429',
  'reject',
  'stuck',
  'warning',
  'gone',
  'exception',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type FaultRule = {
  endpoint: string;
  kind: FaultKind;
  probability?: number;
  /** Stop after this many injections. */
  times?: number;
  latencyMs?: number;
  status?: number;
  retryAfterSeconds?: number;
  /** For 'reject': the invoice status code (e.g. 450, 500, 550) and its detail. */
  rejectCode?: number;
  rejectDetail?: string;
  /** For 'stuck': seconds an invoice stays in status 150 before processing goes on. */
  stuckSeconds?: number;
  /** For 'warning': the `X-System-Warning` value added to the answer, e.g. `[xml-001]: ...` (the request still succeeds). */
  warning?: string;
  /**
   * For 'exception': KSeF's ExceptionResponse with this code instead of the answer (status from `status`, default
   * 400), e.g. 21184 "session temporarily unavailable" (changelog 2.8.0). 'gone' answers 410 problem+json, as a
   * status past its retention does (changelog 2.4.0).
   */
  exceptionCode?: number;
  exceptionDescription?: string;
};

type ActiveRule = FaultRule & { matcher: (op: string, path: string) => boolean; used: number };
export type FaultState = { rules: ActiveRule[]; random: () => number };

/** mulberry32: tiny, fast and good enough for picking faults. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const createFaultState = (seed: number): FaultState => ({ rules: [], random: seeded(seed) });

function matcherFor(endpoint: string): (op: string, path: string) => boolean {
  if (endpoint === '*') return () => true;
  if (!endpoint.startsWith('/')) return (op) => op === endpoint;
  const re = new RegExp(
    `^${endpoint
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*/g, '\u0000')
      .replace(/\*/g, '[^/]+')
      .replace(/\u0000/g, '.*')}$`,
  );
  return (_op, path) => re.test(path);
}

export function setFaults(state: FaultState, rules: FaultRule[], seed?: number): void {
  state.rules = rules.map((r) => ({ ...r, matcher: matcherFor(r.endpoint), used: 0 }));
  if (seed !== undefined) state.random = seeded(seed);
}

/** The faults that fire for this request, in rule order; each matching rule draws once. */
export function drawFaults(state: FaultState, op: string, path: string): FaultRule[] {
  const fired: FaultRule[] = [];
  for (const rule of state.rules) {
    if (!rule.matcher(op, path)) continue;
    if (rule.times !== undefined && rule.used >= rule.times) continue;
    if (state.random() >= (rule.probability ?? 1)) continue;
    rule.used++;
    fired.push(rule);
  }
  return fired;
}
