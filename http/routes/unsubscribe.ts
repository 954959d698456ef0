// List-Unsubscribe targets: a confirmation page (GET changes nothing: link scanners follow links)
// and the RFC 8058 one-click POST, which suppresses the message's recipients in the sending project.
import { unsubscribe, unsubscribeTarget } from '../../actors/contacts.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escape(title)}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">` +
  `<h1>${escape(title)}</h1>${body}</body></html>`;

const notValid = (ctx: ApiContext) => {
  ctx.status = 404;
  ctx.type = 'text/html';
  ctx.body = page('Link not valid', '<p>This unsubscribe link is not valid.</p>');
};

/** The form body, when there is one (at most a few KB; anything else is ignored). */
async function formField(ctx: ApiContext, name: string): Promise<string | null> {
  if (!ctx.is('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 8192) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get(name);
}

export function unsubscribeRoutes(s: Services): RouteTable {
  return {
    unsubscribePage: async (ctx) => {
      const target = await unsubscribeTarget(s.db, s.config, ctx.state.params.token!);
      if (!target) return notValid(ctx);
      const action = escape(ctx.path);
      const buttons = target.recipients
        .map(
          (email) =>
            `<form method="post" action="${action}"><input type="hidden" name="email" value="${escape(email)}">` +
            `<button type="submit">Unsubscribe ${escape(email)}</button></form>`,
        )
        .join('');
      ctx.type = 'text/html';
      ctx.body = page('Unsubscribe', `<p>Stop receiving mail from this sender at:</p>${buttons}`);
    },
    unsubscribe: async (ctx) => {
      const target = await unsubscribeTarget(s.db, s.config, ctx.state.params.token!);
      if (!target) return notValid(ctx);
      const only = await formField(ctx, 'email');
      const done = await unsubscribe(s.db, target, only);
      ctx.type = 'text/html';
      ctx.body = page('Unsubscribed', `<p>${done.map((r) => escape(r.email)).join(', ') || 'Nobody'} will not receive mail from this sender again.</p>`);
    },
  };
}
