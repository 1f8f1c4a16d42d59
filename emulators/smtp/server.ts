import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type SinkAttachment = { filename: string | null; contentType: string; size: number; content: string /* base64 */ };
export type SinkMessage = {
  id: string;
  receivedAt: string;
  envelope: { from: string | null; to: string[] };
  /** Header From address, and its display name if any. */
  from: string;
  fromName: string | null;
  to: string[];
  subject: string;
  text: string;
  attachments: SinkAttachment[];
};
export type SmtpSinkOptions = { port?: number; host?: string; httpPort?: number };
export type SmtpSink = { url: string; httpUrl: string; close: () => Promise<void> };

/** A dev sink runs for days; the oldest messages go first. */
const MAX_MESSAGES = 1_000;
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/**
 * SMTP server that accepts every message (no auth, no TLS) and keeps it in memory, plus an HTTP side:
 * `GET /messages` (oldest first; `?to=` filters by recipient) and `DELETE /messages`.
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const host = options.host ?? '127.0.0.1';
  const messages: SinkMessage[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    closeTimeout: 1_000, // pooled client connections would otherwise hold close() for 30 s
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          // The reply to DATA waits for this, so a message is readable over HTTP once the sender's call returns.
          messages.push({
            id: randomUUID(),
            receivedAt: new Date().toISOString(),
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            from: mail.from?.value[0]?.address ?? '',
            fromName: mail.from?.value[0]?.name || null,
            to: addressesOf(mail.to),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? null,
              contentType: a.contentType,
              size: a.content.length,
              content: a.content.toString('base64'),
            })),
          });
          if (messages.length > MAX_MESSAGES) messages.splice(0, messages.length - MAX_MESSAGES);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink.local');
    if (url.pathname !== '/messages') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    if (req.method === 'DELETE') {
      messages.length = 0;
      return void res.writeHead(204).end();
    }
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET, DELETE' }).end();
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => [...m.to, ...m.envelope.to].some((a) => a.toLowerCase() === to)) : messages;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(list));
  });

  const smtpPort = await listen(smtp.server, options.port ?? 0, host);
  const httpPort = await listen(http, options.httpPort ?? 0, host).catch(async (err: unknown) => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw err;
  });
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `smtp://${shownHost}:${smtpPort}`,
    httpUrl: `http://${shownHost}:${httpPort}`,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve, reject) => http.close((err) => (err ? reject(err) : resolve()))),
      ]);
    },
  };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const groups = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return groups.flatMap((g) => g.value.map((a) => a.address ?? '').filter(Boolean));
}

function listen(server: Server | SMTPServer['server'], port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
