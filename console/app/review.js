// One review, as the human decides on it: the draft, the intent, the message it replies to,
// earlier feedback and edits (as diffs) and the rules version; the verbs its machine allows now.
import { get } from './api.js';
import { DiffView, diffLines } from './diff.js';
import { MachineView } from './machine.js';
import { html, useEffect, useRef, useState } from './ui.js';

const VERB_KEYS = { approve: 'a', edit: 'e', reject: 'r', chat: 'c', cancel: 'x' };

function EditForm({ review, decide, onCancel }) {
  const [subject, setSubject] = useState(review.draft.subject ?? '');
  const [text, setText] = useState(review.draft.text ?? '');
  const [preview, setPreview] = useState(null);
  const [problem, setProblem] = useState(null);
  const first = useRef(null);
  useEffect(() => first.current?.focus(), []);
  const changes = () => {
    const out = {};
    if (subject !== (review.draft.subject ?? '')) out.subject = subject;
    if (text !== (review.draft.text ?? '')) out.text = text;
    return out;
  };
  const show = (e) => {
    e.preventDefault();
    const c = changes();
    if (!Object.keys(c).length) return setProblem('Nothing changed yet.');
    setProblem(null);
    setPreview(c);
  };
  return html`<form class="edit" aria-label="Edit the draft" onSubmit=${show}>
    <label for="edit-subject">Subject</label>
    <input id="edit-subject" value=${subject} onInput=${(e) => (setSubject(e.target.value), setPreview(null))} />
    <label for="edit-text">Text</label>
    <textarea id="edit-text" ref=${first} rows="10" value=${text} onInput=${(e) => (setText(e.target.value), setPreview(null))}></textarea>
    ${problem && html`<p role="alert" class="error">${problem}</p>`}
    ${preview
      ? html`<section aria-label="Changes to send">
          <h3>Changes to send</h3>
          ${'subject' in preview && html`<${DiffView} field="subject" lines=${diffLines(review.draft.subject ?? '', preview.subject)} />`}
          ${'text' in preview && html`<${DiffView} field="text" lines=${diffLines(review.draft.text ?? '', preview.text)} />`}
          <button type="button" onClick=${() => decide(review, { action: 'edit', ...preview })}>Send edit</button>
          <button type="button" onClick=${() => setPreview(null)}>Keep editing</button>
        </section>`
      : html`<button type="submit">Show changes</button>`}
    <button type="button" onClick=${onCancel}>Discard</button>
  </form>`;
}

function NoteForm({ label, action, field, review, decide, onCancel }) {
  const [value, setValue] = useState('');
  const ref = useRef(null);
  useEffect(() => ref.current?.focus(), []);
  const submit = (e) => {
    e.preventDefault();
    decide(review, { action, [field]: value });
  };
  return html`<form class="note" onSubmit=${submit}>
    <label for=${`note-${action}`}>${label}</label>
    <textarea id=${`note-${action}`} ref=${ref} rows="4" value=${value} onInput=${(e) => setValue(e.target.value)} required=${action === 'chat'}></textarea>
    <button type="submit">${action === 'reject' ? 'Reject' : 'Send message'}</button>
    <button type="button" onClick=${onCancel}>Discard</button>
  </form>`;
}

function History({ items }) {
  if (!items.length) return html`<p>No feedback yet.</p>`;
  return html`<ol class="history">
    ${items.map(
      (f) => html`<li>
        <p><strong>${f.kind}</strong> by ${f.author_email ?? f.author}, revision ${f.revision}, ${new Date(f.created_at).toLocaleString()}</p>
        ${f.feedback && html`<blockquote>${f.feedback}</blockquote>`}
        ${f.message && html`<blockquote>${f.message}</blockquote>`}
        ${(f.diff ?? []).map((d) => html`<${DiffView} field=${d.field} lines=${d.lines} />`)}
      </li>`,
    )}
  </ol>`;
}

export function ReviewDetail({ base, id, mode, setMode, decide, changed, inbox, onLoaded, onClose }) {
  const [review, setReview] = useState(null);
  const [problem, setProblem] = useState(null);
  const [showMachine, setShowMachine] = useState(false);
  const heading = useRef(null);
  useEffect(() => {
    get(`${base}/reviews/${id}`).then(
      (r) => {
        setReview(r);
        onLoaded(r);
        heading.current?.focus();
      },
      (err) => setProblem(err.status === 404 ? 'No such review.' : err.message),
    );
  }, [id]);
  if (problem) return html`<section><h1>Review</h1><p role="alert" class="error">${problem}</p><button type="button" onClick=${onClose}>Back to the queue</button></section>`;
  if (!review) return html`<p>Loading…</p>`;
  const d = review.draft;
  // Chat on a waiting review opens it first (see decide).
  const can = (verb) => review.allowed_actions.includes(verb) || (verb === 'chat' && review.allowed_actions.includes('open'));
  return html`<article class="review" aria-labelledby="review-title">
    <button type="button" onClick=${onClose}>Back to the queue <kbd>Esc</kbd></button>
    <h1 id="review-title" tabindex="-1" ref=${heading}>${d.subject || '(no subject)'}</h1>
    ${changed && html`<p class="notice" role="status">This review changed since the queue was loaded; a decision on an older revision is refused with what is legal now.</p>`}
    <dl class="facts">
      <dt>State</dt><dd>${review.state}</dd>
      <dt>Inbox</dt><dd>${inbox(review.inbox_id)}</dd>
      <dt>To</dt><dd>${[...d.to, ...d.cc].map((p) => p.email ?? p).join(', ')}</dd>
      <dt>Revision</dt><dd>${review.revision}</dd>
      <dt>Rules version</dt><dd>${review.rules_version ?? '—'}</dd>
      <dt>Route</dt><dd>${review.route}${review.hops ? `, ${review.hops} hop(s)` : ''}</dd>
      <dt>Category</dt><dd>${review.category_id ?? '—'}</dd>
      <dt>Replies to</dt><dd>${d.in_reply_to ?? (d.thread_id ? `thread ${d.thread_id}` : 'a new conversation')}</dd>
    </dl>
    <section aria-labelledby="intent-title"><h2 id="intent-title">Intent</h2><p>${review.intent?.summary ?? '—'}</p></section>
    <section aria-labelledby="draft-title"><h2 id="draft-title">Draft</h2><pre class="draft">${d.text ?? ''}</pre></section>
    <div class="actions" role="group" aria-label="Decisions">
      ${Object.keys(VERB_KEYS)
        .filter(can)
        .map((verb) =>
          ['edit', 'reject', 'chat'].includes(verb)
            ? html`<button type="button" onClick=${() => setMode(verb)}>${verb} <kbd>${VERB_KEYS[verb]}</kbd></button>`
            : html`<button type="button" onClick=${() => decide(review, { action: verb })}>${verb} <kbd>${VERB_KEYS[verb]}</kbd></button>`,
        )}
    </div>
    ${mode === 'edit' && html`<${EditForm} review=${review} decide=${decide} onCancel=${() => setMode(null)} />`}
    ${mode === 'reject' && html`<${NoteForm} label="Feedback for the agent" action="reject" field="feedback" review=${review} decide=${decide} onCancel=${() => setMode(null)} />`}
    ${mode === 'chat' && html`<${NoteForm} label="Message to the agent" action="chat" field="message" review=${review} decide=${decide} onCancel=${() => setMode(null)} />`}
    <section aria-labelledby="history-title"><h2 id="history-title">Feedback and edits</h2><${History} items=${review.feedback_history ?? []} /></section>
    <button type="button" aria-expanded=${showMachine ? 'true' : 'false'} onClick=${() => setShowMachine((v) => !v)}>${showMachine ? 'Hide' : 'Show'} the machine</button>
    ${showMachine && html`<${MachineView} base=${base} kind="review" id=${review.id} />`}
  </article>`;
}
