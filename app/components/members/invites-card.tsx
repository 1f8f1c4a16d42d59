'use client';
import { formatDateTime } from '../format';
import { useI18n } from '../i18n';
import type { MembersData } from './types';

/** Pending invitations, each with a revoke button. */
export function InvitesCard({ data, revoke, revoking }: { data: MembersData; revoke: (id: string) => void; revoking: boolean }) {
  const { t, locale } = useI18n();
  const m = t.members;
  return (
    <section className="card" aria-labelledby="invites-h">
      <h2 id="invites-h">{m.invites}</h2>
      {data && data.invites.length === 0 ? <p className="muted">{m.noInvites}</p> : null}
      {data && data.invites.length > 0 ? (
        <div className="table-wrap">
          <table aria-labelledby="invites-h">
            <thead>
              <tr>
                <th scope="col">{m.email}</th>
                <th scope="col">{m.role}</th>
                <th scope="col">{m.expires}</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {data.invites.map((inv) => (
                <tr key={inv.id}>
                  <td>{inv.email}</td>
                  <td>{t.roles[inv.role]}</td>
                  <td>{inv.expired ? m.expired : formatDateTime(inv.expiresAt, locale)}</td>
                  <td>
                    <button type="button" onClick={() => revoke(inv.id)} disabled={revoking}>
                      {m.revoke}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
