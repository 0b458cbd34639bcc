import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './secrets.ts';

describe('password hashes', () => {
  it('are scrypt at the cost given, with the cost stored in the hash', async () => {
    const cheap = await hashPassword('correct horse', 4);
    expect(cheap).toMatch(/^scrypt\$16\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse', cheap)).toBe(true);
    expect(await verifyPassword('correct horsf', cheap)).toBe(false);
    const production = await hashPassword('correct horse', 14);
    expect(production).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', production)).toBe(true);
  });

  it('use a fresh salt each time', async () => {
    expect(await hashPassword('same', 4)).not.toBe(await hashPassword('same', 4));
  });

  it('verify as false, without attempting the work, when stored parameters are malformed or absurd', async () => {
    const hash = (await hashPassword('pw', 4)).split('$');
    const started = performance.now();
    for (const [n, r, p] of [['1073741824', '8', '1'], ['24', '8', '1'], ['16', '0', '1'], ['16', '8', '999'], ['x', '8', '1']]) {
      expect(await verifyPassword('pw', ['scrypt', n, r, p, hash[4], hash[5]].join('$'))).toBe(false);
    }
    expect(await verifyPassword('pw', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('pw', '')).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
