// Agent-surface paging: `limit` (default 50, clamped to 1-100) and an opaque `cursor` that is
// passed back verbatim. A cursor is base64url JSON of the position after the page, signed with an
// HMAC under a key derived from the service's encryption key (shared by every process, like the
// webhook secrets it seals). Only a cursor this service minted is read: before the signature, a
// cursor holding a NUL or a date PostgreSQL cannot read reached the query and failed there (a 500).
import crypto from 'node:crypto';
import { badRequest } from '../machines/problems.ts';
import { encryptionKey } from '../service/encryption.ts';
import type { Config } from '../service/config.ts';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

export function pageLimit(limit: unknown): number {
  const n = typeof limit === 'number' && Number.isFinite(limit) ? Math.trunc(limit) : DEFAULT_PAGE;
  return Math.min(MAX_PAGE, Math.max(1, n));
}

export type Cursors = {
  encode(position: Record<string, unknown>): string;
  /** The position in a cursor, checked by `valid`; a cursor that is not one of ours is 400. */
  decode<T>(cursor: unknown, valid: (v: any) => v is T): T | null;
  /** A page of `limit` from `limit + 1` fetched rows. */
  page<T>(rows: T[], limit: number, cursorOf: (last: T) => Record<string, unknown>): { data: T[]; has_more: boolean; next_cursor: string | null };
};

const MAC_BYTES = 16;
const SHAPE = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{22})$/;
const codecs = new WeakMap<object, Cursors>();

const invalid = () => badRequest('cursor', 'The cursor is not valid; pass back a next_cursor exactly as received.');

/** The cursor codec of this service (one per configuration; the key is read once). */
export function cursorsFor(config: Pick<Config, 'encryptionKey' | 'dataDir'>): Cursors {
  const known = codecs.get(config);
  if (known) return known;
  const key = crypto.createHmac('sha256', encryptionKey(config)).update('agent-inbox paging cursor v1').digest();
  const mac = (payload: string) => crypto.createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
  const encode = (position: Record<string, unknown>) => {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${mac(payload).toString('base64url')}`;
  };
  const codec: Cursors = {
    encode,
    decode<T>(cursor: unknown, valid: (v: any) => v is T): T | null {
      if (cursor === undefined || cursor === null || cursor === '') return null;
      const m = typeof cursor === 'string' ? SHAPE.exec(cursor) : null;
      if (!m) throw invalid();
      const given = Buffer.from(m[2]!, 'base64url');
      // The signature first: nothing of an unsigned cursor is parsed, let alone queried. Its last
      // character carries two unused bits: only the one spelling encode() gives is taken.
      if (given.length !== MAC_BYTES || given.toString('base64url') !== m[2] || !crypto.timingSafeEqual(given, mac(m[1]!))) throw invalid();
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (!valid(value)) throw invalid();
      return value;
    },
    page(rows, limit, cursorOf) {
      const has_more = rows.length > limit;
      const data = has_more ? rows.slice(0, limit) : rows;
      return { data, has_more, next_cursor: has_more ? encode(cursorOf(data[data.length - 1]!)) : null };
    },
  };
  codecs.set(config, codec);
  return codec;
}
