import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * Route handlers of app/ (e.g. v1Routes) behind a real HTTP server on 127.0.0.1, for tests that need HTTP without a
 * Next.js build: exact paths only, the answer's body piped as it is read (streams keep their back-pressure).
 */
export async function serveRoutes(routes: Record<string, Partial<Record<string, Handler>>>): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const handler = routes[url.pathname]?.[req.method ?? 'GET'];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    void handler(new Request(url, { method: req.method, headers }), { params: Promise.resolve({}) })
      .then(async (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
        if (answer.body) await pipeline(Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream), res);
        else res.end();
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
