import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('Authorization: Bearer <base64(app:secret)>', () => {
  it('is accepted by REST like Bearer <app>:<secret>', async () => {
    const { app, secret } = t.admin;
    for (const token of [b64(`${app}:${secret}`), b64url(`${app}:${secret}`), `${app}:${secret}`]) {
      const r = await t.rpc('GET', 'user:me', {}, { as: null, headers: { authorization: `Bearer ${token}` } });
      expect(r.status, token).toBe(200);
      expect(r.body).toEqual({ user: t.admin.user.id, name: 'admin Tester', status: true, exam: false });
    }
  });

  it('is accepted by GraphQL', async () => {
    const { app, secret } = t.admin;
    const r = await t.gql('{ me { username } }', {}, { as: null, headers: { authorization: `Bearer ${b64(`${app}:${secret}`)}` } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { me: { username: 'admin' } } });
  });

  it('refuses a wrong secret, a token without a colon and a token that is not base64 with 401', async () => {
    const { app } = t.admin;
    expectError(await t.rpc('GET', 'user:me', {}, { as: null, headers: { authorization: `Bearer ${b64(`${app}:wrong`)}` } }), 401, 'INVALID_CREDENTIALS');
    expectError(await t.rpc('GET', 'user:me', {}, { as: null, headers: { authorization: `Bearer ${b64(app)}` } }), 401, 'MISSING_CREDENTIALS');
    expectError(await t.rpc('GET', 'user:me', {}, { as: null, headers: { authorization: 'Bearer %%%' } }), 401, 'MISSING_CREDENTIALS');
    const gql = await t.gql('{ me { username } }', {}, { as: null, headers: { authorization: `Bearer ${b64(`${app}:wrong`)}` } });
    expect(gql.body.data ?? null).toBeNull();
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
  });
});
