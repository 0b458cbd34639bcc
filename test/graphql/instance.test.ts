import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let owner: Caller;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('feature-owner');
});
afterAll(async () => t?.close());

const SET_FEATURE = `mutation($feature: Feature!, $enabled: Boolean, $user: ID) {
  setFeature(feature: $feature, enabled: $enabled, user: $user) { feature enabled source }
}`;
const shortLink = (as: Caller) => t.rpc('POST', 'user:login', { user: 'me', short: 'true' }, { as });

describe('feature switches', () => {
  it('switches a feature for the instance, and a call that needs it answers 406', async () => {
    expect((await shortLink(owner)).status).toBe(200);
    const off = await t.gql(SET_FEATURE, { feature: 'short_links', enabled: false });
    expect(off.body.errors).toBeUndefined();
    expect(off.body.data.setFeature).toContainEqual({ feature: 'short_links', enabled: false, source: 'instance' });
    const refused = await shortLink(owner);
    expect(refused.status).toBe(406);
    expect(refused.code).toBe('FEATURE_DISABLED');
  });

  it('lets a user switch override the instance, and clearing it restores the instance value', async () => {
    const on = await t.gql(SET_FEATURE, { feature: 'short_links', enabled: true, user: owner.user.id });
    expect(on.body.data.setFeature).toContainEqual({ feature: 'short_links', enabled: true, source: 'user' });
    expect((await shortLink(owner)).status).toBe(200);
    const features = await t.gql(`query($user: ID) { features(user: $user) { feature enabled source } }`, { user: owner.user.id });
    expect(features.body.data.features).toContainEqual({ feature: 'short_links', enabled: true, source: 'user' });
    await t.gql(SET_FEATURE, { feature: 'short_links', enabled: null, user: owner.user.id });
    expect((await shortLink(owner)).status).toBe(406);
    await t.gql(SET_FEATURE, { feature: 'short_links', enabled: true });
    expect((await shortLink(owner)).status).toBe(200);
  });

  it('is for instance administrators only', async () => {
    const r = await t.gql(SET_FEATURE, { feature: 'journeys', enabled: false }, { as: owner });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('ADMIN_ONLY');
    expect((await t.platform.settings.current()).features.journeys).toBe(true);
  });
});

describe('maintenance', () => {
  it('answers 503 to REST and to other users while administrators can switch it off again', async () => {
    const on = await t.gql(`mutation { setMaintenance(enabled: true) }`);
    expect(on.body.data.setMaintenance).toBe(true);
    expect((await t.rpc('GET', 'test:app', {}, { as: owner })).status).toBe(503);
    expect((await t.gql(`{ me { id } }`, {}, { as: owner })).status).toBe(503);
    const off = await t.gql(`mutation { setMaintenance(enabled: false) }`);
    expect(off.body.data.setMaintenance).toBe(false);
    expect((await t.rpc('GET', 'test:app', {}, { as: owner })).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('apply to GraphQL calls per application too', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_PER_MINUTE: '100' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.gql(`{ me { id } }`)).status);
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(statuses.slice(2)).toContain(429);
    } finally {
      await limited.close();
    }
  });
});
