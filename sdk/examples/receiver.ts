import { createServer, type Server } from 'node:http';
import { verifyWebhookSignature } from '../src/index.js';

/** A receiver for KSeF Relay webhooks: checks the signature over the raw bytes, then parses. */
export function createWebhookReceiver(secret: string, onEvent: (event: { id: string; type: string }) => void): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks); // the exact bytes that were signed
      const signature = req.headers['ksef-signature'];
      if (req.method !== 'POST' || typeof signature !== 'string' || !verifyWebhookSignature(raw, signature, secret)) {
        res.writeHead(400).end();
        return;
      }
      onEvent(JSON.parse(raw.toString('utf8'))); // KSeF-Event-Id repeats on redelivery: drop duplicates by id
      res.writeHead(200).end();
    });
  });
}
