// The mail viewer: the project's inboxes, their folders (received, sent) and messages with
// search, and one message: its text, its html in a sandboxed frame (no script, nothing remote
// until asked, links open outside), the addresses as sent, the authentication verdicts of a
// received mail, its header block, the raw source and the attachments to download.
import { get } from './api.js';
import { navigate } from './router.js';
import { When } from './time.js';
import { html, useEffect, useState } from './ui.js';

export const FOLDERS = [
  ['INBOX', 'Inbox'],
  ['SENT', 'Sent'],
];

/**
 * The header block of a raw message, unfolded, as [name, value] pairs in order. Reads the raw
 * source only up to the blank line that ends the headers, so a large attachment is not fetched.
 */
export function parseHeaders(block) {
  const fields = [];
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && fields.length) fields[fields.length - 1][1] += ` ${line.trim()}`;
    else if (line.includes(':')) fields.push([line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
  }
  return fields;
}

async function headerBlock(url) {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`The raw source answered ${res.status}.`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder('latin1');
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) text += decoder.decode(value, { stream: true });
    const end = text.search(/\r?\n\r?\n/);
    if (end >= 0) {
      reader.cancel().catch(() => {});
      return text.slice(0, end);
    }
    if (done) return text;
  }
}

function Headers({ at }) {
  const [fields, setFields] = useState(null);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    headerBlock(`${at}/raw`).then((b) => setFields(parseHeaders(b)), (err) => setProblem(err.message));
  }, [at]);
  if (problem) return html`<p role="alert" class="error">${problem}</p>`;
  if (!fields) return html`<p>Loading…</p>`;
  return html`<div class="scroll"><table class="queue headers">
    <caption class="visually-hidden">The message's headers, as received, top first</caption>
    <thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
    <tbody>${fields.map(([k, v]) => html`<tr><th scope="row"><code>${k}</code></th><td><code class="wrap">${v}</code></td></tr>`)}</tbody>
  </table></div>`;
}

const GOOD = new Set(['pass']);
const NEUTRAL = new Set(['none', 'neutral', 'policy']);
const verdictClass = (result) => (GOOD.has(result) ? 'pass' : NEUTRAL.has(result) ? 'pending' : 'fail');

/** SPF, DKIM, DMARC and ARC as computed on arrival, and whether the sender is authenticated. */
function Verdicts({ m }) {
  const a = m.authentication;
  return html`<section aria-labelledby="auth-title"><h3 id="auth-title">Authentication</h3>
    ${a
      ? html`<p>${a.authenticated ? html`<strong class="ok">The sender is authenticated</strong> (DMARC, or a DKIM signature of the From domain, passes).` : html`<strong class="error">The sender is not authenticated.</strong>`}</p>
        <dl class="facts verdicts">
          ${['spf', 'dkim', 'dmarc', 'arc'].map(
            (k) => html`<dt>${k.toUpperCase()}</dt><dd data-verdict=${k}><span class=${`pill ${verdictClass(a[k].result)}`}>${a[k].result}</span>${a[k].domain ? html` <code>${a[k].domain}</code>` : ''}</dd>`,
          )}
        </dl>`
      : html`<p class="hint">${m.direction === 'outbound' ? 'A sent message has no verdicts.' : 'No verdicts: it did not arrive over SMTP from outside (internal delivery).'}</p>`}
    ${m.screening && html`<p class="error">Screened as ${m.screening.risk} risk: ${m.screening.reasons.join(', ')}.</p>`}
  </section>`;
}

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
  const [headers, setHeaders] = useState(false);
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
      <dt>Folder</dt><dd>${m.folder}</dd>
    </dl>
    <div class="actions">
      <button type="button" aria-expanded=${headers ? 'true' : 'false'} onClick=${() => setHeaders(!headers)}>${headers ? 'Hide the headers' : 'Show the headers'}</button>
      <a href=${`${at}/raw`} download>Raw source (.eml)</a>
    </div>
    ${headers && html`<section aria-labelledby="headers-title"><h3 id="headers-title">Headers</h3><${Headers} at=${at} /></section>`}
    <${Verdicts} m=${m} />
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
  const [folder, setFolder] = useState('INBOX');
  const [q, setQ] = useState('');
  const [messages, setMessages] = useState(null);
  const open = params.message ?? null;
  const setOpen = (id) => navigate(mailHref(inbox, id));
  const load = async (id, query = '', f = folder) => {
    setMessages(null);
    // A search ranks matches across the inbox's folders; without one, the folder's newest.
    const page = await get(`${base}/inboxes/${id}/messages?limit=50${query ? `&q=${encodeURIComponent(query)}` : `&folder=${f}`}`);
    setMessages(page.data);
  };
  // One view for the section's addresses (keyed by section in main.js): the folder stays as the
  // address moves between a list and a message; back and forward to another inbox follow it.
  useEffect(() => {
    if (params.inbox && inbox && params.inbox !== inbox) setInbox(params.inbox), load(params.inbox);
  }, [params.inbox]);
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
    <nav aria-label="Folders"><ul class="inboxes folders">
      ${FOLDERS.map(([f, label]) => html`<li><button type="button" aria-pressed=${f === folder ? 'true' : 'false'} onClick=${() => (setFolder(f), setOpen(null), setQ(''), load(inbox, '', f))}>${label}</button></li>`)}
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
              : html`<div class="scroll"><table class="queue"><caption class="visually-hidden">Messages, newest first</caption>
                  <thead><tr><th scope="col">${folder === 'SENT' ? 'To' : 'From'}</th><th scope="col">Subject</th><th scope="col">Received</th><th scope="col">Folder</th></tr></thead>
                  <tbody>${messages.map(
                    (m) => html`<tr><td>${folder === 'SENT' ? (m.to ?? []).map(who).join(', ') : who(m.from)}</td><td><button type="button" class="link" onClick=${() => setOpen(m.id)}>${m.subject || '(no subject)'}</button></td><td><${When} at=${m.received_at} /></td><td>${m.folder}</td></tr>`,
                  )}</tbody></table></div>`}`}
  </main>`;
}
