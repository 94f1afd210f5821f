import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ApiApp } from '../../http/env';

// The API reference is Swagger UI served from the installed swagger-ui-dist package:
// no CDN, so it works offline and under a strict CSP.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const ASSET_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Memory Bank API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false });`;

export function registerDocsRoutes(app: ApiApp) {
  const cache = new Map<string, Buffer>();
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/docs/:asset', async (c, next) => {
    const asset = c.req.param('asset');
    const type = ASSETS[asset];
    if (!type) return next();
    let body = cache.get(asset);
    if (!body) {
      body = await readFile(join(ASSET_DIR, asset));
      cache.set(asset, body);
    }
    return c.body(new Uint8Array(body), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
}
