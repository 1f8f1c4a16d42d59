import type { MemberRole } from '@/server/db/schema';
import type { MailMessage } from '@/server/mail/build-invoice-email';
import { INVITE_TTL_MS } from './invites';

export type InviteEmailInput = { to: string; from: string; role: MemberRole; invitedBy: string; link: string };

const ROLE = {
  owner: { pl: 'właściciel (pełny dostęp)', en: 'owner (full access)' },
  accountant: { pl: 'księgowy (dokumenty, rejestry i archiwa, tylko odczyt)', en: 'accountant (documents, registers and archives, read-only)' },
} as const satisfies Record<MemberRole, { pl: string; en: string }>;

const DAYS = INVITE_TTL_MS / (24 * 3600 * 1000);

/** The invitation e-mail: Polish first, English alongside, as the service's other e-mails. */
export function buildInviteEmail(input: InviteEmailInput): MailMessage {
  const role = ROLE[input.role];
  const text = [
    'Dzień dobry,',
    '',
    `${input.invitedBy} zaprasza Cię do swojego konta w KSeF Relay jako: ${role.pl}.`,
    `Aby przyjąć zaproszenie, otwórz link (ważny ${DAYS} dni, jednorazowy):`,
    input.link,
    '',
    '---',
    '',
    'Hello,',
    '',
    `${input.invitedBy} invites you to their KSeF Relay account as: ${role.en}.`,
    `To accept, open the link (valid for ${DAYS} days, once):`,
    input.link,
    '',
  ].join('\n');
  return { from: input.from, to: input.to, subject: 'KSeF Relay: zaproszenie / invitation', text, attachments: [] };
}
