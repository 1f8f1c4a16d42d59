import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage } from './build-invoice-email';

export type SentMail = { messageId: string; accepted: string[]; rejected: string[] };

/** A slow or silent server must fail the job (which retries), not hold a worker for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

const transports = new Map<string, Transporter>();

/** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`; one pooled transport per URL. */
function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (transport) return transport;
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`SMTP_URL must be smtp:// or smtps://, got ${url.protocol}`);
  const secure = url.protocol === 'smtps:';
  transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    pool: true,
    maxConnections: 2,
    ...TIMEOUTS,
  });
  transports.set(smtpUrl, transport);
  return transport;
}

export async function sendMail(smtpUrl: string, message: MailMessage): Promise<SentMail> {
  const info = await transportFor(smtpUrl).sendMail(message);
  const addresses = (list: unknown[] | undefined) => (list ?? []).map((a) => (typeof a === 'string' ? a : (a as { address: string }).address));
  return { messageId: info.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
}

/** Closes the pooled connections (worker shutdown, tests). */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
