// Encryption at rest for secrets the service must read back (webhook signing secrets): AES-256-GCM
// with ENCRYPTION_KEY, or else a key generated once in DATA_DIR/encryption.key. Processes on other
// machines must share the key, so a multi-host deployment sets ENCRYPTION_KEY.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const fileKeys = new Map<string, Buffer>();

/** The configured key, or the one in DATA_DIR (created on first use, readable by the owner only). */
export function encryptionKey(config: Pick<Config, 'encryptionKey' | 'dataDir'>): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const file = path.join(config.dataDir, 'encryption.key');
  const cached = fileKeys.get(file);
  if (cached) return cached;
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': when two processes start together, the first writer wins and both read its key.
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a base64 key of 32 bytes`);
  fileKeys.set(file, key);
  return key;
}

/** version byte, IV, GCM tag, ciphertext. */
export function seal(key: Buffer, plaintext: string): Buffer {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

/** Throws when the key is not the one that sealed the value, or the value was altered. */
export function open(key: Buffer, sealed: Buffer): string {
  if (sealed[0] !== VERSION) throw new Error('unknown sealed secret version');
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** seal and open bound to the service's key. */
export function sealerFor(config: Pick<Config, 'encryptionKey' | 'dataDir'>): { seal(plaintext: string): Buffer; open(sealed: Buffer): string } {
  const key = encryptionKey(config);
  return { seal: (plaintext) => seal(key, plaintext), open: (sealed) => open(key, sealed) };
}
