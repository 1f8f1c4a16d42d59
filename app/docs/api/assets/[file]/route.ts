import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '@/server/config';

export const dynamic = 'force-dynamic';

/** The renderer's files, read from the installed package (never a CDN), plus the page's own start-up script. */
const FILES: Record<string, string> = { 'swagger-ui.css': 'text/css; charset=utf-8', 'swagger-ui-bundle.js': 'text/javascript; charset=utf-8' };
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, defaultModelsExpandDepth: 0, tryItOutEnabled: false });`;

export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }) {
  const { file } = await ctx.params;
  const cache = { 'Cache-Control': 'public, max-age=86400' };
  if (file === 'init.js') return new Response(INIT, { headers: { 'Content-Type': 'text/javascript; charset=utf-8', ...cache } });
  const type = FILES[file];
  if (!type) return new Response('not found', { status: 404 });
  const body = await readFile(path.join(ROOT, 'node_modules/swagger-ui-dist', file));
  return new Response(new Uint8Array(body), { headers: { 'Content-Type': type, ...cache } });
}
