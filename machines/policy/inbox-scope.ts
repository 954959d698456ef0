// Which inboxes an agent key reaches. An inbox key: its one inbox. A project key: the inboxes of
// its own agent in its project (a sibling agent's inbox is outside, answered as not found). An
// org key: every inbox of the org, narrowed to one project by X-Project-Id.

export type KeyReach = {
  org_id: string;
  project_id: string | null;
  agent_id: string;
  ceiling: 'org' | 'project' | 'inbox';
  inbox_id: string | null;
};

export type Scope = { org_id: string; project_id: string | null; agent_id: string | null; inbox_id: string | null };

/** `*` in X-Project-Id: an org key's explicit pick of every project of the org. */
export const ALL_PROJECTS = '*';

export function scopeOfKey(key: KeyReach, projectPick: string | null): Scope {
  switch (key.ceiling) {
    case 'inbox':
      return { org_id: key.org_id, project_id: key.project_id, agent_id: key.agent_id, inbox_id: key.inbox_id };
    case 'project':
      return { org_id: key.org_id, project_id: key.project_id, agent_id: key.agent_id, inbox_id: null };
    case 'org':
      return { org_id: key.org_id, project_id: projectPick && projectPick !== ALL_PROJECTS ? projectPick : null, agent_id: null, inbox_id: null };
  }
}

/** A bare list by an org key needs a breadth pick: one project, or every project with `*`. */
export function needsBreadthPick(key: KeyReach, projectPick: string | null): boolean {
  return key.ceiling === 'org' && !projectPick;
}
