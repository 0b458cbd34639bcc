import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of the Standard Webhooks specification (standardwebhooks.com): the receiver checks
 * origin (only holders of the secret can sign) and freshness (the signed timestamp), and drops
 * repeats by `webhook-id`, which stays the same across retries of one delivery.
 */

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<content>">` keyed with the secret's bytes. */
export function sign(secret: string, id: string, timestamp: number, content: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${content}`).digest('base64')}`;
}

/**
 * The receiver's check: one of the space-separated signatures matches and the timestamp is within
 * `toleranceSeconds` of now. Exported for tests and as the reference for integrators.
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  content: string,
  toleranceSeconds = 300,
  now = Date.now(),
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, headers.id, timestamp, content));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
