import { createServer, type Server } from 'node:http';
import type { Db } from '@/server/db/client';
import { checkReadiness } from './health';
import { log } from './log';
import { metricsResponse } from './scrape';

/**
 * A worker process's probes on their own port (WORKER_HEALTH_PORT): GET /healthz (the event loop answers),
 * /readyz (database reachable, migrations current) and /metrics (this process's job, KSeF, webhook and PDF
 * metrics; METRICS_TOKEN). Nothing else is served.
 */
export function startProbeServer(port: number, db: Db): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = (status: number, body: string, type = 'application/json') =>
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return answer(405, JSON.stringify({ error: 'GET only' }));
    if (path === '/healthz') return answer(200, JSON.stringify({ status: 'ok' }));
    if (path === '/readyz') {
      void checkReadiness(db).then((r) => answer(r.ready ? 200 : 503, JSON.stringify(r)));
      return;
    }
    if (path === '/metrics') {
      void metricsResponse(req.headers.authorization ?? null).then((r) => answer(r.status, r.body, r.contentType));
      return;
    }
    answer(404, JSON.stringify({ error: 'not found' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      log.info({ port }, 'worker_probes_listening');
      resolve(server);
    });
  });
}
