// Small server-rendered pages (problem types, the API reference shell): escaping and the headers
// that keep them inert. Each page says exactly what it may load through its Content-Security-Policy.
import type { ApiContext } from './context.ts';

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Registry texts mark code with backticks, as in Markdown; nothing else is interpreted. */
export const inlineCode = (s: string): string =>
  escapeHtml(s).replace(/`([^`]+)`/g, (_m, code: string) => `<code>${code}</code>`);

/** Pages with no script at all: only their own inline styles. */
export const STATIC_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function sendPage(ctx: ApiContext, html: string, csp: string = STATIC_PAGE_CSP): void {
  ctx.set('Content-Security-Policy', csp);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

export const pageShell = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}` +
  `code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse}td,th{text-align:left;vertical-align:top;padding:.3em .6em;border-bottom:1px solid #ddd}</style>` +
  `</head><body>${body}</body></html>`;
