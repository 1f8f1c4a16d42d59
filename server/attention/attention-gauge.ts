import type { Db } from '@/server/db/client';
import { modeEnum } from '@/server/db/schema';
import { metrics } from '@/server/observability/metrics';
import { findAttention } from './find-attention';
import { ATTENTION_KINDS } from './kinds';

/**
 * The operator's view of the attention list: how many account modes have each condition. No account ids in labels
 * (one series per condition and mode); every series is set, zero included, so an alert rule sees a value, not a gap.
 */
export async function readAttentionGauge(db: Db, now: Date): Promise<void> {
  const gauge = metrics().attention;
  const counts = new Map<string, number>();
  for (const s of await findAttention(db, now)) for (const e of s.entries) counts.set(`${e.kind}:${s.mode}`, (counts.get(`${e.kind}:${s.mode}`) ?? 0) + 1);
  for (const condition of ATTENTION_KINDS) for (const mode of modeEnum.enumValues) gauge.set({ condition, mode }, counts.get(`${condition}:${mode}`) ?? 0);
}
