// API reference pages: Redoc's standalone bundle, served from the installed `redoc` package by this
// service (no CDN, nothing fetched at run time), rendering the served /openapi.json.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { marked } from 'marked';
import { notFound } from '../../machines/problems.ts';
import type { RouteTable } from '../context.ts';
import { escapeHtml, sendPage, STATIC_PAGE_CSP } from '../pages.ts';

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

const ROOT = path.resolve(import.meta.dirname, '../..');
const GUIDES_CSP = STATIC_PAGE_CSP.replace("default-src 'none'", "default-src 'none'; img-src 'self'");

/** The guides in reading order: the README first, then the pages its Guides section lists. */
async function guideNames(): Promise<string[]> {
  const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
  const section = /^## Guides\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
  return ['README', ...[...section.matchAll(/\]\(docs\/([a-z0-9-]+)\.md\)/g)].map((m) => m[1]!)];
}

/** Links between the guides (`docs/x.md` from the README, `x.md` or `../README.md` inside docs/) become these pages. */
function pageLinks(html: string): string {
  return html
    .replace(/(href|src)="(?:\.\.\/)?README\.md(#[^"]*)?"/g, (_m, attr: string, hash = '') => `${attr}="/docs/guides/README${hash}"`)
    .replace(/(href|src)="(?:docs\/)?([a-z0-9-]+)\.md(#[^"]*)?"/g, (_m, attr: string, name: string, hash = '') => `${attr}="/docs/guides/${name}${hash}"`)
    .replace(/(href|src)="(?:docs\/)?([a-z0-9-]+\.png)"/g, (_m, attr: string, name: string) => `${attr}="/docs/guides/${name}"`);
}

const guideShell = (title: string, body: string): string =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  `<title>${escapeHtml(title)} · agent-inbox</title>` +
  '<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.55}' +
  'pre{background:#f5f5f5;padding:.8em;overflow-x:auto}code{background:#f3f3f3;padding:0 .2em}img{max-width:100%}' +
  'table{border-collapse:collapse}td,th{text-align:left;vertical-align:top;padding:.3em .6em;border-bottom:1px solid #ddd}' +
  '@media (prefers-color-scheme: dark){body{background:#16181c;color:#e6e6e6}a{color:#8ab4ff}pre,code{background:#24272e}}</style>' +
  `</head><body><nav><a href="/docs/guides">Guides</a> · <a href="/docs">API reference</a></nav>${body}</body></html>`;

export function docsRoutes(): RouteTable {
  return {
    listGuides: async (ctx) => {
      const names = await guideNames();
      const items = await Promise.all(
        names.map(async (name) => {
          const text = await fs.readFile(name === 'README' ? path.join(ROOT, 'README.md') : path.join(ROOT, 'docs', `${name}.md`), 'utf8');
          const title = /^# (.+)$/m.exec(text)?.[1] ?? name;
          return `<li><a href="/docs/guides/${name}">${escapeHtml(title)}</a></li>`;
        }),
      );
      sendPage(ctx, guideShell('Guides', `<h1>agent-inbox guides</h1><ul>${items.join('')}</ul>`), GUIDES_CSP);
    },
    getGuide: async (ctx) => {
      const page = ctx.params.page!;
      if (page.endsWith('.png')) {
        const picture = await fs.readFile(path.join(ROOT, 'docs', page)).catch(() => null);
        if (!picture) throw notFound('guide picture');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = 'image/png';
        ctx.body = picture;
        return;
      }
      if (!(await guideNames()).includes(page)) throw notFound('guide');
      const text = await fs.readFile(page === 'README' ? path.join(ROOT, 'README.md') : path.join(ROOT, 'docs', `${page}.md`), 'utf8');
      const title = /^# (.+)$/m.exec(text)?.[1] ?? page;
      sendPage(ctx, guideShell(title, pageLinks(await marked.parse(text))), GUIDES_CSP);
    },
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
