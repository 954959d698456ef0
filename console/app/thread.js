// The conversation a reply draft belongs to: the thread's messages oldest first, the one being
// answered opened, each with its html in the same sandboxed frame as the mail viewer.
import { get } from './api.js';
import { onLinkClick } from './router.js';
import { When } from './time.js';
import { html, useEffect, useState } from './ui.js';

export const who = (p) => (p ? (p.name ? `${p.name} <${p.email}>` : p.email) : '—');
export const whoList = (list) => (list?.length ? list.map(who).join(', ') : '—');

/** A message's html in an inert frame: no script, nothing remote (the API's policy), links open outside. */
export const MailFrame = ({ src, title }) =>
  html`<iframe class="mail-html" title=${title} sandbox="allow-popups allow-popups-to-escape-sandbox" src=${src}></iframe>`;

function ThreadMessage({ base, inbox, m, answered }) {
  const [open, setOpen] = useState(answered);
  const at = `${base}/inboxes/${inbox}/messages/${m.id}`;
  return html`<li><details open=${answered} onToggle=${(e) => setOpen(e.currentTarget.open)}>
    <summary>${answered ? html`<strong>Being answered: </strong>` : ''}${who(m.from)}, ${m.subject || '(no subject)'}, <${When} at=${m.date ?? m.received_at} /></summary>
    <dl class="facts">
      <dt>From</dt><dd>${who(m.from)}</dd>
      <dt>To</dt><dd>${whoList(m.to)}</dd>
      <dt>Cc</dt><dd>${whoList(m.cc)}</dd>
    </dl>
    <p><a href=${`/console/mail/${encodeURIComponent(inbox)}/${encodeURIComponent(m.id)}`} onClick=${onLinkClick}>Open in the mail viewer</a></p>
    ${open && m.html !== null && html`<${MailFrame} src=${`${at}/html`} title=${`HTML of "${m.subject || '(no subject)'}"`} />`}
    <pre class="draft">${m.text ?? '(no text part)'}</pre>
  </details></li>`;
}

export function Conversation({ base, review }) {
  const [thread, setThread] = useState(null);
  const [problem, setProblem] = useState(null);
  const id = review.draft.thread_id;
  useEffect(() => {
    if (!id) return;
    get(`${base}/inboxes/${review.inbox_id}/threads/${id}`).then(setThread, (err) => setProblem(err.message));
  }, [id]);
  if (!id) return html`<p>A new conversation: the draft answers no stored message.</p>`;
  if (problem) return html`<p role="alert" class="error">${problem}</p>`;
  if (!thread) return html`<p>Loading the conversation…</p>`;
  const answered = review.parent_message_id ?? thread.last_message_id;
  return html`<ol class="thread">${thread.messages.map((m) => html`<${ThreadMessage} key=${m.id} base=${base} inbox=${review.inbox_id} m=${m} answered=${m.id === answered} />`)}</ol>`;
}
