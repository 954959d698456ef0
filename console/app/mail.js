// The mail viewer: the project's inboxes, their messages with search, and one message: its text,
// its html in a sandboxed frame (no script, nothing remote until asked, links open outside), the
// addresses as sent, the raw source and the attachments to download.
import { get } from './api.js';
import { navigate } from './router.js';
import { When } from './time.js';
import { html, useEffect, useState } from './ui.js';

const who = (p) => (p ? (p.name ? `${p.name} <${p.email}>` : p.email) : '—');

/** A display name that carries an address other than the real one is how a sender is forged. */
export function forgedName(p) {
  const shown = /[\w.+-]+@[\w-]+(\.[\w-]+)+/.exec(p?.name ?? '')?.[0];
  return Boolean(shown && shown.toLowerCase() !== p.email.toLowerCase());
}

function Message({ base, inbox, id, onBack }) {
  const [m, setM] = useState(null);
  const [problem, setProblem] = useState(null);
  const [remote, setRemote] = useState(false);
  useEffect(() => {
    get(`${base}/inboxes/${inbox}/messages/${id}`).then(setM, (err) => setProblem(err.message));
  }, [id]);
  if (problem) return html`<p role="alert" class="error">${problem}</p>`;
  if (!m) return html`<p>Loading…</p>`;
  const at = `${base}/inboxes/${inbox}/messages/${id}`;
  return html`<article aria-labelledby="message-title">
    <button type="button" onClick=${onBack}>Back to the messages</button>
    <h2 id="message-title">${m.subject || '(no subject)'}</h2>
    <dl class="facts">
      <dt>From</dt><dd>${who(m.from)}${forgedName(m.from) && html` <strong class="error">The name shows another address than the sender's.</strong>`}</dd>
      <dt>To</dt><dd>${(m.to ?? []).map(who).join(', ')}</dd>
      <dt>Cc</dt><dd>${(m.cc ?? []).map(who).join(', ') || '—'}</dd>
      <dt>Date</dt><dd><${When} at=${m.date ?? m.received_at} /></dd>
      <dt>Message-ID</dt><dd>${m.message_id || '—'}</dd>
    </dl>
    <p><a href=${`${at}/raw`} download>Raw source (.eml)</a></p>
    ${m.attachments.length > 0 &&
    html`<section aria-labelledby="attachments-title"><h3 id="attachments-title">Attachments</h3><ul>
      ${m.attachments.map((a) => html`<li><a href=${`${at}/attachments/${a.id}`} download=${a.filename ?? a.id}>${a.filename ?? a.id}</a> (${a.content_type}, ${a.size} bytes)</li>`)}
    </ul></section>`}
    ${m.html !== null &&
    html`<section aria-labelledby="html-title"><h3 id="html-title">HTML</h3>
      ${!remote && html`<p>Remote images are blocked. <button type="button" onClick=${() => setRemote(true)}>Load remote images</button></p>`}
      <iframe class="mail-html" title="The message's HTML" sandbox="allow-popups allow-popups-to-escape-sandbox" src=${`${at}/html${remote ? '?remote_images=true' : ''}`}></iframe>
    </section>`}
    <section aria-labelledby="text-title"><h3 id="text-title">Text</h3><pre class="draft">${m.text ?? '(no text part)'}</pre></section>
  </article>`;
}

/** `/console/mail/:inbox/:message` is one message's address; `/console/mail/:inbox` an inbox's list. */
const mailHref = (inbox, message) => `/console/mail/${encodeURIComponent(inbox)}${message ? `/${encodeURIComponent(message)}` : ''}`;

export function Mail({ base, params = {} }) {
  const [inboxes, setInboxes] = useState(null);
  const [inbox, setInbox] = useState(params.inbox ?? null);
  const [q, setQ] = useState('');
  const [messages, setMessages] = useState(null);
  const open = params.message ?? null;
  const setOpen = (id) => navigate(mailHref(inbox, id));
  const load = async (id, query = '') => {
    setMessages(null);
    const page = await get(`${base}/inboxes/${id}/messages?limit=50${query ? `&q=${encodeURIComponent(query)}` : ''}`);
    setMessages(page.data);
  };
  useEffect(() => {
    get(`${base}/inboxes?limit=100`).then((p) => {
      setInboxes(p.data);
      const first = params.inbox ?? p.data[0]?.id;
      if (first) setInbox(first), load(first);
    });
  }, [base]);
  if (!inboxes) return html`<main><p>Loading…</p></main>`;
  return html`<main>
    <h1>Mail</h1>
    <nav aria-label="Inboxes"><ul class="inboxes">
      ${inboxes.map((i) => html`<li><button type="button" aria-pressed=${i.id === inbox ? 'true' : 'false'} onClick=${() => (setInbox(i.id), navigate(mailHref(i.id)), load(i.id))}>${i.address}</button></li>`)}
    </ul></nav>
    ${open
      ? html`<${Message} base=${base} inbox=${inbox} id=${open} onBack=${() => setOpen(null)} />`
      : html`<form role="search" onSubmit=${(e) => (e.preventDefault(), load(inbox, q))}>
            <label for="mail-q">Search mail</label> <input id="mail-q" type="search" value=${q} onInput=${(e) => setQ(e.target.value)} />
            <button type="submit">Search</button>
          </form>
          ${messages === null
            ? html`<p>Loading…</p>`
            : messages.length === 0
              ? html`<p>No messages.</p>`
              : html`<table class="queue"><caption class="visually-hidden">Messages, newest first</caption>
                  <thead><tr><th scope="col">From</th><th scope="col">Subject</th><th scope="col">Received</th><th scope="col">Folder</th></tr></thead>
                  <tbody>${messages.map(
                    (m) => html`<tr><td>${who(m.from)}</td><td><button type="button" class="link" onClick=${() => setOpen(m.id)}>${m.subject || '(no subject)'}</button></td><td><${When} at=${m.received_at} /></td><td>${m.folder}</td></tr>`,
                  )}</tbody></table>`}`}
  </main>`;
}
