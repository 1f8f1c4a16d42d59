export const dynamic = 'force-static';

/**
 * The API reference: Redoc (redoc's standalone bundle, served from this app, no CDN) over /openapi.json. Redoc
 * renders OpenAPI 3.1 and the operations' `x-codeSamples` (curl and SDK). A plain HTML answer rather than a React
 * page: the renderer is a browser bundle of its own. The policy keeps the page on this origin: nothing is fetched
 * from elsewhere (the bundle's attribution logo included); inline styles are how the bundle themes itself.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · KSeF Relay</title>
<link rel="icon" href="data:,">
<style>body{margin:0} nav.kr{position:sticky;top:0;z-index:10;font:14px system-ui,sans-serif;padding:12px 20px;border-bottom:1px solid #ddd;background:#fff} nav.kr a{margin-right:16px}</style>
</head>
<body>
<nav class="kr"><a href="/docs/api">API reference</a><a href="/docs/errors">Error codes</a><a href="/openapi.json">openapi.json</a></nav>
<div id="reference"></div>
<script src="/docs/api/assets/redoc.standalone.js"></script>
<script src="/docs/api/assets/init.js"></script>
</body>
</html>`;

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
].join('; ');

export const GET = () => new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY } });
