// Nothing an agent writes leaves without a human seeing it, in a real Chromium: while a review is
// on screen the agent revises it (a refund of $50 becomes $5,000). Whether the change reaches the
// page before the key or only as a 409 after it, the key sends nothing the page did not show; the
// page then shows the new revision against the old, and only a key pressed after that decides, on
// exactly the revision on screen. The same for the queue's preview pane, for x, and for the edit,
// reject and chat forms.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { feedbackOf, focused, noPageErrors, queue, received, reviewNow, revise, select, showsRevision, startKit } from './queue-kit.ts';

const k = await startKit();
const { page, log, relay } = k;
const FIRST = 'Hello Dana,\nwe refund $50.\nBest';
const SECOND = 'Hello Dana,\nwe refund $5,000.\nBest';

/** Opens the review on its own page (Enter from the queue), showing revision 1. */
async function openOwnPage(id: string): Promise<void> {
  await select(page, id);
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/console/reviews/${id}`);
  await showsRevision(page, id, 1);
}

const sentNothing = (subject: string) => assert.equal(relay.received.some((m) => m.mail.subject === subject), false, 'the relay got nothing');
/** What the page says after a key that sent nothing: the revision now on screen. */
const onScreenNow = (revision: number) => page.getByText(`Revision ${revision} is on screen`).first().waitFor();

test('the agent revises while the review is open: a sends nothing until the page shows revision 2 and a is pressed again', async () => {
  const id = await queue(k, 'Refund, open page', FIRST);
  await openOwnPage(id);
  await revise(k, id, 1, SECOND);
  // The key may beat the live update (a 409) or follow it (held): either way nothing is sent.
  await page.keyboard.press('a');
  await showsRevision(page, id, 2);
  await onScreenNow(2);
  assert.notEqual((await reviewNow(k, id)).state, 'approved');
  sentNothing('Refund, open page');
  // What changed is on screen against what was there.
  const changed = page.getByRole('region', { name: /Changed while open/ });
  assert.match(await changed.innerText(), /removed:\s*we refund \$50\.[\s\S]*added:\s*we refund \$5,000\./);
  await page.keyboard.press('a');
  const mail = await received(k, 'Refund, open page');
  assert.match(mail.mail.text!, /we refund \$5,000\./);
  noPageErrors(log, /409/);
});

test('a revision the page has already drawn: the first a only confirms it was seen, the second sends that revision', async () => {
  const id = await queue(k, 'Refund, seen first', FIRST);
  await openOwnPage(id);
  await revise(k, id, 1, SECOND);
  await showsRevision(page, id, 2);
  await page.getByText('Decisions wait').waitFor();
  await page.keyboard.press('a');
  await page.getByRole('status').getByText('Nothing was sent: this review changed while it was open. Revision 2 is on screen; press a again to approve it.').waitFor();
  assert.notEqual((await reviewNow(k, id)).state, 'approved');
  await page.keyboard.press('a');
  const mail = await received(k, 'Refund, seen first');
  assert.match(mail.mail.text!, /we refund \$5,000\./);
  noPageErrors(log);
});

test("a revision between the queue's render and a: the preview pane's review is what a decides on, after it shows the change", async () => {
  const id = await queue(k, 'Refund, in the queue', FIRST);
  await select(page, id);
  await showsRevision(page, id, 1);
  await revise(k, id, 1, SECOND);
  await page.keyboard.press('a');
  await showsRevision(page, id, 2);
  await onScreenNow(2);
  assert.notEqual((await reviewNow(k, id)).state, 'approved');
  sentNothing('Refund, in the queue');
  await page.keyboard.press('a');
  const mail = await received(k, 'Refund, in the queue');
  assert.match(mail.mail.text!, /we refund \$5,000\./);
  noPageErrors(log, /409/);
});

test('x asks first; a revision while it asks holds the confirmation, which then cancels the revision on screen', async () => {
  const id = await queue(k, 'Refund, cancel', FIRST);
  await openOwnPage(id);
  await page.keyboard.press('x');
  await focused(page, 'Why cancel (optional)');
  assert.notEqual((await reviewNow(k, id)).state, 'cancelled', 'x alone cancels nothing');
  await revise(k, id, 1, SECOND);
  await showsRevision(page, id, 2);
  await page.keyboard.press('Control+Enter');
  await onScreenNow(2);
  assert.notEqual((await reviewNow(k, id)).state, 'cancelled');
  await page.keyboard.press('Control+Enter');
  const cancelled = await k.agent.until(id, 'cancelled');
  assert.equal(cancelled.revision, 2);
  sentNothing('Refund, cancel');
  noPageErrors(log, /409/);
});

test('an edit open while the agent revises: its diff is against the revision on screen, and the edit is sent on it', async () => {
  const id = await queue(k, 'Refund, edit', FIRST);
  await openOwnPage(id);
  await page.keyboard.press('e');
  await focused(page, 'Text');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nP.S. Call me.');
  await revise(k, id, 1, SECOND);
  await showsRevision(page, id, 2);
  // The form keeps what the human typed; its diff now reads against revision 2.
  await page.keyboard.press('Control+Enter');
  const changes = page.getByRole('region', { name: 'Changes to send' });
  await changes.waitFor();
  assert.match(await changes.innerText(), /removed:\s*we refund \$5,000\.[\s\S]*added:\s*we refund \$50\.[\s\S]*added:\s*P\.S\. Call me\./);
  sentNothing('Refund, edit');
  await page.keyboard.press('Control+Enter');
  const mail = await received(k, 'Refund, edit');
  assert.equal(mail.mail.text!.trim(), `${FIRST}\nP.S. Call me.`);
  const edit = (await feedbackOf(k, id)).find((f: any) => f.kind === 'edit');
  assert.equal(edit.revision, 2, 'the edit was decided on revision 2');
  noPageErrors(log, /409/);
});

for (const [verb, key, label, text, state, field] of [
  ['reject', 'r', 'Feedback for the agent', 'Refunds need a manager.', 'rejected', 'feedback'],
  ['chat', 'c', 'Message to the agent', 'Why so much?', 'chatting', 'message'],
] as const) {
  test(`a ${verb} form open while the agent revises: Ctrl+Enter first confirms the change was seen, then sends on revision 2`, async () => {
    const subject = `Refund, ${verb}`;
    const id = await queue(k, subject, FIRST);
    await openOwnPage(id);
    await page.keyboard.press(key);
    await focused(page, label);
    await page.keyboard.type(text);
    await revise(k, id, 1, SECOND);
    await page.keyboard.press('Control+Enter');
    await showsRevision(page, id, 2);
    await onScreenNow(2);
    assert.equal((await feedbackOf(k, id)).some((f: any) => f[field] === text), false, 'nothing was sent');
    await focused(page, label); // the form and its text stay
    await page.keyboard.press('Control+Enter');
    await k.agent.until(id, state);
    const note = (await feedbackOf(k, id)).find((f: any) => f[field] === text);
    assert.equal(note.revision, 2);
    sentNothing(subject);
    noPageErrors(log, /409/);
  });
}

test("the agent's chat answer, which keeps the revision and reaches no stream, still stops a until it is shown", async () => {
  const id = await queue(k, 'Refund, chat answer', FIRST);
  await openOwnPage(id);
  await page.keyboard.press('c');
  await focused(page, 'Message to the agent');
  await page.keyboard.type('Why $50?');
  await page.keyboard.press('Control+Enter');
  await k.agent.until(id, 'chatting');
  await page.locator('dd').filter({ hasText: 'chatting' }).waitFor();
  const answer = await k.svc.api.post(`/v1/reviews/${id}/chat`, { message: 'The blender cost $5,000.' }, k.agent.key);
  assert.equal(answer.status, 200, answer.text);
  await page.keyboard.press('a');
  await onScreenNow(1);
  const changed = page.getByRole('region', { name: /Changed while open/ });
  await changed
    .getByText('The blender cost $5,000.')
    .waitFor()
    .catch(async (err: Error) => {
      // What the page showed instead, so that a failure says which way it went.
      const shown = await page.locator('article[data-review-shown]').getAttribute('data-revision').catch(() => null);
      const text = await changed.innerText({ timeout: 1_000 }).catch(() => '(no such region)');
      const status = await page.getByRole('status').innerText({ timeout: 1_000 }).catch(() => '');
      throw new Error(`${err.message}\nrevision shown: ${shown}\nchanged region: ${text}\nstatus: ${status}\nreview now: ${JSON.stringify(await reviewNow(k, id))}`);
    });
  assert.equal((await reviewNow(k, id)).state, 'chatting', 'nothing was decided');
  sentNothing('Refund, chat answer');
  await page.keyboard.press('a');
  const mail = await received(k, 'Refund, chat answer');
  assert.match(mail.mail.text!, /we refund \$50\./);
  noPageErrors(log);
});

for (const [how, key, form] of [
  ['a', 'a', null],
  ['the reject form', 'r', 'Feedback for the agent'],
] as const) {
  test(`when the review cannot be read again just before ${how} sends, nothing is sent and the page says so`, async () => {
    const subject = `Refund, unread before ${key}`;
    const id = await queue(k, subject, FIRST);
    await openOwnPage(id);
    if (form) {
      await page.keyboard.press(key);
      await focused(page, form);
      await page.keyboard.type('Not this way.');
    }
    // From here the review's own record cannot be read (its notices and thread still can).
    const own = (url: URL) => url.pathname.endsWith(`/reviews/${id}`);
    await page.route(own, (route) => (route.request().method() === 'GET' ? route.abort('failed') : route.continue()));
    await page.keyboard.press(form ? 'Control+Enter' : key);
    const again = form ? 'Ctrl\\+Enter' : key;
    await page.getByRole('status').getByText(new RegExp(`Nothing was sent: the review could not be read again .* Press ${again} to try again\\.`)).waitFor();
    const now = await reviewNow(k, id);
    assert.equal(now.state, 'needs_review', 'nothing was decided');
    sentNothing(subject);
    await page.unroute(own);
    await page.keyboard.press(form ? 'Control+Enter' : key);
    if (form) {
      const rejected = await k.agent.until(id, 'rejected');
      assert.equal(rejected.revision, 1);
    } else {
      const mail = await received(k, subject);
      assert.match(mail.mail.text!, /we refund \$50\./);
    }
    noPageErrors(log, /ERR_FAILED|Failed to fetch/);
  });
}
