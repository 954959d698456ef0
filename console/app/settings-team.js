// The org's members and invitations: invite by email with a role (the token shown once, and
// mailed), resend an invitation (a fresh token: only its digest is kept), revoke one, change a
// member's org-wide role, remove a member. Who may do what is the API's to say: a refusal is
// shown as it came (an admin making an owner, the last owner leaving).
import { del, get, patch, post } from './api.js';
import { Field, ProblemView, SecretOnce, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

export const ROLES = ['owner', 'admin', 'member', 'viewer', 'billing'];

/** `/v1/admin/orgs/{org}` from a project's path: members and invitations belong to the org. */
export const orgPathOf = (base) => base.slice(0, base.indexOf('/projects/'));

function RoleSelect({ id, value, onChange }) {
  return html`<select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
    ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}
  </select>`;
}

function MemberRow({ org, m, run, onChanged }) {
  const [role, setRole] = useState(m.role);
  const [confirming, setConfirming] = useState(false);
  const id = `role-${m.user_id}${m.project_id ? `-${m.project_id}` : ''}`;
  const change = async () => {
    if (await run(() => patch(`${org}/members/${m.user_id}`, { role }))) onChanged(`${m.email} is now ${role}.`);
  };
  const remove = async () => {
    if ((await run(() => del(`${org}/members/${m.user_id}`))) !== undefined) onChanged(`Removed ${m.email}.`);
    setConfirming(false);
  };
  return html`<tr data-member=${m.email}>
    <td>${m.email}</td>
    <td>${m.project_id
      ? html`${m.role} <span class="hint">(project <code>${m.project_id}</code>)</span>`
      : html`<label class="visually-hidden" for=${id}>Role of ${m.email}</label><${RoleSelect} id=${id} value=${role} onChange=${setRole} />
          ${role !== m.role && html` <button type="button" onClick=${change}>Change role</button>`}`}</td>
    <td>${when(m.created_at)}</td>
    <td>${confirming
      ? html`<span role="group" aria-label=${`Remove ${m.email}?`}>Remove ${m.email} from the org? <button type="button" onClick=${remove}>Yes, remove</button> <button type="button" onClick=${() => setConfirming(false)}>Keep</button></span>`
      : html`<button type="button" aria-label=${`Remove ${m.email}`} onClick=${() => setConfirming(true)}>Remove</button>`}</td>
  </tr>`;
}

function InviteForm({ org, onInvited }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [run, problem, busy] = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const r = await run(() => post(`${org}/invitations`, { email: email.trim(), role }));
    if (r) setEmail(''), onInvited(r);
  };
  return html`<form onSubmit=${submit} aria-labelledby="invite-title">
    <h3 id="invite-title">Invite someone</h3>
    <${Field} id="invite-email" label="Email"><input id="invite-email" type="email" required value=${email} onInput=${(e) => setEmail(e.target.value)} /><//>
    <${Field} id="invite-role" label="Role"><${RoleSelect} id="invite-role" value=${role} onChange=${setRole} /><//>
    <button type="submit" disabled=${busy}>Send invitation</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

const OPEN = new Set(['pending', 'expired']);

export function TeamSettings({ base }) {
  const org = orgPathOf(base);
  const [members, membersProblem, reloadMembers] = useLoad(() => get(`${org}/members`).then((r) => r.items), [org]);
  const [invitations, invitationsProblem, reloadInvitations] = useLoad(() => get(`${org}/invitations`).then((r) => r.items), [org]);
  const [secret, setSecret] = useState(null);
  const [status, setStatus] = useState('');
  const [run, actionProblem] = useAction();
  const sent = (r, verb) => {
    setSecret(r.token);
    setStatus(`${verb} ${r.email} as ${r.role}: ${r.mailed ? 'the invitation was mailed' : 'the mail could not be sent, pass the token on yourself'}.`);
    reloadInvitations();
  };
  const resend = async (i) => {
    const r = await run(() => post(`${org}/invitations/${i.id}/resend`));
    if (r) sent(r, 'Sent again to');
  };
  const revoke = async (i) => {
    if ((await run(() => del(`${org}/invitations/${i.id}`))) !== undefined) setStatus(`Revoked the invitation of ${i.email}.`), reloadInvitations();
  };
  return html`<section aria-labelledby="members-title">
    <h2 id="members-title">Members</h2>
    <p role="status">${status}</p>
    <${ProblemView} error=${actionProblem ?? membersProblem} />
    ${members &&
    html`<div class="scroll"><table class="queue">
      <caption class="visually-hidden">The org's members</caption>
      <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${members.map((m) => html`<${MemberRow} key=${`${m.user_id}/${m.project_id}/${m.role}`} org=${org} m=${m} run=${run} onChanged=${(s) => (setStatus(s), reloadMembers())} />`)}</tbody>
    </table></div>`}
  </section>
  <section aria-labelledby="invitations-title">
    <h2 id="invitations-title">Invitations</h2>
    ${secret
      ? html`<${SecretOnce} label="Invitation token" value=${secret} onDone=${() => setSecret(null)} />`
      : html`<${InviteForm} org=${org} onInvited=${(r) => sent(r, 'Invited')} />`}
    <${ProblemView} error=${invitationsProblem} />
    ${invitations &&
    (invitations.length === 0
      ? html`<p>No invitations yet.</p>`
      : html`<div class="scroll"><table class="queue">
          <caption class="visually-hidden">The org's invitations, newest first</caption>
          <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col">Invited by</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${invitations.map(
            (i) => html`<tr key=${i.id} data-invitation=${i.id}>
              <td>${i.email}</td><td>${i.role}</td><td><span class=${`pill ${i.status}`}>${i.status}</span></td><td>${when(i.expires_at)}</td><td>${i.invited_by}</td>
              <td>${OPEN.has(i.status) &&
              html`<button type="button" aria-label=${`Resend to ${i.email}`} onClick=${() => resend(i)}>Resend</button>
                <button type="button" aria-label=${`Revoke the invitation of ${i.email}`} onClick=${() => revoke(i)}>Revoke</button>`}</td>
            </tr>`,
          )}</tbody>
        </table></div>`)}
  </section>`;
}
