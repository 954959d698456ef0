// What the quota tests share: a service with caps small enough to reach, when the UTC day and
// month end, and the shape of a quota refusal.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestService, type TestService } from '../../testkit/service.ts';
import { scratchDir } from '../../testkit/scratch.ts';

/** A service whose plans file makes the caps small: free sends 5 a day, developer 6 a month. */
export function startSmallPlansService(): Promise<TestService> {
  const plansFile = path.join(scratchDir('plans'), 'plans.json');
  fs.writeFileSync(plansFile, JSON.stringify({
    free: { daily_message_cap: 5 },
    developer: { included_messages_monthly: 6, daily_message_cap: -1 },
  }));
  return startTestService({ env: { PLANS_FILE: plansFile } });
}

export const nextUtcMidnight = (): string => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
};

export const nextUtcMonth = (): string => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
};

/**
 * A 403 quota_exceeded on the agent plane: problem+json carrying exactly `figures` (the legacy
 * envelope's quota fields) beside status, code and error, with message equal to detail.
 */
export function assertQuotaRefusal(res: { status: number; text: string; headers: Headers; body: any }, figures: Record<string, unknown>): void {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.headers.get('content-type')?.startsWith('application/problem+json'), true);
  const { type: _t, title: _ti, detail: _d, message: _m, request_id: _r, ...rest } = res.body;
  assert.deepEqual(rest, { status: 403, code: 'quota_exceeded', error: 'quota_exceeded', ...figures });
  assert.equal(res.body.message, res.body.detail);
}
