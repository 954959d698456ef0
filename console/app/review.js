// One review as the human decides on it, drawn from one object (decision.js's `shown`): every
// decision sent carries that object's revision. A change that reaches it (a revision, a chat, a
// hand-back, a cancel) is shown against what was on screen, and the next decision key waits for the
// human to look again. The same pane is the queue's preview and the review's own page (`full`:
// the conversation, feedback history and machine too).
import { ApiError, get, post } from './api.js';
import * as D from './decision.js';
import { DiffView, diffLines } from './diff.js';
import { MachineView } from './machine.js';
import { Conversation, whoList } from './thread.js';
import { When } from './time.js';
import { typingIn } from './keys.js';
import { html, useEffect, useRef, useState } from './ui.js';

const VERB_KEYS = { approve: 'a', edit: 'e', reject: 'r', chat: 'c', cancel: 'x' };
/** Verbs that first open a form (cancel asks for a confirmation). */
const FORM_VERBS = ['edit', 'reject', 'chat', 'cancel'];
/** Decisions after which the review is no longer the human's to work. */
export const FINISHING = ['approve', 'edit', 'reject', 'cancel'];
const TO_DO = { approve: 'approve it', edit: 'send the edit', reject: 'reject it', chat: 'send the message', cancel: 'cancel it' };

/** Ctrl+Enter (Cmd+Enter) submits and Escape discards, in every form; keys stay in the form. */
const formKeys = (submit, discard) => (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  else if (e.key === 'Escape') discard();
  else return;
  e.preventDefault();
  e.stopPropagation();
};

function EditForm({ review, decide, onLook, onDiscard }) {
  const [subject, setSubject] = useState(review.draft.subject ?? '');
  const [text, setText] = useState(review.draft.text ?? '');
  const [preview, setPreview] = useState(false);
  const [problem, setProblem] = useState(null);
  const textRef = useRef(null);
  const sendRef = useRef(null);
  useEffect(() => textRef.current?.focus(), []);
  useEffect(() => (preview ? sendRef.current?.focus() : textRef.current?.focus()), [preview]);
  // Against the draft on screen now: a revision that arrived meanwhile shows in this diff too.
  const changes = () => {
    const out = {};
    if (subject !== (review.draft.subject ?? '')) out.subject = subject;
    if (text !== (review.draft.text ?? '')) out.text = text;
    return out;
  };
  const c = changes();
  const step = () => {
    if (!Object.keys(c).length) return setProblem('Nothing changed yet.');
    setProblem(null);
    // The diff, drawn against the draft on screen now, is a look at it: a change shown before it
    // does not hold the send that follows (one arriving while the diff is up does).
    if (!preview) return onLook(), setPreview(true);
    decide('edit', c, 'Ctrl+Enter');
  };
  return html`<form class="edit" aria-label="Edit the draft" onSubmit=${(e) => (e.preventDefault(), step())}
      onKeyDown=${formKeys(step, () => (preview ? setPreview(false) : onDiscard()))}>
    <label for="edit-subject">Subject</label>
    <input id="edit-subject" value=${subject} onInput=${(e) => (setSubject(e.target.value), setPreview(false))} />
    <label for="edit-text">Text</label>
    <textarea id="edit-text" ref=${textRef} rows="10" value=${text} onInput=${(e) => (setText(e.target.value), setPreview(false))}></textarea>
    ${problem && html`<p role="alert" class="error">${problem}</p>`}
    ${preview && Object.keys(c).length
      ? html`<section aria-label="Changes to send">
          <h3>Changes to send</h3>
          ${'subject' in c && html`<${DiffView} field="subject" lines=${diffLines(review.draft.subject ?? '', c.subject)} />`}
          ${'text' in c && html`<${DiffView} field="text" lines=${diffLines(review.draft.text ?? '', c.text)} />`}
          <button type="submit" ref=${sendRef}>Send edit <kbd>Ctrl+Enter</kbd></button>
          <button type="button" onClick=${() => setPreview(false)}>Keep editing <kbd>Esc</kbd></button>
        </section>`
      : html`<button type="submit">Show changes <kbd>Ctrl+Enter</kbd></button>`}
    <button type="button" onClick=${onDiscard}>Discard</button>
  </form>`;
}

const NOTE_FORMS = {
  reject: { label: 'Feedback for the agent', field: 'feedback', submit: 'Reject', required: false },
  chat: { label: 'Message to the agent', field: 'message', submit: 'Send message', required: true },
  cancel: { label: 'Why cancel (optional)', field: 'feedback', submit: 'Cancel the review', required: false },
};

function NoteForm({ action, decide, onDiscard }) {
  const f = NOTE_FORMS[action];
  const [value, setValue] = useState('');
  const ref = useRef(null);
  useEffect(() => ref.current?.focus(), []);
  const submit = () => {
    if (f.required && !value.trim()) return;
    decide(action, { [f.field]: value || null }, 'Ctrl+Enter');
  };
  return html`<form class="note" aria-label=${action === 'cancel' ? 'Confirm the cancel' : f.submit} onSubmit=${(e) => (e.preventDefault(), submit())} onKeyDown=${formKeys(submit, onDiscard)}>
    ${action === 'cancel' && html`<p><strong>Cancel this review?</strong> Nothing will be sent.</p>`}
    <label for=${`note-${action}`}>${f.label}</label>
    <textarea id=${`note-${action}`} ref=${ref} rows="4" value=${value} onInput=${(e) => setValue(e.target.value)} required=${f.required}></textarea>
    <button type="submit">${f.submit} <kbd>Ctrl+Enter</kbd></button>
    <button type="button" onClick=${onDiscard}>${action === 'cancel' ? 'Keep it' : 'Discard'} <kbd>Esc</kbd></button>
  </form>`;
}

function Note({ f }) {
  return html`<p><strong>${f.kind}</strong> by ${f.author_email ?? f.author}, revision ${f.revision}, <${When} at=${f.created_at} /></p>
    ${f.feedback && html`<blockquote>${f.feedback}</blockquote>`}
    ${f.message && html`<blockquote>${f.message}</blockquote>`}`;
}

function History({ items }) {
  if (!items.length) return html`<p>No feedback yet.</p>`;
  return html`<ol class="history">
    ${items.map((f) => html`<li><${Note} f=${f} />${(f.diff ?? []).map((d) => html`<${DiffView} field=${d.field} lines=${d.lines} />`)}</li>`)}
  </ol>`;
}

const VIA = { console: 'in the console', mail_link: 'through a mail link', mail_reply: 'by replying to a notice' };

/** Who decided, through which channel, and the notices the deciders were sent. */
function Decided({ base, review }) {
  const [history, setHistory] = useState(null);
  useEffect(() => {
    get(`${base}/reviews/${review.id}/notifications`).then(setHistory, () => setHistory(null));
  }, [base, review.id, review.version]);
  if (!history || (history.decisions.length === 0 && history.notifications.length === 0)) return null;
  return html`<section aria-labelledby="decided-title"><h2 id="decided-title">Decisions and notices</h2>
    <ul>
      ${history.decisions.map((d) => html`<li>${d.action} by ${d.email} ${VIA[d.via] ?? d.via}, revision ${d.revision}, <${When} at=${d.at} /></li>`)}
      ${history.notifications.map((n) => html`<li>${n.channel} to ${n.email ?? 'the chat-ops channel'}: ${n.status}</li>`)}
    </ul>
  </section>`;
}

/** What changed against what was on screen, until the human decides. */
function Changed({ change, held }) {
  return html`<section class="changed" aria-labelledby="changed-title">
    <h2 id="changed-title">Changed while open${change.to_revision !== change.from_revision ? `: revision ${change.from_revision} → ${change.to_revision}` : ''}</h2>
    ${held && html`<p><strong>Decisions wait:</strong> look at what changed; the next decision key only confirms you have.</p>`}
    ${change.state && html`<p>State: ${change.state.before} → <strong>${change.state.after}</strong></p>`}
    ${change.fields.map((f) => html`<${DiffView} field=${f.field} lines=${diffLines(f.before, f.after)} />`)}
    ${change.notes.length > 0 && html`<ul>${change.notes.map((f) => html`<li><${Note} f=${f} /></li>`)}</ul>`}
  </section>`;
}

/** Category name and rung, and whether the draft was composed under the current rules. */
function Standing({ base, review }) {
  const [cat, setCat] = useState(null);
  useEffect(() => {
    if (!review.category_id) return;
    get(`${base}/categories`).then((p) => setCat(p.data.find((c) => c.id === review.category_id) ?? null), () => {});
  }, [review.category_id]);
  const rules = review.rules_stale
    ? html`<strong>stale</strong>: composed under rules ${review.rules_version}, the rules are at ${review.current_rules_version}`
    : review.current_rules_version === undefined
      ? `${review.rules_version}`
      : `${review.rules_version}, current`;
  return html`<dt>Category</dt><dd>${review.category_id ? (cat ? html`${cat.name}, rung <strong>${cat.rung}</strong>` : review.category_id) : '—'}</dd>
    <dt>Rules version</dt><dd>${rules}</dd>`;
}

/**
 * `id`: the review; `feed`: the project's review events; `full`: the review's own page;
 * `onDecided(action, review)`: after a decision the service applied.
 */
export function ReviewPane({ base, id, feed, full, inbox, onDecided, announce }) {
  const [ds, setDsState] = useState(D.initialDecisionState());
  const dsRef = useRef(ds);
  const setDs = (next) => ((dsRef.current = next), setDsState(next));
  const [problem, setProblem] = useState(null);
  const [mode, setMode] = useState(null);
  const [conflict, setConflict] = useState(null);
  const [showMachine, setShowMachine] = useState(false);
  const heading = useRef(null);
  const url = `${base}/reviews/${id}`;

  const load = () =>
    get(url).then(
      (r) => setDs(D.reviewArrived(dsRef.current, r)),
      (err) => !dsRef.current.shown && setProblem(err.status === 404 ? 'No such review in this project.' : err.message),
    );
  useEffect(() => {
    load().then(() => full && heading.current?.focus());
    return feed?.subscribe((e) => e.review_id === id && load());
  }, [id]);

  /** Every decision of the pane goes through here, and through decision.js's rule. */
  const decide = async (action, fields = {}, again = VERB_KEYS[action]) => {
    const r = D.requestDecision(dsRef.current, action, fields);
    setDs(r.state);
    if (!r.send) {
      if (r.why === 'look_again') announce(`Nothing was sent: this review changed while it was open. Revision ${r.state.shown.revision} is on screen; press ${again} again to ${TO_DO[action]}.`);
      if (r.why === 'not_allowed') announce(`Cannot ${action}: the review is ${r.state.shown.state}.`);
      return false;
    }
    const shown = r.state.shown;
    try {
      let unread = null;
      const fresh = await get(url).catch((err) => ((unread = err), null));
      const checked = D.checkedBeforeSend(dsRef.current, fresh);
      if (!checked.go) {
        setDs(checked.state);
        announce(
          unread
            ? `Nothing was sent: the review could not be read again to check it is what is on screen (${unread.message}). Press ${again} to try again.`
            : `Nothing was sent: this review changed while it was open. Revision ${checked.state.shown.revision} is on screen; press ${again} again to ${TO_DO[action]}.`,
        );
        return false;
      }
      // A human chats on an open review: one still waiting is opened first, as the machine asks.
      if (action === 'chat' && shown.state === 'needs_review') await post(`${url}/decision`, { action: 'open', parent_revision: r.send.parent_revision });
      const after = await post(`${url}/decision`, r.send);
      setDs(D.decisionApplied(dsRef.current, after));
      setConflict(null);
      onDecided(action, shown);
      if (!FINISHING.includes(action)) (setMode(null), load(), heading.current?.focus());
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const current = await get(url).catch(() => null);
        setDs(D.decisionRefused(dsRef.current, current));
        setConflict({ error: err, action, again });
        return false;
      }
      setDs(D.decisionFailed(dsRef.current));
      announce(`Could not ${action}: ${err.message}`);
      return false;
    }
  };
  /** A form opened after a change was shown is a look at it: the form's submit is not held. */
  const look = () => setDs({ ...dsRef.current, held: false });
  const openForm = (verb) => (look(), setMode(verb));
  const discard = () => (setMode(null), heading.current?.focus());

  // The decision keys of whichever pane is on screen; typed keys belong to the field.
  const keys = useRef();
  keys.current = { decide, openForm, ds };
  useEffect(() => {
    const onKey = (e) => {
      // Keys typed into a field, or on a form's buttons, belong to the form; none while a dialog is up.
      if (e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target) || e.target.closest?.('form') || document.querySelector('[role="dialog"]')) return;
      const verb = Object.keys(VERB_KEYS).find((v) => VERB_KEYS[v] === e.key);
      const shown = keys.current.ds.shown;
      if (!verb || !shown) return;
      e.preventDefault();
      if (FORM_VERBS.includes(verb)) {
        if (D.legal(shown, verb)) keys.current.openForm(verb);
        else announce(`Cannot ${verb}: the review is ${shown.state}.`);
      } else keys.current.decide(verb);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const review = ds.shown;
  if (problem) return html`<section class="pane"><h2>Review</h2><p role="alert" class="error">${problem}</p></section>`;
  if (!review) return html`<section class="pane"><p>Loading…</p></section>`;
  const d = review.draft;
  const H = full ? 'h1' : 'h2';
  return html`<article class=${full ? 'review' : 'review pane'} aria-labelledby="review-title" data-review-shown=${review.id} data-revision=${review.revision}>
    <${H} id="review-title" tabindex="-1" ref=${heading}>${d.subject || '(no subject)'}</${H}>
    ${conflict &&
    html`<section class="conflict" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title">This review moved on: ${conflict.action} was not applied</h2>
      <p>${conflict.error.message} <code>${conflict.error.code}</code></p>
      <p>It is now <strong>${review.state}</strong>. Revision ${review.revision} is on screen${D.legal(review, conflict.action) ? `; press ${conflict.again} again to ${TO_DO[conflict.action]}` : ''}.</p>
      <p>Legal now: ${review.allowed_actions.length ? review.allowed_actions.join(', ') : 'nothing; it is finished'}</p>
    </section>`}
    ${ds.change && html`<${Changed} change=${ds.change} held=${ds.held} />`}
    <dl class="facts">
      <dt>State</dt><dd>${review.state}</dd>
      <dt>From</dt><dd>${inbox(review.inbox_id)}</dd>
      <dt>To</dt><dd>${whoList(d.to)}</dd>
      <dt>Cc</dt><dd>${whoList(d.cc)}</dd>
      <dt>Revision</dt><dd>${review.revision}</dd>
      <dt>Updated</dt><dd><${When} at=${review.updated_at} /></dd>
      <dt>Route</dt><dd>${review.route}${review.hops ? `, ${review.hops} hop(s)` : ''}</dd>
      <${Standing} base=${base} review=${review} />
    </dl>
    <section aria-labelledby="intent-title"><h3 id="intent-title">Intent</h3><p>${review.intent?.summary ?? '—'}</p></section>
    <section aria-labelledby="draft-title"><h3 id="draft-title">Draft</h3><pre class="draft">${d.text ?? ''}</pre>
      ${d.attachments.length > 0 &&
      html`<h4>Attachments</h4><ul class="attachments">${d.attachments.map((a) => html`<li>${a.filename ?? '(no name)'} (${a.content_type}, ${a.size} bytes)</li>`)}</ul>`}
    </section>
    <div class="actions" role="group" aria-label="Decisions">
      ${Object.keys(VERB_KEYS)
        .filter((v) => D.legal(review, v))
        .map((verb) =>
          FORM_VERBS.includes(verb)
            ? html`<button type="button" onClick=${() => openForm(verb)}>${verb} <kbd>${VERB_KEYS[verb]}</kbd></button>`
            : html`<button type="button" onClick=${() => decide(verb)}>${verb} <kbd>${VERB_KEYS[verb]}</kbd></button>`,
        )}
    </div>
    ${mode === 'edit' && D.legal(review, 'edit') && html`<${EditForm} review=${review} decide=${decide} onLook=${look} onDiscard=${discard} />`}
    ${mode && mode !== 'edit' && D.legal(review, mode) && html`<${NoteForm} key=${mode} action=${mode} decide=${decide} onDiscard=${discard} />`}
    ${full &&
    html`<section aria-labelledby="thread-title"><h2 id="thread-title">Conversation</h2><${Conversation} base=${base} review=${review} /></section>
      <section aria-labelledby="history-title"><h2 id="history-title">Feedback and edits</h2><${History} items=${review.feedback_history ?? []} /></section>
      <${Decided} base=${base} review=${review} />
      <button type="button" aria-expanded=${showMachine ? 'true' : 'false'} onClick=${() => setShowMachine((v) => !v)}>${showMachine ? 'Hide' : 'Show'} the machine</button>
      ${showMachine && html`<${MachineView} base=${base} kind="review" id=${review.id} />`}`}
  </article>`;
}
