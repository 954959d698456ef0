// Console-plane identity: session JWTs verified against an identity provider's JWKS, or, with
// none configured, against the service's own development key pair kept in DATA_DIR.
import fs from 'node:fs/promises';
import path from 'node:path';
import * as jose from 'jose';
import type { Config } from './config.ts';

export const DEV_ISSUER = 'agent-inbox-dev';
const AUDIENCE = 'agent-inbox-console';
const ALG = 'ES256';

/**
 * A session token must say when it was issued and when it ends, and live at most a day: a token
 * without `exp` would work forever once leaked. `iat` may run ahead of our clock by the skew only.
 */
export const MAX_SESSION_SECONDS = 24 * 3600;
const CLOCK_SKEW_SECONDS = 60;

/**
 * Who is signed in. `email_verified` is true only when the token says so (`email_verified: true`):
 * claims and invitations bind to an email, and only a verified one may be bound to. `expires_at`:
 * the token's `exp` (Unix seconds); a console session made from it ends then.
 */
export type ConsoleIdentity = { email: string; subject: string; email_verified: boolean; expires_at: number };

/** The console page's session cookie: the session token itself, HttpOnly and SameSite=Strict. */
export const SESSION_COOKIE = 'agent_inbox_session';

export type IdentityProvider = {
  verify(token: string): Promise<ConsoleIdentity>;
  /** Mints a console token; only the development provider can. */
  mint: ((email: string, ttlSeconds?: number) => Promise<string>) | null;
  /** The public keys of the development provider, served for other verifiers. */
  publicJwks: jose.JSONWebKeySet | null;
};

export class InvalidSessionError extends Error {}

export async function createIdentityProvider(config: Config): Promise<IdentityProvider> {
  if (config.consoleJwksUrl && config.consoleIssuer) {
    const jwks = jose.createRemoteJWKSet(new URL(config.consoleJwksUrl));
    const issuer = config.consoleIssuer;
    return { verify: (token) => verifyWith(token, jwks, issuer, null), mint: null, publicJwks: null };
  }
  const { privateKey, publicJwk } = await loadOrCreateDevKey(config.dataDir);
  const keySet = jose.createLocalJWKSet({ keys: [publicJwk] });
  return {
    verify: (token) => verifyWith(token, keySet, DEV_ISSUER, AUDIENCE),
    mint: async (email, ttlSeconds = MAX_SESSION_SECONDS) => {
      if (ttlSeconds > MAX_SESSION_SECONDS) throw new Error(`console tokens live at most ${MAX_SESSION_SECONDS} s`);
      const now = Math.floor(Date.now() / 1000);
      return new jose.SignJWT({ email: email.toLowerCase(), email_verified: true })
        .setProtectedHeader({ alg: ALG, kid: publicJwk.kid })
        .setIssuer(DEV_ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(`user:${email.toLowerCase()}`)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(privateKey);
    },
    publicJwks: { keys: [publicJwk] },
  };
}

async function verifyWith(
  token: string,
  keys: jose.JWTVerifyGetKey,
  issuer: string,
  audience: string | null,
): Promise<ConsoleIdentity> {
  let payload: jose.JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(token, keys, {
      issuer,
      ...(audience ? { audience } : {}),
      requiredClaims: ['exp', 'iat'],
      clockTolerance: CLOCK_SKEW_SECONDS,
      maxTokenAge: MAX_SESSION_SECONDS,
    }));
  } catch (err) {
    throw new InvalidSessionError((err as Error).message);
  }
  const { iat, exp } = payload as { iat: number; exp: number };
  if (iat > Math.floor(Date.now() / 1000) + CLOCK_SKEW_SECONDS) throw new InvalidSessionError('the session token is issued in the future');
  if (exp - iat > MAX_SESSION_SECONDS) throw new InvalidSessionError(`the session token lives longer than ${MAX_SESSION_SECONDS / 3600} hours`);
  const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : null;
  if (!email) throw new InvalidSessionError('the session token carries no email claim');
  if (payload.email_verified === false) throw new InvalidSessionError('the session email is not verified');
  return { email, subject: payload.sub ?? email, email_verified: payload.email_verified === true, expires_at: exp };
}

async function loadOrCreateDevKey(dataDir: string): Promise<{ privateKey: CryptoKey; publicJwk: jose.JWK }> {
  const file = path.join(dataDir, 'console-signing-key.json');
  let stored: { private: jose.JWK; public: jose.JWK };
  try {
    stored = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    const pair = await jose.generateKeyPair(ALG, { extractable: true });
    const pub = await jose.exportJWK(pair.publicKey);
    pub.kid = await jose.calculateJwkThumbprint(pub);
    pub.alg = ALG;
    pub.use = 'sig';
    stored = { private: { ...(await jose.exportJWK(pair.privateKey)), kid: pub.kid, alg: ALG }, public: pub };
    await fs.mkdir(dataDir, { recursive: true });
    // 'wx': when two processes start together, the first key written wins and both use it.
    await fs.writeFile(file, JSON.stringify(stored), { mode: 0o600, flag: 'wx' }).catch(() => {});
    stored = JSON.parse(await fs.readFile(file, 'utf8'));
  }
  const privateKey = (await jose.importJWK(stored.private, ALG)) as CryptoKey;
  return { privateKey, publicJwk: stored.public };
}
