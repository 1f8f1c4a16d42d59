import type { MailMessage } from '@/server/mail/build-invoice-email';
import { RESET_TTL_MS } from './password-reset';

export type PasswordResetEmailInput = { to: string; from: string; link: string };

const MINUTES = RESET_TTL_MS / 60_000;

/** The password reset e-mail: Polish first, English alongside, as the service's other e-mails. */
export function buildPasswordResetEmail(input: PasswordResetEmailInput): MailMessage {
  const text = [
    'Dzień dobry,',
    '',
    'ktoś (zapewne Ty) poprosił o zmianę hasła do KSeF Relay dla tego adresu.',
    `Aby ustawić nowe hasło, otwórz link (ważny ${MINUTES} minut, jednorazowy):`,
    input.link,
    'Jeśli to nie Ty, zignoruj tę wiadomość: hasło pozostaje bez zmian.',
    '',
    '---',
    '',
    'Hello,',
    '',
    'someone (probably you) asked to reset the KSeF Relay password of this address.',
    `To set a new password, open the link (valid for ${MINUTES} minutes, once):`,
    input.link,
    'If it was not you, ignore this message: the password stays as it is.',
    '',
  ].join('\n');
  return { from: input.from, to: input.to, subject: 'KSeF Relay: zmiana hasła / password reset', text, attachments: [] };
}
