import { startSmtpSink } from './server';

const sink = await startSmtpSink({
  port: Number(process.env.SMTP_SINK_PORT ?? 1025),
  httpPort: Number(process.env.SMTP_SINK_HTTP_PORT ?? 8025),
  host: process.env.SMTP_SINK_HOST ?? '127.0.0.1',
});
console.log(`SMTP sink at ${sink.url} (set SMTP_URL to it); messages at ${sink.httpUrl}/messages`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sink.close().then(() => process.exit(0)));
}
