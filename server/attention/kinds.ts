/**
 * The kinds of condition that need the merchant (DESIGN.md invariant 10), in the order the dashboard lists them.
 * Pure, so the browser bundle can read them; server/attention/conditions.ts has one entry per kind.
 */
export const ATTENTION_KINDS = [
  'ksef_credentials_failing',
  'ksef_credentials_expiring',
  'offline_deadline',
  'documents_error',
  'documents_rejected',
  'ksef_warnings_repeating',
  'webhooks_failing',
  'store_failing',
  'plan_limit_near',
] as const;

export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** One line of the attention list: how many things of the kind (plus the limit, for the plan) and where to fix them. */
export type AttentionEntry = { kind: AttentionKind; count: number; limit?: number; href: string | null };
