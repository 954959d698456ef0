// Opaque forms of global sequence numbers. Event ids were `evt_<position in the one log>`, so a
// tenant could read the platform's volume from the gaps between its own ids. A position is now
// encrypted as one AES-256 block (a keyed permutation: the same position always gives the same id,
// so webhook retries and stream replays repeat it) of the position and eight zero bytes; the zeros
// are checked on the way back, so a forged or altered id is refused (2^-64 odds of passing).
import crypto from 'node:crypto';
import type { Executor, Pool } from './db.ts';

export type OpaqueIds = {
  encode(position: number): string;
  /** The position, or null for anything this codec did not produce. */
  decode(id: string): number | null;
};

const BLOCK = 16;

export function opaqueIds(key: Buffer, prefix: string): OpaqueIds {
  const run = (mode: 'encrypt' | 'decrypt', block: Buffer): Buffer => {
    const c = mode === 'encrypt' ? crypto.createCipheriv('aes-256-ecb', key, null) : crypto.createDecipheriv('aes-256-ecb', key, null);
    c.setAutoPadding(false);
    return Buffer.concat([c.update(block), c.final()]);
  };
  return {
    encode(position) {
      const block = Buffer.alloc(BLOCK);
      block.writeBigUInt64BE(BigInt(position));
      return prefix + run('encrypt', block).toString('base64url');
    },
    decode(id) {
      if (typeof id !== 'string' || !id.startsWith(prefix)) return null;
      const body = id.slice(prefix.length);
      if (!/^[A-Za-z0-9_-]{22}$/.test(body)) return null;
      const bytes = Buffer.from(body, 'base64url');
      // The last character carries four unused bits: only the one spelling encode() gives is taken.
      if (bytes.toString('base64url') !== body) return null;
      const block = run('decrypt', bytes);
      if (!block.subarray(8).equals(Buffer.alloc(8))) return null;
      const position = block.readBigUInt64BE();
      return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
    },
  };
}

/** The named key, made on first use by whichever process gets there first. */
export async function serviceKey(db: Executor, name: string): Promise<Buffer> {
  await db.query('INSERT INTO service_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, crypto.randomBytes(32)]);
  const { rows } = await db.query<{ key: Buffer }>('SELECT key FROM service_keys WHERE name = $1', [name]);
  return rows[0]!.key;
}

const loaded = new WeakMap<Pool, Map<string, Promise<OpaqueIds>>>();

function codecFor(db: Pool, name: string, prefix: string): Promise<OpaqueIds> {
  let byName = loaded.get(db);
  if (!byName) loaded.set(db, (byName = new Map()));
  let codec = byName.get(name);
  if (!codec) {
    codec = serviceKey(db, name).then((key) => opaqueIds(key, prefix));
    // A failed read (the database away) is tried again next time, not remembered.
    codec.catch(() => byName!.delete(name));
    byName.set(name, codec);
  }
  return codec;
}

/** The codec of public event ids (`evt_` and 22 characters) for this database. */
export const eventIdsFor = (db: Pool): Promise<OpaqueIds> => codecFor(db, 'event-ids', 'evt_');

/** The codec of webhook delivery list cursors (positions in the service-wide delivery sequence). */
export const deliveryCursorsFor = (db: Pool): Promise<OpaqueIds> => codecFor(db, 'delivery-cursors', 'd');

/** The codec of reviewer work ids (`rwk_` and 22 characters), the resume ids of the reviewer's stream and WebSocket. */
export const reviewerWorkIdsFor = (db: Pool): Promise<OpaqueIds> => codecFor(db, 'reviewer-work-ids', 'rwk_');
