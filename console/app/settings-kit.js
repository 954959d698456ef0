// What every settings view shares: loading a record list, the API's errors shown whole (code,
// detail, the fields named, the facts and legal verbs of a 409), a secret shown once, and the slot
// where a record's machine view goes.
import { ApiError } from './api.js';
import { MachineView } from './machine.js';
import { html, useEffect, useRef, useState } from './ui.js';

/** Loads `fn()` now and whenever `reload()` is called; `[value, problem, reload]`. */
export function useLoad(fn, deps = []) {
  const [value, setValue] = useState(null);
  const [problem, setProblem] = useState(null);
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    fn().then((v) => (setValue(v), setProblem(null)), setProblem);
  }, [...deps, turn]);
  return [value, problem, () => setTurn((t) => t + 1)];
}

/** Runs an API call for a form: `[run, problem, busy]`; `run` resolves to the answer or undefined. */
export function useAction() {
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn) => {
    setBusy(true);
    setProblem(null);
    try {
      return await fn();
    } catch (err) {
      setProblem(err);
    } finally {
      setBusy(false);
    }
  };
  return [run, problem, busy];
}

/** An API refusal as the API gave it: its code and detail, then each field or fact it names. */
export function ProblemView({ error }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : 'error';
  const entries = (error.body?.errors ?? []).filter((e) => e.field !== 'allowed_action');
  const verbs = error.allowedActions ?? [];
  return html`<div role="alert" class="error problem">
    <p><code>${code}</code> ${error.message}</p>
    ${entries.length > 0 && html`<ul>${entries.map((e) => html`<li>Field <code>${e.field}</code>: ${e.detail ?? e.code}</li>`)}</ul>`}
    ${error.status === 409 && html`<p>Legal now: ${verbs.length ? verbs.join(', ') : 'nothing'}</p>`}
  </div>`;
}

/** A secret the API shows this once: selectable, copyable, and gone when dismissed. */
export function SecretOnce({ label, value, onDone }) {
  const [copied, setCopied] = useState(false);
  const field = useRef(null);
  useEffect(() => field.current?.focus(), []);
  const copy = async () => {
    await navigator.clipboard.writeText(value).then(() => setCopied(true), () => field.current?.select());
  };
  return html`<section class="secret notice" aria-labelledby="secret-title">
    <h3 id="secret-title">${label}: shown this once</h3>
    <p>Store it now; the console cannot show it again.</p>
    <label for="secret-value">${label}</label>
    <input id="secret-value" ref=${field} readonly value=${value} size="60" onFocus=${(e) => e.target.select()} />
    <div class="actions">
      <button type="button" onClick=${copy}>Copy</button>
      <button type="button" onClick=${onDone}>Done, hide it</button>
    </div>
    <p role="status">${copied ? 'Copied.' : ''}</p>
  </section>`;
}

/**
 * Where a machine-backed record's "machine" view (its state diagram, current state and the
 * transitions that led there) is linked from; the view itself belongs to the machine views.
 */
export function MachineSlot({ base, kind, id }) {
  const [open, setOpen] = useState(false);
  return html`<span class="machine-slot" data-machine-kind=${kind} data-machine-id=${id}>
    <button type="button" aria-expanded=${open ? 'true' : 'false'} onClick=${() => setOpen(!open)}>${open ? 'Hide the machine' : 'Machine'}</button>
    ${open && html`<${MachineView} base=${base} kind=${kind} id=${id} />`}
  </span>`;
}

export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

/** A labelled field; `id` ties the label to the control for screen readers and clicks. */
export function Field({ id, label, children, hint }) {
  return html`<div class="field"><label for=${id}>${label}</label>${children}${hint && html`<small id=${`${id}-hint`}>${hint}</small>`}</div>`;
}
