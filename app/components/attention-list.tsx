'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { AttentionEntry } from '@/server/attention/kinds';
import { useI18n } from './i18n';
import { useTRPC } from './trpc';

/** Overview card: what needs the merchant (server/attention), each with its count and where to fix it, and the e-mail switch. */
export function AttentionList({ attention }: { attention: { entries: AttentionEntry[]; emails: boolean } | undefined }) {
  const { t } = useI18n();
  const a = t.attention;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const setEmails = useMutation(
    trpc.account.setAttentionEmails.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.account.overview.queryKey() }) }),
  );
  const entries = attention?.entries ?? [];
  return (
    <section className="card" aria-labelledby="attention-h" data-testid="attention">
      <h2 id="attention-h">{a.title}</h2>
      {attention && entries.length === 0 ? <p className="ok">{a.none}</p> : null}
      {entries.length > 0 ? (
        <ul className="attention" aria-label={a.title}>
          {entries.map((e) => (
            <li key={e.kind} data-testid={`attention-${e.kind}`}>
              <span className="warn">{a.kinds[e.kind]}</span>: <strong>{e.limit === undefined ? e.count : `${e.count} ${a.of} ${e.limit}`}</strong>
              {e.href ? (
                <>
                  {' '}
                  <Link href={e.href}>{a.open}</Link>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {attention ? (
        <div className="field">
          <label>
            <input
              type="checkbox"
              name="attentionEmails"
              checked={setEmails.isPending ? setEmails.variables.on : attention.emails}
              disabled={setEmails.isPending}
              onChange={(e) => setEmails.mutate({ on: e.target.checked })}
            />{' '}
            {a.emails}
          </label>
        </div>
      ) : null}
    </section>
  );
}
