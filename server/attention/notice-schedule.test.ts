import { describe, expect, test } from 'vitest';
import { planNotices, type Notice } from './notice-schedule';

const T0 = new Date('2026-11-20T08:00:00Z');
const h = (hours: number) => new Date(T0.getTime() + hours * 3_600_000);

/** Runs the plan and applies its writes, as notifyAttention does. */
function step(notices: Notice[], active: Notice['kind'][], now: Date) {
  const plan = planNotices(active, notices, now);
  const next = new Map(notices.map((n) => [n.kind, n]));
  for (const w of plan.write) next.set(w.kind, w);
  return { mail: plan.mail, notices: [...next.values()] };
}

describe('planNotices', () => {
  test('a new kind mails at once; the same list mails again only as a digest a day later', () => {
    let s = step([], ['documents_error'], T0);
    expect(s.mail).toEqual({ type: 'first', newKinds: ['documents_error'] });
    s = step(s.notices, ['documents_error'], h(1));
    expect(s.mail).toBeNull();
    s = step(s.notices, ['documents_error'], h(23.9));
    expect(s.mail).toBeNull();
    s = step(s.notices, ['documents_error'], h(24));
    expect(s.mail).toEqual({ type: 'digest', newKinds: [] });
    s = step(s.notices, ['documents_error'], h(47));
    expect(s.mail).toBeNull();
    expect(step(s.notices, ['documents_error'], h(48)).mail).toEqual({ type: 'digest', newKinds: [] });
  });

  test('a second kind mails at once even the same day, and moves the digest on', () => {
    let s = step([], ['documents_error'], T0);
    s = step(s.notices, ['documents_error', 'webhooks_failing'], h(5));
    expect(s.mail).toEqual({ type: 'first', newKinds: ['webhooks_failing'] });
    expect(step(s.notices, ['documents_error', 'webhooks_failing'], h(24)).mail).toBeNull();
    expect(step(s.notices, ['documents_error', 'webhooks_failing'], h(29)).mail?.type).toBe('digest');
  });

  test('a condition that clears and comes back within a day of its last e-mail waits for the digest; after a day it is new again', () => {
    let s = step([], ['store_failing'], T0);
    s = step(s.notices, [], h(1));
    expect(s.mail).toBeNull();
    expect(s.notices[0]!.clearedAt).toEqual(h(1));
    s = step(s.notices, ['store_failing'], h(2));
    expect(s.mail).toBeNull();
    expect(s.notices[0]!.clearedAt).toBeNull();
    s = step(s.notices, [], h(3));
    expect(step(s.notices, ['store_failing'], h(23)).mail).toBeNull();
    expect(step(s.notices, ['store_failing'], h(25)).mail).toEqual({ type: 'first', newKinds: ['store_failing'] });
  });

  test('the day counts from the last e-mail of the kind, a digest included', () => {
    let s = step([], ['store_failing'], T0);
    s = step(s.notices, ['store_failing'], h(24)); // digest
    s = step(s.notices, [], h(30));
    expect(step(s.notices, ['store_failing'], h(40)).mail).toBeNull();
    expect(step(s.notices, ['store_failing'], h(48)).mail).toEqual({ type: 'first', newKinds: ['store_failing'] });
  });

  test('nothing open, nothing sent, nothing written', () => {
    expect(planNotices([], [], T0)).toEqual({ mail: null, write: [] });
    const cleared: Notice = { kind: 'documents_error', firstNotifiedAt: T0, lastDigestAt: null, clearedAt: h(1) };
    expect(planNotices([], [cleared], h(30))).toEqual({ mail: null, write: [] });
  });
});
