// API reference pages: served by the service itself, renderer included, under a CSP of this origin only.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { test } from '../../testkit/test.ts';
import { startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });

test('/docs answers HTML that loads the renderer from this service and points it at /openapi.json', async () => {
  const r = await svc.api.get('/docs');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
  const scripts = [...r.text.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(scripts, ['/docs/redoc.standalone.js'], 'one script, from this origin');
  assert.match(r.text, /<redoc spec-url="\/openapi\.json">/);
  assert.doesNotMatch(r.text, /https?:\/\//, 'nothing is loaded from elsewhere');
});

test('/docs is served with a Content-Security-Policy that allows scripts and connections to this origin only', async () => {
  const r = await svc.api.get('/docs');
  const csp = Object.fromEntries(
    (r.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]),
  );
  assert.deepEqual(csp['default-src'], ["'none'"]);
  assert.deepEqual(csp['script-src'], ["'self'"]);
  assert.deepEqual(csp['connect-src'], ["'self'"]);
  assert.deepEqual(csp['frame-ancestors'], ["'none'"]);
  for (const values of Object.values(csp) as string[][]) {
    for (const v of values) assert.ok(!/^(https?:|\*|'unsafe-eval')/.test(v), `no remote source or eval: ${v}`);
  }
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
});

test('the renderer script answers 200 JavaScript from the installed package, and 304 when unchanged', async () => {
  const r = await svc.api.get('/docs/redoc.standalone.js');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/javascript/);
  assert.ok(r.text.length > 100_000, `the whole bundle (${r.text.length} bytes)`);
  assert.match(r.text, /Redoc/);
  const etag = r.headers.get('etag');
  assert.ok(etag);
  const again = await svc.api.get('/docs/redoc.standalone.js', undefined, { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
});

test('the document the page renders is served at /openapi.json', async () => {
  const r = await svc.api.get('/openapi.json');
  assert.equal(r.status, 200);
  assert.equal(r.body.openapi, '3.0.3');
  assert.ok(r.body.paths['/docs'], 'the reference pages are in the document too');
});

test('/docs/guides lists the README and every guide it names, each a page of this service', async () => {
  const r = await svc.api.get('/docs/guides');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
  const links = [...r.text.matchAll(/href="(\/docs\/guides\/[^"]+)"/g)].map((m) => m[1]);
  const readme = await fs.readFile('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('\n## Guides\n'), readme.indexOf('\n## ', readme.indexOf('\n## Guides\n') + 1));
  const named = [...section.matchAll(/\]\(docs\/([a-z0-9-]+)\.md\)/g)].map((m) => `/docs/guides/${m[1]}`);
  assert.ok(named.length >= 15, `the README's Guides section names the guides: ${named.length}`);
  assert.deepEqual(links, ['/docs/guides/README', ...named]);
  for (const link of links) {
    const page = await svc.api.get(link);
    assert.equal(page.status, 200, link);
    assert.match(page.text, /<h1[^>]*>/, `${link} renders its title`);
    assert.doesNotMatch(page.text, /href="(?:docs\/)?[a-z0-9-]+\.md/, `${link} links to pages, not to Markdown files`);
    assert.doesNotMatch(page.text, /<script/, `${link} runs no script`);
  }
});

test('a guide shows its pictures from this service, and an unknown guide is 404', async () => {
  const page = await svc.api.get('/docs/guides/console');
  const pictures = [...page.text.matchAll(/<img[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(pictures.length >= 3, pictures.join(', '));
  for (const src of pictures) {
    assert.match(src, /^\/docs\/guides\/[a-z0-9-]+\.png$/);
    const img = await svc.api.get(src);
    assert.equal(img.status, 200, src);
    assert.equal(img.headers.get('content-type'), 'image/png');
  }
  assert.equal((await svc.api.get('/docs/guides/no-such-guide')).status, 404);
  assert.equal((await svc.api.get('/docs/guides/no-such.png')).status, 404);
  assert.equal((await svc.api.get('/docs/guides/..%2Fpackage.json')).status, 400);
});
