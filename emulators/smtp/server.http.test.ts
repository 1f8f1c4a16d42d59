import nodemailer from 'nodemailer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from './server';

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const list = async (query = '') => (await (await fetch(`${sink.httpUrl}/messages${query}`)).json()) as SinkMessage[];

test('accepts mail without auth or TLS, filters by recipient and clears', async () => {
  expect(sink.url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
  const port = Number(new URL(sink.url).port);
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false });
  try {
    await transport.sendMail({ from: 'a@shop.example', to: 'one@buyer.example', subject: 'Zażółć gęślą jaźń', text: 'pierwsza' });
    await transport.sendMail({
      from: 'a@shop.example',
      to: 'two@buyer.example',
      bcc: 'audit@shop.example',
      subject: 'second',
      text: 'druga',
      attachments: [{ filename: 'notes.txt', content: 'hello', contentType: 'text/plain' }],
    });
  } finally {
    transport.close();
  }

  const all = await list();
  expect(all.map((m) => m.subject)).toEqual(['Zażółć gęślą jaźń', 'second']);
  expect(all[0]).toMatchObject({ from: 'a@shop.example', fromName: null, to: ['one@buyer.example'], text: 'pierwsza\n', attachments: [] });
  expect(all[1]?.envelope.to).toEqual(['two@buyer.example', 'audit@shop.example']);
  expect(all[1]?.attachments).toEqual([{ filename: 'notes.txt', contentType: 'text/plain', size: 5, content: Buffer.from('hello').toString('base64') }]);

  expect((await list('?to=AUDIT@shop.example')).map((m) => m.subject)).toEqual(['second']);
  expect((await fetch(`${sink.httpUrl}/messages`, { method: 'DELETE' })).status).toBe(204);
  expect(await list()).toEqual([]);
  expect((await fetch(`${sink.httpUrl}/other`)).status).toBe(404);
});
