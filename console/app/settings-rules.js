// Writing rules of the project: the rules version drafts are checked against, each rule's current
// revision with its earlier ones, editing (a new revision), writing a new rule, and activating or
// retiring one.
import { get, post } from './api.js';
import { Field, MachineSlot, ProblemView, useAction, useLoad, when } from './settings-kit.js';
import { html, useEffect, useRef, useState } from './ui.js';

function Edit({ base, rule, onSaved, onCancel }) {
  const [text, setText] = useState(rule.rule_text);
  const [run, problem, busy] = useAction();
  const ref = useRef(null);
  useEffect(() => ref.current?.focus(), []);
  const id = `rule-edit-${rule.id}`;
  const submit = async (e) => {
    e.preventDefault();
    const r = await run(() => post(`${base}/rules/${rule.id}/revisions`, { rule_text: text }));
    if (r) onSaved(r);
  };
  return html`<form onSubmit=${submit}>
    <${Field} id=${id} label="Revised rule text"><textarea id=${id} ref=${ref} rows="3" required maxlength="2000" value=${text} onInput=${(e) => setText(e.target.value)}></textarea><//>
    <div class="actions"><button type="submit" disabled=${busy}>Save revision</button><button type="button" onClick=${onCancel}>Discard</button></div>
    <${ProblemView} error=${problem} />
  </form>`;
}

function Lineage({ base, revisions, onChanged }) {
  const [current, ...earlier] = revisions; // newest first
  const [editing, setEditing] = useState(false);
  const [run, problem, busy] = useAction();
  const decide = async (verb) => {
    const r = await run(() => post(`${base}/rules/${current.id}/${verb}`, {}));
    if (r) onChanged(`Rule ${verb === 'activate' ? 'activated' : 'retired'}.`);
  };
  return html`<li data-lineage=${current.lineage_id}>
    <p><strong>rev ${current.rev}</strong>, ${current.status}, ${current.kind}, priority ${current.priority}${current.scope === 'category' ? `, category ${current.category_id}` : ''}: ${current.rule_text}</p>
    <div class="actions">
      ${current.status !== 'retired' && !editing && html`<button type="button" onClick=${() => setEditing(true)}>Edit</button>`}
      ${current.status === 'proposed' && html`<button type="button" disabled=${busy} onClick=${() => decide('activate')}>Activate</button>`}
      ${(current.status === 'proposed' || current.status === 'active') && html`<button type="button" disabled=${busy} onClick=${() => decide('retire')}>Retire</button>`}
      <${MachineSlot} base=${base} kind="rule" id=${current.id} />
    </div>
    <${ProblemView} error=${problem} />
    ${editing && html`<${Edit} base=${base} rule=${current} onCancel=${() => setEditing(false)} onSaved=${(r) => (setEditing(false), onChanged(`Saved rev ${r.rev}.`))} />`}
    ${earlier.length > 0 &&
    html`<details><summary>Earlier revisions (${earlier.length})</summary><ol class="revisions">
      ${earlier.map((r) => html`<li>rev ${r.rev}, ${r.status}, ${when(r.created_at)}: ${r.rule_text}</li>`)}
    </ol></details>`}
  </li>`;
}

function NewRule({ base, onCreated }) {
  const [text, setText] = useState('');
  const [run, problem, busy] = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const r = await run(() => post(`${base}/rules`, { rule_text: text }));
    if (r) setText(''), onCreated(r);
  };
  return html`<form onSubmit=${submit} aria-labelledby="rule-new-title">
    <h3 id="rule-new-title">New rule</h3>
    <${Field} id="rule-new" label="New rule text"><textarea id="rule-new" rows="2" required maxlength="2000" value=${text} onInput=${(e) => setText(e.target.value)}></textarea><//>
    <button type="submit" disabled=${busy}>Write rule</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

/** Revisions (newest first) grouped by lineage, the lineage of the newest change first. */
function lineages(rows) {
  const by = new Map();
  for (const r of rows) by.set(r.lineage_id, [...(by.get(r.lineage_id) ?? []), r]);
  return [...by.values()].map((revs) => revs.sort((a, b) => b.rev - a.rev));
}

export function RuleSettings({ base }) {
  const [list, problem, reload] = useLoad(() => get(`${base}/rules`), [base]);
  const [status, setStatus] = useState('');
  const changed = (s) => (setStatus(s), reload());
  return html`<section aria-labelledby="rules-title">
    <h2 id="rules-title">Writing rules</h2>
    ${list && html`<p>Rules version <strong data-rules-version>${list.rules_version}</strong>: drafts written under an older version are checked again.</p>`}
    <${NewRule} base=${base} onCreated=${() => changed('Rule written.')} />
    <p role="status">${status}</p>
    <${ProblemView} error=${problem} />
    ${list &&
    (list.data.length === 0
      ? html`<p>No rules yet.</p>`
      : html`<ul class="records">${lineages(list.data).map((revs) => html`<${Lineage} key=${revs[0].id} base=${base} revisions=${revs} onChanged=${changed} />`)}</ul>`)}
  </section>`;
}
