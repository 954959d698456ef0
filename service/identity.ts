// Console-plane identity: session JWTs verified against an identity provider's JWKS, or, with
// none configured, against the service's own development key pair kept in DATA_DIR.
import fs from 'node:fs/promises';
import path from 'node:path';
import * as jose from 'jose';
import type { Config } from './config.ts';

export const DEV_ISSUER = 'agent-inbox-dev';
const AUDIENCE = 'agent-inbox-console';
const ALG = 'ES256';

export type ConsoleIdentity = { email: string; subject: string };

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
    mint: async (email, ttlSeconds = 24 * 3600) =>
      new jose.SignJWT({ email: email.toLowerCase(), email_verified: true })
        .setProtectedHeader({ alg: ALG, kid: publicJwk.kid })
        .setIssuer(DEV_ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(`user:${email.toLowerCase()}`)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(privateKey),
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
    ({ payload } = await jose.jwtVerify(token, keys, { issuer, ...(audience ? { audience } : {}) }));
  } catch (err) {
    throw new InvalidSessionError((err as Error).message);
  }
  const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : null;
  if (!email) throw new InvalidSessionError('the session token carries no email claim');
  if (payload.email_verified === false) throw new InvalidSessionError('the session email is not verified');
  return { email, subject: payload.sub ?? email };
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
