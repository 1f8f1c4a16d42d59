import type { Mode } from '@/server/db/schema';
import type { MailMessage } from '@/server/mail/build-invoice-email';
import type { AttentionKind } from './kinds';

export type AttentionMailEntry = { kind: AttentionKind; count: number; limit?: number };

export type AttentionEmailInput = {
  type: 'first' | 'digest';
  mode: Mode;
  entries: AttentionMailEntry[];
  newKinds: AttentionKind[];
  /** The dashboard's overview, where the list and the links to each fix are; null without PUBLIC_BASE_URL. */
  dashboardUrl: string | null;
  to: string;
  from: string;
};

const LINE: Record<AttentionKind, { pl: (e: AttentionMailEntry) => string; en: (e: AttentionMailEntry) => string }> = {
  ksef_credentials_failing: {
    pl: () => 'Połączenie z KSeF nie działa: sprawdź token lub certyfikat.',
    en: () => 'The KSeF connection fails: check the token or certificate.',
  },
  ksef_credentials_expiring: {
    pl: (e) => `Certyfikaty lub tokeny KSeF wygasające w ciągu 30 dni lub wygasłe: ${e.count}.`,
    en: (e) => `KSeF certificates or tokens expiring within 30 days or expired: ${e.count}.`,
  },
  offline_deadline: {
    pl: (e) => `Faktury offline bliskie terminu przesłania do KSeF lub po terminie: ${e.count}.`,
    en: (e) => `Offline invoices close to or past their KSeF deadline: ${e.count}.`,
  },
  documents_error: {
    pl: (e) => `Dokumenty z błędem (ostatnie 30 dni): ${e.count}.`,
    en: (e) => `Documents in error (last 30 days): ${e.count}.`,
  },
  documents_rejected: {
    pl: (e) => `Dokumenty odrzucone przez KSeF (ostatnie 30 dni): ${e.count}.`,
    en: (e) => `Documents rejected by KSeF (last 30 days): ${e.count}.`,
  },
  ksef_warnings_repeating: {
    pl: (e) => `KSeF przyjmuje, ale ostrzega (ostatnie 24 h): ${e.count} ostrzeżeń; szczegóły przy fakturach.`,
    en: (e) => `KSeF accepts but warns (last 24 h): ${e.count} warnings; details on the invoices.`,
  },
  webhooks_failing: {
    pl: (e) => `Webhooki, których dostarczenie się nie udaje: ${e.count}.`,
    en: (e) => `Webhook endpoints failing to receive events: ${e.count}.`,
  },
  store_failing: {
    pl: () => 'Sklep jest nieosiągalny, jego webhooki są wyłączone albo zapis faktury do zamówienia został przerwany (strona Sklep).',
    en: () => 'The store is unreachable, its webhooks are disabled, or a write-back to an order stopped (see the Store page).',
  },
  plan_limit_near: {
    pl: (e) => `Limit planu prawie wykorzystany: ${e.count} z ${e.limit} faktur w tym miesiącu.`,
    en: (e) => `Plan limit nearly used: ${e.count} of ${e.limit} invoices this month.`,
  },
};

const MODE = { test: { pl: 'testowy', en: 'test' }, live: { pl: 'produkcyjny', en: 'live' } } as const satisfies Record<Mode, { pl: string; en: string }>;

/** The merchant's attention e-mail: Polish first, English alongside (as the buyer's invoice e-mail), new kinds marked. */
export function buildAttentionEmail(input: AttentionEmailInput): MailMessage {
  const mark = (e: AttentionMailEntry, label: string) => `${input.newKinds.includes(e.kind) ? `* [${label}] ` : '* '}`;
  const plLines = input.entries.map((e) => `${mark(e, 'nowe')}${LINE[e.kind].pl(e)}`);
  const enLines = input.entries.map((e) => `${mark(e, 'new')}${LINE[e.kind].en(e)}`);
  const mode = MODE[input.mode];
  const text = [
    'Dzień dobry,',
    '',
    input.type === 'first' ? `w KSeF Relay (tryb ${mode.pl}) coś wymaga Twojej uwagi:` : `podsumowanie dnia: w KSeF Relay (tryb ${mode.pl}) nadal czeka:`,
    ...plLines,
    '',
    input.dashboardUrl ? `Szczegóły w panelu: ${input.dashboardUrl}` : 'Szczegóły w panelu, na stronie Przegląd.',
    'Te wiadomości można wyłączyć w panelu (Przegląd, „Wymaga uwagi”).',
    '',
    '---',
    '',
    'Hello,',
    '',
    input.type === 'first' ? `something in KSeF Relay (${mode.en} mode) needs your attention:` : `daily summary: still open in KSeF Relay (${mode.en} mode):`,
    ...enLines,
    '',
    input.dashboardUrl ? `Details on the dashboard: ${input.dashboardUrl}` : 'Details on the dashboard, on the Overview page.',
    'You can turn these e-mails off on the dashboard (Overview, "Needs attention").',
    '',
  ].join('\n');
  const subject =
    input.type === 'first'
      ? `KSeF Relay: wymaga uwagi (${mode.pl}) / needs attention (${mode.en})`
      : `KSeF Relay: podsumowanie dnia (${mode.pl}) / daily summary (${mode.en})`;
  return { from: input.from, to: input.to, subject, text, attachments: [] };
}
