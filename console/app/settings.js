// Settings a human owns, one area per module, behind one navigation. Every area calls only the
// console plane's API, so whatever is done here can be scripted too.
import { AgentSettings } from './settings-agents.js';
import { CategorySettings } from './settings-categories.js';
import { DomainSettings } from './settings-domains.js';
import { EnrollmentSettings } from './settings-enrollment.js';
import { NotificationSettings } from './settings-notifications.js';
import { PlanSettings } from './settings-plan.js';
import { PolicySettings } from './settings-policy.js';
import { ReviewerSettings } from './settings-reviewers.js';
import { RuleSettings } from './settings-rules.js';
import { TeamSettings } from './settings-team.js';
import { WebhookSettings } from './settings-webhooks.js';
import { html, useState } from './ui.js';

export const AREAS = [
  ['policy', 'Review policy', PolicySettings],
  ['enrollment', 'Enrollment tokens', EnrollmentSettings],
  ['agents', 'Agents and keys', AgentSettings],
  ['webhooks', 'Webhooks', WebhookSettings],
  ['reviewers', 'Review links', ReviewerSettings],
  ['categories', 'Categories', CategorySettings],
  ['rules', 'Writing rules', RuleSettings],
  ['members', 'Members and invitations', TeamSettings],
  ['domains', 'Domains', DomainSettings],
  ['plan', 'Plan and usage', PlanSettings],
  ['notifications', 'Notifications', NotificationSettings],
];

export function Settings({ base }) {
  const [area, setArea] = useState(AREAS[0][0]);
  const [, , View] = AREAS.find(([k]) => k === area);
  return html`<main class="settings">
    <h1>Settings</h1>
    <nav aria-label="Settings">
      <ul class="inboxes">
        ${AREAS.map(([k, label]) => html`<li><button type="button" aria-pressed=${k === area ? 'true' : 'false'} onClick=${() => setArea(k)}>${label}</button></li>`)}
      </ul>
    </nav>
    <${View} key=${`${base}/${area}`} base=${base} />
  </main>`;
}
