import { expect, test } from 'vitest';
import type { EventType as SdkEventType } from '@/sdk/src/types';
import { DOCUMENT_STATUSES, isInFlight } from '@/server/facts/document-statuses';
import { EVENT_TYPES, eventTypeFor, type EventType } from './event-types';

/** The SDK has no dependencies, so it spells the union out; the type checker holds it to the service's list. */
const sdkMatches: [SdkEventType, EventType] extends [EventType, SdkEventType] ? true : never = true;

test('every final state of either kind has its event type, error included (invariant 10); other states have none', () => {
  expect(sdkMatches).toBe(true);
  const final = DOCUMENT_STATUSES.filter((s) => !isInFlight(s) && s !== 'waiting_for_plan_limit');
  expect(final).toEqual(['accepted', 'rejected', 'skipped', 'error']);
  for (const kind of ['invoice', 'correction'] as const) {
    expect(final.map((s) => eventTypeFor(kind, s))).toEqual(final.map((s) => `${kind}.${s}`));
    for (const s of DOCUMENT_STATUSES.filter((s) => !final.includes(s))) expect(eventTypeFor(kind, s)).toBeNull();
  }
  expect(EVENT_TYPES).toHaveLength(2 * final.length);
});
