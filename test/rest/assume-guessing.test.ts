import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';

/** `user:assume` against guessing: unknown users and wrong passwords alike, growing delays per target. */
let t: TestApp;
let guesser: Caller;
beforeAll(async () => {
  t = await createTestApp();
  guesser = await t.newCaller('guesser');
});
afterAll(async () => t?.close());

const assume = (user: string, password?: string) => t.rpc('POST', 'user:assume', password === undefined ? { user } : { user, password }, { as: guesser });
const tokens = () => t.db.prisma.assumeToken.count();

describe('user:assume for a user the caller does not manage', () => {
  it('answers an unknown user exactly as an existing user with a wrong or missing password', async () => {
    const victim = await t.newCaller('victim-a');
    for (const password of [undefined, 'wrong-password']) {
      const known = await assume(victim.user.username, password);
      const unknown = await assume('no-such-user', password);
      expect(unknown.status).toBe(known.status);
      expect(unknown.code).toBe(known.code);
      expect(unknown.error).toBe(known.error);
      expect(unknown.body).toEqual(known.body);
    }
    const wrong = await assume(victim.user.username, 'wrong-password');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: { status: 403, code: 'WRONG_PASSWORD', message: "Argument 'password': does not match", argument: 'password' } });
  });

  it('locks a target after five wrong passwords, for growing delays, refusing even the right password meanwhile', async () => {
    const victim = await t.newCaller('victim-b');
    // The victim's application secret proves the user as its password does.
    const before = await tokens();
    for (let i = 0; i < 5; i++) expect((await assume(victim.user.id, `guess-${i}`)).code).toBe('WRONG_PASSWORD');
    // The sixth wrong one is still checked, and locks the target for 1 s.
    expect((await assume(victim.user.id, 'guess-5')).code).toBe('WRONG_PASSWORD');
    const locked = await assume(victim.user.id, victim.secret);
    expect(locked.status).toBe(429);
    expect(locked.code).toBe('RATE_LIMITED');
    expect(Number(locked.headers.get('retry-after'))).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    // The seventh wrong one locks it for 2 s.
    expect((await assume(victim.user.id, 'guess-6')).code).toBe('WRONG_PASSWORD');
    const longer = await assume(victim.user.id, victim.secret);
    expect(longer.status).toBe(429);
    expect(Number(longer.headers.get('retry-after'))).toBe(2);
    expect(await tokens()).toBe(before);
    await new Promise((r) => setTimeout(r, 2100));
    // The right proof after the lock: a token, and the count starts over.
    const right = await assume(victim.user.id, victim.secret);
    expect(right.status).toBe(200);
    expect(await tokens()).toBe(before + 1);
    expect((await assume(victim.user.id, 'guess-7')).code).toBe('WRONG_PASSWORD');
  });

  it('locks unknown targets alike', async () => {
    for (let i = 0; i < 6; i++) expect((await assume('ghost-user', `guess-${i}`)).code).toBe('WRONG_PASSWORD');
    const locked = await assume('ghost-user', 'guess-6');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBe(1);
  });
});
