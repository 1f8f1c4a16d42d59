import { expect, test } from 'vitest';
import { DOCUMENT_STATUSES, FINAL_STATUSES, isInFlight } from './document-statuses';
import { EVENT_TYPES, eventTypeFor } from './event-types';

test('every final state of either kind has its event type, error included (invariant 10); other states have none', () => {
  const final = DOCUMENT_STATUSES.filter((s) => !isInFlight(s) && s !== 'waiting_for_plan_limit');
  expect(final).toEqual(['accepted', 'rejected', 'skipped', 'error']);
  expect(FINAL_STATUSES).toEqual(final);
  for (const kind of ['invoice', 'correction'] as const) {
    expect(final.map((s) => eventTypeFor(kind, s))).toEqual(final.map((s) => `${kind}.${s}`));
    for (const s of DOCUMENT_STATUSES.filter((s) => !final.includes(s))) expect(eventTypeFor(kind, s)).toBeNull();
  }
  expect(EVENT_TYPES).toHaveLength(2 * final.length);
});
