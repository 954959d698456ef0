// Review notifications end to end: real HTTP, real workers, a real SMTP relay on loopback and a
// real Chromium. A send that waits for a human mails the project's deciders with one-time links;
// the link's page decides only on its button, once, and only for the revision it was made for.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from '../../testkit/test.ts';
import { performNotify, sendDueDigests } from '../../actors/notifications.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage } from '../../testkit/browser.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';
import { recordingQueries } from '../../testkit/db.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay, type Received } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox } from './setup.ts';
import { linkReviewer, reviewerAgent } from './reviewer-setup.ts';

const browser = await launchBrowser();
const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SYSTEM_FROM: 'reviews@agents.test', REVIEW_NOTIFICATIONS: 'true', REVIEW_DEADLINE_SECONDS: '86400' } });
const db = svc.services.db;
const deps = { db, queue: svc.services.queue, config: svc.config, log: svc.services.log };

const mailsTo = (email: string) => relay.received.filter((m) => m.to.includes(email));
const waitMail = (email: string, what: string, n = 1) => waitFor(() => (mailsTo(email).length >= n ? mailsTo(email)[n - 1] : null), what);
/** A link of a notification mail, on this test's service (the mail names PUBLIC_BASE_URL). */
function linkIn(mail: Received, label: 'Approve' | 'Reject'): string {
  const m = new RegExp(`^${label}: (\\S+)$`, 'm').exec(mail.mail.text ?? '');
  assert.ok(m, `the mail has a ${label} link`);
  const u = new URL(m[1]!);
  return svc.url + u.pathname + u.search;
}
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const linkRow = async (url: string) => {
  const id = /\/v1\/decide\/(dl_[0-9a-z]+)_/.exec(url)![1];
  return (await db.query('SELECT * FROM decision_links WHERE id = $1', [id])).rows[0];
};

async function memberOf(t: Tenant, email: string, role: 'member' | 'viewer' = 'member') {
  const user = await upsertUser(db, `usr_${email.replace(/\W/g, '')}`, email);
  await insertMembership(db, { org_id: t.orgId, user_id: user.id, project_id: null, role });
  return { email, token: await svc.services.identity.mint!(email) };
}

async function waitingSend(t: Tenant, subject: string) {
  const agent = await agentWithInbox(svc, t);
  const r = await agent.send({ to: 'Dana <dana@acme.example>', subject, text: `Body of ${subject}.`, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  assert.equal(r.body.state, 'needs_review');
  return { agent, id: r.body.review_id as string };
}

test('a send that waits mails the owner its draft, intent, recipients and three links; Approve on the page sends the mail exactly once, and the link then decides nothing', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const { agent, id } = await waitingSend(t, 'Demo on Tuesday');
  const notice = await waitMail(t.email, 'the notification');
  assert.equal(notice.from, 'reviews@agents.test');
  const text = notice.mail.text ?? '';
  assert.match(text, /Body of Demo on Tuesday\./);
  assert.match(text, new RegExp(INTENT.summary));
  assert.match(text, /To: Dana <dana@acme\.example>/);
  assert.match(text, new RegExp(`Open in the console: \\S+/console/reviews/${id}$`, 'm'));
  const approve = linkIn(notice, 'Approve');
  linkIn(notice, 'Reject');
  const stored = await linkRow(approve);
  assert.equal(stored.token_hash.length, 32, 'only a digest of the token is stored');
  assert.ok(!JSON.stringify(stored).includes(new URL(approve).pathname.split('/').pop()!), 'the token itself is not stored');
  assert.equal(stored.revision, 1);
  assert.equal(stored.email, t.email);
  const deadline = (await svc.api.get(`${agent.A}/reviews/${id}`, t.consoleToken)).body.deadline_at;
  assert.equal(new Date(stored.expires_at).toISOString(), new Date(deadline).toISOString(), 'the link expires with the review\'s deadline');

  const visitor = await newVisitor(browser);
  const { page } = await openPage(visitor);
  await page.goto(approve);
  assert.equal(await page.textContent('#subject'), 'Demo on Tuesday');
  assert.match((await page.textContent('#draft')) ?? '', /Body of Demo on Tuesday/);
  assert.equal((await agent.review(id)).body.state, 'needs_review', 'opening the page decides nothing');
  await Promise.all([page.waitForNavigation(), page.click('#approve')]);
  assert.equal(await page.getAttribute('#done', 'data-state'), 'approved');
  await agent.until(id, 'sent');
  await waitFor(() => mailsTo('dana@acme.example').some((m) => m.mail.subject === 'Demo on Tuesday'), 'the approved mail');
  assert.equal(mailsTo('dana@acme.example').filter((m) => m.mail.subject === 'Demo on Tuesday').length, 1);

  // The same link again: its page and its button decide nothing.
  await page.goto(approve);
  assert.equal(await page.getAttribute('#why', 'data-why'), 'used');
  const again = await postForm(approve, { action: 'approve' });
  assert.equal(again.status, 409);
  assert.match(await again.text(), /data-why="used"/);
  assert.equal(mailsTo('dana@acme.example').filter((m) => m.mail.subject === 'Demo on Tuesday').length, 1, 'sent exactly once');

  const history = await svc.api.get(`${agent.A}/reviews/${id}/notifications`, t.consoleToken);
  assert.equal(history.status, 200, history.text);
  assert.deepEqual(history.body.decisions.map((d: any) => [d.action, d.email, d.via, d.revision]), [['approve', t.email, 'mail_link', 1]]);
  assert.deepEqual(history.body.notifications.map((n: any) => [n.reason, n.channel, n.email, n.status, n.route]), [['created', 'mail', t.email, 'sent', 'relay']]);
  // The console's review shows who decided and by which channel.
  const link = await createSignInLink(db, svc.services.identity, { email: t.email, baseUrl: svc.url, now: new Date() });
  const consolePage = (await openPage(visitor)).page;
  await consolePage.goto(link.url);
  await consolePage.getByRole('heading', { name: 'Review queue' }).waitFor();
  await consolePage.goto(`${svc.url}/console/reviews/${id}`);
  const decided = consolePage.getByRole('region', { name: 'Decisions and notices' });
  await decided.getByText(`approve by ${t.email} through a mail link, revision 1`).waitFor();
  await decided.getByText(`mail to ${t.email}: sent`).waitFor();
  const events = await db.query(`SELECT type, payload FROM events WHERE org_id = $1 AND type LIKE 'notification.%' ORDER BY id`, [t.orgId]);
  assert.deepEqual(events.rows.map((e) => [e.type, e.payload.review_id]), [
    ['notification.sent', id],
    ['notification.link_used', id],
    ['notification.link_refused', id],
  ]);
  await visitor.close();
});

test('a link previewed by GET (as a scanner would) changes nothing; Reject through the page records the feedback as the member\'s', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const { agent, id } = await waitingSend(t, 'Preview me');
  const notice = await waitMail(t.email, 'the notification');
  const approve = linkIn(notice, 'Approve');
  const reject = linkIn(notice, 'Reject');
  // A browser's preview of the link, and a scanner's plain GETs.
  const preview = await newVisitor(browser);
  await (await openPage(preview)).page.goto(approve);
  await preview.close();
  for (const url of [approve, reject, approve.replace(/\?.*$/, '')]) {
    const r = await fetch(url);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-security-policy') ?? '', /form-action 'self'/);
  }
  assert.equal((await agent.review(id)).body.state, 'needs_review');
  assert.equal((await linkRow(approve)).used_at, null);

  const visitor = await newVisitor(browser);
  const { page } = await openPage(visitor);
  await page.goto(reject);
  await page.fill('textarea[name=feedback]', 'Say which Tuesday.');
  await Promise.all([page.waitForNavigation(), page.click('#reject')]);
  assert.equal(await page.getAttribute('#done', 'data-state'), 'rejected');
  const review = await svc.api.get(`${agent.A}/reviews/${id}`, t.consoleToken);
  assert.equal(review.body.state, 'rejected');
  assert.deepEqual(review.body.feedback_history.map((f: any) => [f.kind, f.feedback, f.author_email]), [['reject', 'Say which Tuesday.', t.email]]);
  await visitor.close();
});

test('a link for a revision that is no longer current decides nothing and says why; the new revision is notified with its own links', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const { agent, id } = await waitingSend(t, 'First draft');
  const first = await waitMail(t.email, 'the first notification');
  const revised = await agent.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Second draft.' }, agent.key);
  assert.ok([200, 202].includes(revised.status), revised.text);
  const second = await waitMail(t.email, 'the revision notification', 2);
  assert.match(second.mail.text ?? '', /Second draft\./);

  const old = linkIn(first, 'Approve');
  const visitor = await newVisitor(browser);
  const { page } = await openPage(visitor);
  const shown = await page.goto(old);
  assert.equal(shown?.status(), 409);
  assert.equal(await page.getAttribute('#why', 'data-why'), 'superseded');
  assert.match((await page.getAttribute('a', 'href')) ?? '', new RegExp(`/console/reviews/${id}$`));
  assert.equal(await page.locator('button').count(), 0, 'no button to press');
  await visitor.close();
  const r = await postForm(old, { action: 'approve' });
  assert.equal(r.status, 409);
  assert.match(await r.text(), /data-why="superseded"/);
  const now = await agent.review(id);
  assert.equal(now.body.state, 'needs_review');
  assert.equal(now.body.revision, 2);

  const current = await postForm(linkIn(second, 'Approve'), { action: 'approve' });
  assert.equal(current.status, 200);
  await agent.until(id, 'sent');
});

test('a notify job that runs twice sends one mail', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const { id } = await waitingSend(t, 'Only once');
  await waitMail(t.email, 'the notification');
  const job = (await db.query(`SELECT data FROM pgboss.job WHERE name = 'review-notify' AND data->>'review_id' = $1 AND data->>'reason' = 'created'`, [id])).rows[0].data;
  assert.equal(await performNotify(deps, job), 'none');
  assert.equal(await performNotify(deps, job), 'none');
  assert.equal(mailsTo(t.email).length, 1);
});

test('digest and off preferences: the digest member gets one mail when the digest falls due, the off member nothing; another org\'s member nothing at all', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  const digest = await memberOf(t, `digest.${Date.now()}@people.example`);
  const off = await memberOf(t, `off.${Date.now()}@people.example`);
  const viewer = await memberOf(t, `viewer.${Date.now()}@people.example`, 'viewer');
  const other = await createTenant(svc, { plan: 'enterprise' });
  const set = await svc.api.request('PUT', `${A}/notification-preferences`, { body: { mode: 'digest', digest_minutes: 15 }, token: digest.token });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual([set.body.mode, set.body.digest_minutes], ['digest', 15]);
  assert.equal((await svc.api.request('PUT', `${A}/notification-preferences`, { body: { mode: 'off' }, token: off.token })).body.mode, 'off');
  assert.equal((await svc.api.get(`${A}/notification-preferences`, off.token)).body.mode, 'off');
  const bad = await svc.api.request('PUT', `${A}/notification-preferences`, { body: { mode: 'sometimes' }, token: off.token });
  assert.equal(bad.status, 400);

  const a = await waitingSend(t, 'Digest one');
  const b = await waitingSend(t, 'Digest two');
  await waitMail(t.email, 'the owner\'s instant notices', 2);
  await waitFor(async () => (await db.query(`SELECT count(*)::int AS n FROM review_notifications WHERE org_id = $1 AND delivery = 'digest'`, [t.orgId])).rows[0].n === 2, 'the digest notices recorded');
  assert.equal(mailsTo(digest.email).length, 0, 'nothing before the digest is due');

  assert.equal(await sendDueDigests(deps, new Date(Date.now() + 5 * 60_000)), 0, 'not due after 5 minutes');
  assert.equal(await sendDueDigests(deps, new Date(Date.now() + 16 * 60_000)), 1);
  const mail = await waitMail(digest.email, 'the digest');
  assert.match(mail.mail.subject ?? '', /Review digest: 2 notice/);
  assert.match(mail.mail.text ?? '', /Digest one[\s\S]*Digest two/);
  assert.equal(await sendDueDigests(deps, new Date(Date.now() + 60 * 60_000)), 0, 'a digest is sent once');
  // The digest's links decide like any other.
  const approve = linkIn(mail, 'Approve');
  assert.equal((await postForm(approve, { action: 'approve' })).status, 200);
  await a.agent.until(a.id, 'sent');
  assert.equal((await b.agent.review(b.id)).body.state, 'needs_review');

  assert.equal(mailsTo(off.email).length, 0);
  assert.equal(mailsTo(viewer.email).length, 0, 'a viewer may not decide and is not told');
  assert.equal(mailsTo(other.email).length, 0, 'another org\'s member is never told');
});

const noticesOf = async (reviewId: string) =>
  (await db.query(`SELECT reason, revision, delivery, status FROM review_notifications WHERE review_id = $1 ORDER BY created_at, reason`, [reviewId])).rows;
/** Notify jobs for a review, but its deadline reminder (a job: it falls due later). */
const notifyJobsOf = async (reviewId: string) =>
  (await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'review-notify' AND data->>'review_id' = $1 AND data->>'reason' <> 'deadline_near'`, [reviewId])).rows[0].n;

test('a decider who takes a digest has each notice written with the change that made it (waiting, revised, sent on its own), and no notify job is queued when nobody is told at once', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  assert.equal((await svc.api.request('PUT', `${A}/notification-preferences`, { body: { mode: 'digest', digest_minutes: 5 }, token: t.consoleToken })).status, 200);

  // Read right after each answer, without waiting: the notice committed with the review.
  const { agent, id } = await waitingSend(t, 'Digest only');
  assert.deepEqual(await noticesOf(id), [{ reason: 'created', revision: 1, delivery: 'digest', status: 'pending' }]);
  const revised = await agent.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Digest only, revised.' }, agent.key);
  assert.ok([200, 202].includes(revised.status), revised.text);
  assert.deepEqual((await noticesOf(id)).map((n) => [n.reason, n.revision]), [['created', 1], ['revised', 2]]);

  assert.equal((await svc.api.patch(`${A}/review-settings`, { first_contact_gate: false }, t.consoleToken)).status, 200);
  const cat = await svc.api.post(`${A}/categories`, { name: 'Digest status', risk: { graduate_min_approvals: 0, graduate_min_age_hours: 0 } }, t.consoleToken);
  assert.equal((await svc.api.post(`${A}/categories/${cat.body.id}/graduate`, {}, t.consoleToken)).body.rung, 'auto_notify');
  const auto = await agent.send({ to: 'ops@acme.example', subject: 'Digest green', text: 'Status: green.', intent: INTENT, category_id: cat.body.id });
  assert.equal(auto.body.outcome, 'released', auto.text);
  await agent.until(auto.body.review_id, 'auto_sent');
  assert.deepEqual(await noticesOf(auto.body.review_id), [{ reason: 'auto_sent', revision: 1, delivery: 'digest', status: 'pending' }]);

  assert.equal(await notifyJobsOf(id), 0, 'no job for a waiting review whose deciders all take a digest');
  assert.equal(await notifyJobsOf(auto.body.review_id), 0, 'no job for an auto-send whose deciders all take a digest');
  assert.equal(mailsTo(t.email).length, 0, 'nothing is mailed at once');

  // The digest tells the current revision only, and the mail that went out.
  assert.equal(await sendDueDigests(deps, new Date(Date.now() + 6 * 60_000)), 1);
  const digest = await waitMail(t.email, 'the digest');
  assert.match(digest.mail.subject ?? '', /Review digest: 2 notice/);
  assert.match(digest.mail.text ?? '', /Digest only, revised\.[\s\S]*Status: green\./);
  assert.deepEqual((await noticesOf(id)).map((n) => n.status), ['skipped', 'sent']);
});

test('a send held for a human reads who its deciders are with the review\'s insert, not in a round trip of its own, and writes their notice', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  assert.equal((await svc.api.request('PUT', `${A}/notification-preferences`, { body: { mode: 'digest', digest_minutes: 5 }, token: t.consoleToken })).status, 200);
  // The first prepares the statements on the connection the next one takes again.
  await waitingSend(t, 'Read ahead, first');
  const sent: string[] = [];
  const { id } = await recordingQueries(sent, () => waitingSend(t, 'Read ahead, second'));
  const insert = sent.find((q) => q.includes('EXECUTE "reviews-insert-within-limit"'));
  assert.ok(insert, sent.join('\n'));
  assert.match(insert, /EXECUTE "notifications-targets"\('[^']+', '[^']+'\); EXECUTE "reviews-insert-within-limit"/);
  assert.deepEqual(await noticesOf(id), [{ reason: 'created', revision: 1, delivery: 'digest', status: 'pending' }]);
});

test('with REVIEW_NOTIFICATIONS=false no notice is queued or written, not even for a decider who takes a digest', async () => {
  const quiet = await startTestService({ databaseUrl: svc.databaseUrl, env: { REVIEW_NOTIFICATIONS: 'false' } });
  assert.equal(quiet.services.queue.runs('review-notify'), false);
  assert.equal(quiet.services.queue.runs('review-chatops'), false);
  assert.equal(quiet.services.queue.runs('review-delivery'), true);
  const t = await createTenant(quiet, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  assert.equal((await quiet.api.request('PUT', `${A}/notification-preferences`, { body: { mode: 'digest' }, token: t.consoleToken })).status, 200);
  const agent = await agentWithInbox(quiet, t);
  const r = await agent.send({ to: 'Dana <dana@acme.example>', subject: 'Quiet', text: 'Quiet body.', intent: INTENT });
  assert.equal(r.body.state, 'needs_review', r.text);
  assert.deepEqual(await noticesOf(r.body.review_id), []);
  assert.equal(await notifyJobsOf(r.body.review_id), 0);
});

test('auto_notify: a mail that went out on its own is announced to the deciders, without decision links', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  assert.equal((await svc.api.patch(`${A}/review-settings`, { first_contact_gate: false }, t.consoleToken)).status, 200);
  const cat = await svc.api.post(`${A}/categories`, { name: 'Status', risk: { graduate_min_approvals: 0, graduate_min_age_hours: 0 } }, t.consoleToken);
  assert.equal((await svc.api.post(`${A}/categories/${cat.body.id}/graduate`, {}, t.consoleToken)).body.rung, 'auto_notify');
  const agent = await agentWithInbox(svc, t);
  const r = await agent.send({ to: 'ops@acme.example', subject: 'All green', text: 'Status: all green.', intent: INTENT, category_id: cat.body.id });
  assert.equal(r.body.outcome, 'released', r.text);
  await agent.until(r.body.review_id, 'auto_sent');
  const notice = await waitMail(t.email, 'the auto-sent notice');
  assert.match(notice.mail.subject ?? '', /sent on its own/);
  assert.match(notice.mail.text ?? '', /Status: all green\./);
  assert.doesNotMatch(notice.mail.text ?? '', /^Approve:/m);
});

test('chat-ops: the project\'s incoming webhook gets a short message with the console link; a private target is refused without WEBHOOK_ALLOW_PRIVATE', async () => {
  const got: any[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ type: req.headers['content-type'], body: JSON.parse(body) });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  after(() => receiver.close());
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const t = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  const set = await svc.api.request('PUT', `${A}/chatops`, { body: { webhook_url: url }, token: t.consoleToken });
  assert.equal(set.status, 200, set.text);
  assert.equal(set.body.webhook_url, url);
  const { id } = await waitingSend(t, 'Chat me');
  const message = await waitFor(() => got.find((g) => g.body.text.includes('Chat me')), 'the chat-ops message');
  assert.equal(message.type, 'application/json');
  assert.match(message.body.text, new RegExp(`/console/reviews/${id}`));
  await waitFor(async () => {
    const h = await svc.api.get(`${A}/reviews/${id}/notifications`, t.consoleToken);
    return h.body.notifications.some((n: any) => n.channel === 'chatops' && n.status === 'sent');
  }, 'the chat-ops notice in the history');

  const strict = await startTestService({ roles: ['api'], databaseUrl: svc.databaseUrl, env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
  const strictToken = await strict.services.identity.mint!(t.email);
  const refused = await strict.api.request('PUT', `${A}/chatops`, { body: { webhook_url: 'http://127.0.0.1:9/hook' }, token: strictToken });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.errors[0].field, 'webhook_url');
  assert.equal(refused.body.errors[0].code, 'target_refused');
});


test('a waiting review near its deadline is announced again, a tenth of its wait before the deadline; once decided, the reminder is moot', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const { agent, id } = await waitingSend(t, 'Deadline soon');
  await waitMail(t.email, 'the first notification');
  const { rows } = await db.query(
    `SELECT data, start_after, created_on FROM pgboss.job WHERE name = 'review-notify' AND data->>'review_id' = $1 AND data->>'reason' = 'deadline_near'`,
    [id],
  );
  assert.equal(rows.length, 1, 'one reminder is armed');
  const wait = svc.config.reviewDeadlineSeconds!;
  const lead = (new Date(rows[0].start_after).getTime() - new Date(rows[0].created_on).getTime()) / 1000;
  assert.ok(Math.abs(lead - (wait - Math.min(3600, Math.floor(wait / 10)))) < 5, `armed ${lead} s ahead`);
  // The job falls due: run it as its worker would.
  assert.equal(await performNotify(deps, rows[0].data), 'sent');
  const reminder = await waitMail(t.email, 'the reminder', 2);
  assert.match(reminder.mail.subject ?? '', /near its deadline/);
  assert.equal((await postForm(linkIn(reminder, 'Reject'), { action: 'reject', feedback: 'Too late.' })).status, 200);
  assert.equal((await agent.review(id)).body.state, 'rejected');
  assert.equal(await performNotify(deps, { ...rows[0].data, key: 'deadline_near:again' }), 'moot');
});

test('a review routed to a reviewer agent tells no human; handed back at its hop limit, it waits for the human and the deciders are told', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const reviewer = await reviewerAgent(svc, t);
  const link = await linkReviewer(svc, t, { reviewer_agent_id: reviewer.agentId, transport: 'sse', max_hops: 1, escalate_after_s: 3600 });
  assert.equal(link.status, 201, link.text);
  const { agent, id } = await waitingSend(t, 'Agent first');
  assert.equal((await agent.review(id)).body.route, 'reviewer_agent');
  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 200);
  const back = await reviewer.decide(id, { action: 'hand_back', feedback: 'A human should see this.' });
  assert.equal(back.status, 200, back.text);
  const notice = await waitMail(t.email, 'the hand-back notice');
  assert.match(notice.mail.subject ?? '', /handed a draft back/);
  const history = await svc.api.get(`${agent.A}/reviews/${id}/notifications`, t.consoleToken);
  assert.deepEqual(history.body.notifications.map((n: any) => n.reason), ['handed_back'], 'nothing was sent while the reviewer agent had it');
  assert.equal((await postForm(linkIn(notice, 'Approve'), { action: 'approve' })).status, 200);
  await agent.until(id, 'sent');
});

test('a member who may no longer decide cannot use their link; an expired link decides nothing', async () => {
  const t = await createTenant(svc, { plan: 'enterprise' });
  const colleague = await memberOf(t, `leaver.${Date.now()}@people.example`);
  const { agent, id } = await waitingSend(t, 'Leaver');
  const notice = await waitMail(colleague.email, 'the colleague\'s notice');
  await db.query(`UPDATE memberships SET role = 'viewer' WHERE org_id = $1 AND user_id = (SELECT id FROM users WHERE email = $2)`, [t.orgId, colleague.email]);
  const r = await postForm(linkIn(notice, 'Approve'), { action: 'approve' });
  assert.equal(r.status, 409);
  assert.match(await r.text(), /data-why="not_member"/);

  const own = await waitMail(t.email, 'the owner\'s notice');
  const approve = linkIn(own, 'Approve');
  await db.query(`UPDATE decision_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [(await linkRow(approve)).id]);
  const expired = await postForm(approve, { action: 'approve' });
  assert.equal(expired.status, 409);
  assert.match(await expired.text(), /data-why="expired"/);
  assert.equal((await agent.review(id)).body.state, 'needs_review');
});
