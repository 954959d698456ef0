// Agent-surface paging: `limit` (default 50, clamped to 1-100) and an opaque `cursor` that is
// passed back verbatim. A cursor is base64url JSON of the position after the page.
import { badRequest } from '../machines/problems.ts';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

export function pageLimit(limit: unknown): number {
  const n = typeof limit === 'number' && Number.isFinite(limit) ? Math.trunc(limit) : DEFAULT_PAGE;
  return Math.min(MAX_PAGE, Math.max(1, n));
}

export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position in a cursor, checked by `valid`; a cursor that is not one of ours is 400. */
export function decodeCursor<T>(cursor: unknown, valid: (v: any) => v is T): T | null {
  if (cursor === undefined || cursor === null || cursor === '') return null;
  try {
    const value = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
    if (valid(value)) return value;
  } catch {
    // reported below
  }
  throw badRequest('cursor', 'The cursor is not valid; pass back a next_cursor exactly as received.');
}

/** A page of `limit` from `limit + 1` fetched rows. */
export function page<T>(rows: T[], limit: number, cursorOf: (last: T) => Record<string, unknown>) {
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return { data, has_more, next_cursor: has_more ? encodeCursor(cursorOf(data[data.length - 1]!)) : null };
}
