// Categories and graduated autonomy: each category's rung and counters, and the human's verbs on
// it (graduate, demote, pin, unpin). The service decides what is earned; a refusal is shown with
// its facts (what is missing, the rung, the verbs legal now).
import { get, post } from './api.js';
import { Field, MachineSlot, ProblemView, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

function CreateCategory({ base, onCreated }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [run, problem, busy] = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const r = await run(() => post(`${base}/categories`, { name, description }));
    if (r) setName(''), setDescription(''), onCreated(r);
  };
  return html`<form onSubmit=${submit} aria-labelledby="category-new-title">
    <h3 id="category-new-title">New category</h3>
    <${Field} id="category-name" label="Name"><input id="category-name" required maxlength="200" value=${name} onInput=${(e) => setName(e.target.value)} /><//>
    <${Field} id="category-description" label="Description"><input id="category-description" maxlength="2000" value=${description} onInput=${(e) => setDescription(e.target.value)} /><//>
    <button type="submit" disabled=${busy}>Create category</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

function CategoryRow({ base, c, onChanged }) {
  const [run, problem, busy] = useAction();
  const verb = async (path, body, done) => {
    const r = await run(() => post(`${base}/categories/${c.id}/${path}`, body));
    if (r) onChanged(`${r.name}: ${done}, now ${r.rung}.`);
  };
  return html`<tr data-category=${c.id}>
    <th scope="row">${c.name}<br /><small>${c.description}</small></th>
    <td>${c.rung}${c.pinned ? ' (pinned)' : ''}</td>
    <td>${c.clean_approvals}</td>
    <td>${c.drift_count}</td>
    <td>${when(c.created_at)}</td>
    <td>
      <div class="actions" role="group" aria-label=${`Verbs on ${c.name}`}>
        <button type="button" disabled=${busy} onClick=${() => verb('graduate', undefined, 'graduated')}>Graduate</button>
        <button type="button" disabled=${busy} onClick=${() => verb('demote', undefined, 'demoted')}>Demote</button>
        ${c.pinned
          ? html`<button type="button" disabled=${busy} onClick=${() => verb('pin', { pinned: false }, 'unpinned')}>Unpin</button>`
          : html`<button type="button" disabled=${busy} onClick=${() => verb('pin', {}, 'pinned')}>Pin</button>`}
        <${MachineSlot} base=${base} kind="category" id=${c.id} />
      </div>
      <${ProblemView} error=${problem} />
    </td>
  </tr>`;
}

export function CategorySettings({ base }) {
  const [cats, problem, reload] = useLoad(() => get(`${base}/categories`).then((r) => r.data), [base]);
  const [status, setStatus] = useState('');
  return html`<section aria-labelledby="categories-title">
    <h2 id="categories-title">Categories</h2>
    <p>Rungs: supervised → auto_notify → autonomous. A category graduates once its clean approvals and age meet the risk dial.</p>
    <${CreateCategory} base=${base} onCreated=${(r) => (setStatus(`Created ${r.name}.`), reload())} />
    <p role="status">${status}</p>
    <${ProblemView} error=${problem} />
    ${cats &&
    (cats.length === 0
      ? html`<p>No categories yet.</p>`
      : html`<table class="queue">
          <caption>Categories</caption>
          <thead><tr><th scope="col">Category</th><th scope="col">Rung</th><th scope="col">Clean approvals</th><th scope="col">Drift</th><th scope="col">Created</th><th scope="col">Verbs</th></tr></thead>
          <tbody>${cats.map((c) => html`<${CategoryRow} key=${c.id} base=${base} c=${c} onChanged=${(s) => (setStatus(s), reload())} />`)}</tbody>
        </table>`)}
  </section>`;
}
