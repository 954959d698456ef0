// Agent permissions. Privileged ones are opt-in: a key gets them only when named at issuance.

export const PERMISSIONS = [
  'mailbox:create',
  'mailbox:read',
  'mailbox:send',
  'mailbox:delete',
  'mailbox:credentials',
  'mailbox:quota',
  'webhook:write',
  'domain:manage',
  'commerce:request',
  'review:act',
  'signup:verify',
  'domain:purchase',
  'support:submit',
  'support:read',
  'support:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const DEFAULT_PERMISSIONS: Permission[] = [
  'mailbox:create',
  'mailbox:read',
  'mailbox:send',
  'webhook:write',
  'commerce:request',
  'support:submit',
];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** A key passes when it holds any one of the permissions an operation accepts. */
export function grantsAny(held: readonly string[], accepted: readonly string[]): boolean {
  return accepted.length === 0 || accepted.some((p) => held.includes(p));
}
