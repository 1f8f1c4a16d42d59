import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '@/server/config';

export const dynamic = 'force-dynamic';

/** The renderer's bundle, read from the installed package (never a CDN), plus the page's own start-up script. */
const FILES: Record<string, { from: string; type: string }> = {
  'redoc.standalone.js': { from: 'node_modules/redoc/bundles/redoc.standalone.js', type: 'text/javascript; charset=utf-8' },
};
const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const OPTIONS = {
  scrollYOffset: 'nav.kr',
  expandResponses: '200,201',
  jsonSampleExpandLevel: 4,
  requiredPropsFirst: true,
  hideDownloadButton: false,
  theme: { typography: { fontFamily: SYSTEM_FONTS, headings: { fontFamily: SYSTEM_FONTS }, code: { fontFamily: 'ui-monospace, monospace' } } },
};
const INIT = `Redoc.init('/openapi.json', ${JSON.stringify(OPTIONS)}, document.getElementById('reference'));`;

export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }) {
  const { file } = await ctx.params;
  const cache = { 'Cache-Control': 'public, max-age=86400' };
  if (file === 'init.js') return new Response(INIT, { headers: { 'Content-Type': 'text/javascript; charset=utf-8', ...cache } });
  const asset = FILES[file];
  if (!asset) return new Response('not found', { status: 404 });
  const body = await readFile(path.join(ROOT, asset.from));
  return new Response(new Uint8Array(body), { headers: { 'Content-Type': asset.type, ...cache } });
}
