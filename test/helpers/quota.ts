// What the quota tests share: when the UTC day and month end, and the shape of a quota refusal.
import assert from 'node:assert/strict';

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
