import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/**
 * Passwords: scrypt, deliberately slow. The cost (log2 of scrypt's N, PASSWORD_HASH_COST) is
 * stored with each hash, so hashes made at any cost keep verifying when it changes.
 * Format: scrypt$N$r$p$salt$hash (base64url).
 */
const R = 8;
const P = 1;
const KEYLEN = 32;
/** scrypt itself caps its memory; this is twice what N and r need (128·N·r bytes). */
const maxmem = (n: number, r: number) => Math.max(32 * 1024 * 1024, 256 * n * r);
/** The largest N a stored hash may ask for: PASSWORD_HASH_COST's maximum. */
const MAX_N = 2 ** 17;

export async function hashPassword(password: string, cost: number): Promise<string> {
  const n = 2 ** cost;
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEYLEN, { N: n, r: R, p: P, maxmem: maxmem(n, R) });
  return ['scrypt', n, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const [N, rr, pp] = [Number(n), Number(r), Number(p)];
  // A stored hash is trusted data, but one that asks for absurd work is refused, not attempted.
  const sane = N >= 2 && N <= MAX_N && Number.isInteger(Math.log2(N)) && rr >= 1 && rr <= 32 && pp >= 1 && pp <= 16;
  if (scheme !== 'scrypt' || !salt || !hash || !sane) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N, r: rr, p: pp, maxmem: maxmem(N, rr) });
  return timingSafeEqual(actual, expected);
}

/** SHA-256 for high-entropy tokens: they need no slow hash, and a lookup by digest is one index hit. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Constant-time equality of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Symmetric encryption (AES-256-GCM) for secrets that must be shown again, such as integration
 * secrets. Format: v1.iv.tag.ciphertext (base64url).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** Parses SECRET_KEY given as 64 hex characters or base64 of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}
