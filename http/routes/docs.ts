// API reference pages: Redoc's standalone bundle, served from the installed `redoc` package by this
// service (no CDN, nothing fetched at run time), rendering the served /openapi.json.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { RouteTable } from '../context.ts';
import { sendPage } from '../pages.ts';

export const REFERENCE_SCRIPT_PATH = '/docs/redoc.standalone.js';

// Only this origin. Redoc styles itself with styled-components, which inserts <style> elements
// (hence 'unsafe-inline' for styles only), and runs its search index in a worker it creates from
// a blob: URL of its own bundle.
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  '<title>agent-inbox API reference</title></head><body>' +
  // The standalone bundle renders every <redoc spec-url> element it finds once loaded.
  `<redoc spec-url="/openapi.json"></redoc><script src="${REFERENCE_SCRIPT_PATH}"></script>` +
  '</body></html>';

const require = createRequire(import.meta.url);
let script: Promise<{ body: Buffer; etag: string }> | null = null;

/** The bundle (about 1 MB), read once on first use. */
function loadScript(): Promise<{ body: Buffer; etag: string }> {
  script ??= fs.readFile(require.resolve('redoc/bundles/redoc.standalone.js')).then((body) => {
    const version = (require('redoc/package.json') as { version: string }).version;
    return { body, etag: `"redoc-${version}-${body.length}"` };
  });
  return script;
}

export function docsRoutes(): RouteTable {
  return {
    getApiReference: async (ctx) => {
      sendPage(ctx, PAGE, DOCS_CSP);
    },
    getApiReferenceScript: async (ctx) => {
      const { body, etag } = await loadScript();
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.set('ETag', etag);
      ctx.type = 'application/javascript; charset=utf-8';
      if (ctx.get('if-none-match') === etag) {
        ctx.status = 304;
        return;
      }
      ctx.body = body;
    },
  };
}
