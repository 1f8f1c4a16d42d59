import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { buildInvoiceEmail } from './build-invoice-email';
import { closeMailTransports, sendMail } from './send-mail';

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  closeMailTransports();
  await sink.close();
});
beforeEach(async () => {
  await fetch(`${sink.httpUrl}/messages`, { method: 'DELETE' });
});

const received = async () => (await (await fetch(`${sink.httpUrl}/messages`)).json()) as SinkMessage[];
// Random binary bytes: any line-ending or charset mangling on the way would change them.
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(48_000), Buffer.from('\n%%EOF\n')]);
const message = (to: string) =>
  buildInvoiceEmail({
    sellerName: 'Kawowy Świat Sp. z o.o.',
    documentKind: 'invoice',
    number: 'FV/2026/06/0042',
    ksefNumber: '5265877635-20260602-01000016B2C4-ED',
    pdfUrl: 'https://relay.example/d/tok_abc',
    pdf,
    filename: 'Faktura FV-2026-06-0042.pdf',
    to,
    from: 'KSeF Relay <faktury@ksef-relay.local>',
  });

describe('sendMail', () => {
  test('an invoice e-mail arrives in the sink with its PDF intact', async () => {
    const sent = await sendMail(sink.url, message('ksiegowosc@kreska.example.pl'));
    expect(sent.accepted).toEqual(['ksiegowosc@kreska.example.pl']);
    expect(sent.rejected).toEqual([]);

    const [mail, ...rest] = await received();
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({
      envelope: { from: 'faktury@ksef-relay.local', to: ['ksiegowosc@kreska.example.pl'] },
      from: 'faktury@ksef-relay.local',
      fromName: 'KSeF Relay',
      to: ['ksiegowosc@kreska.example.pl'],
      subject: 'Faktura FV/2026/06/0042 – Kawowy Świat Sp. z o.o. / Invoice FV/2026/06/0042',
    });
    expect(mail?.text).toContain('Numer KSeF: 5265877635-20260602-01000016B2C4-ED');
    expect(mail?.attachments).toHaveLength(1);
    const [attachment] = mail?.attachments ?? [];
    expect(attachment).toMatchObject({ filename: 'Faktura FV-2026-06-0042.pdf', contentType: 'application/pdf', size: pdf.length });
    expect(Buffer.from(attachment?.content ?? '', 'base64').equals(pdf)).toBe(true);
  });

  test('reuses one transport for many messages', async () => {
    await Promise.all(['a', 'b', 'c', 'd'].map((who) => sendMail(sink.url, message(`${who}@kreska.example.pl`))));
    expect((await received()).map((m) => m.to[0]).sort()).toEqual(['a', 'b', 'c', 'd'].map((w) => `${w}@kreska.example.pl`));
  });

  test('an unreachable server fails the call instead of hanging', async () => {
    const gone = await startSmtpSink();
    await gone.close();
    await expect(sendMail(gone.url, message('x@kreska.example.pl'))).rejects.toThrow();
  });

  test('refuses a URL that is not SMTP', async () => {
    await expect(sendMail('http://127.0.0.1:1', message('x@kreska.example.pl'))).rejects.toThrow(/smtp:\/\//);
  });
});
