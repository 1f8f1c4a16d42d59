export const dynamic = 'force-static';

/**
 * The API reference: Swagger UI (swagger-ui-dist, served from this app, no CDN) over /openapi.json. A plain HTML
 * answer rather than a React page: the renderer is a browser bundle of its own.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · KSeF Relay</title>
<link rel="stylesheet" href="/docs/api/assets/swagger-ui.css">
<style>body{margin:0} .topbar{display:none} nav.kr{font:14px system-ui,sans-serif;padding:12px 20px;border-bottom:1px solid #ddd} nav.kr a{margin-right:16px}</style>
</head>
<body>
<nav class="kr"><a href="/docs/api">API reference</a><a href="/docs/errors">Error codes</a><a href="/openapi.json">openapi.json</a></nav>
<div id="reference"></div>
<script src="/docs/api/assets/swagger-ui-bundle.js"></script>
<script src="/docs/api/assets/init.js"></script>
</body>
</html>`;

export const GET = () => new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
