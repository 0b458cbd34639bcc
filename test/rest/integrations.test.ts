import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { seed } from '../helpers/seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());


/** Creates an integration through the contract and returns its identification string. */
async function create(as: Caller, args: Record<string, unknown>): Promise<string> {
  const r = await t.rpc('POST', 'integration', args, { as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(Object.keys(r.body)).toEqual(['integration']);
  expect(r.body.integration).toMatch(/^int_[a-z0-9]+$/);
  return r.body.integration;
}

/** A caller made of an API integration's keys as GET integration:keys shows them. */
async function callerOf(owner: Caller, integration: string): Promise<Caller> {
  const keys = await t.rpc('GET', 'integration:keys', { integration }, { as: owner });
  expect(keys.status).toBe(200);
  return { user: owner.user, app: keys.body.app, secret: keys.body.secret, integrationId: integration };
}

const row = (id: string) => t.db.prisma.integration.findUniqueOrThrow({ where: { id } });

/** An organization created by `owner` (by default the administrator, whom the callers do not know). */
async function newOrganization(title: string, owner: Caller = t.admin): Promise<string> {
  return (await seed(t).as(owner).organization({ title })).id;
}

/** The administrator adds the member: it may add any user to any organization. */
async function addMember(organizationId: string, user: Caller, permissionOrganization = 'member') {
  await seed(t).admin.addMembers(organizationId, [user], { permissionOrganization });
}

const lms13 = { title: 'LMS 1.3', type: 'lms', lti: '1.3', platform: 'https://lms.example.com' };
const lms11 = { title: 'LMS 1.1', type: 'lms_a', lti: '1.0/1.1', platform: 'https://moodle.example.com/' };

describe('GET integrations', () => {
  it('lists only the caller own integrations with integration, id and title; administrators see all', async () => {
    const owner = await t.newCaller('list-owner');
    const other = await t.newCaller('list-other');
    const made = await create(owner, { title: 'Second app' });
    const foreign = await create(other, { title: 'Foreign app' });

    const r = await t.rpc('GET', 'integrations', {}, { as: owner });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(r.body)).toEqual(['integrations']);
    const ids = r.body.integrations.map((i: any) => i.integration).sort();
    expect(ids).toEqual([owner.integrationId, made].sort());
    const second = r.body.integrations.find((i: any) => i.integration === made);
    expect(second).toEqual({ integration: made, id: null, title: 'Second app' });
    for (const i of r.body.integrations) {
      expect(Object.keys(i)).toEqual(['integration', 'id', 'title']);
      expect(typeof i.integration).toBe('string');
      expect(typeof i.title).toBe('string');
    }

    const all = await t.rpc('GET', 'integrations', { limit: 1000 });
    const allIds = all.body.integrations.map((i: any) => i.integration);
    expect(allIds).toEqual(expect.arrayContaining([t.admin.integrationId, owner.integrationId, made, foreign, other.integrationId]));
  });

  it('pages with limit (default 16) and page (default 1); search filters the titles and ignores page', async () => {
    const owner = await t.newCaller('paging-owner');
    for (let i = 1; i <= 20; i++) await create(owner, { title: `Paged ${String(i).padStart(2, '0')}` });
    // 21 in all with the caller's own application.
    const first = await t.rpc('GET', 'integrations', {}, { as: owner });
    expect(first.body.integrations).toHaveLength(16);
    const second = await t.rpc('GET', 'integrations', { page: 2 }, { as: owner });
    expect(second.body.integrations).toHaveLength(5);
    const seen = new Set([...first.body.integrations, ...second.body.integrations].map((i: any) => i.integration));
    expect(seen.size).toBe(21);
    const small = await t.rpc('GET', 'integrations', { limit: 5, page: 5 }, { as: owner });
    expect(small.body.integrations).toHaveLength(1);
    expect((await t.rpc('GET', 'integrations', { limit: 5, page: 6 }, { as: owner })).body.integrations).toEqual([]);

    const search = await t.rpc('GET', 'integrations', { search: 'paged 1', page: 3 }, { as: owner });
    expect(search.body.integrations.map((i: any) => i.title).sort()).toEqual(
      ['Paged 10', 'Paged 11', 'Paged 12', 'Paged 13', 'Paged 14', 'Paged 15', 'Paged 16', 'Paged 17', 'Paged 18', 'Paged 19'],
    );
    const limited = await t.rpc('GET', 'integrations', { search: 'Paged', limit: 3 }, { as: owner });
    expect(limited.body.integrations).toHaveLength(3);
  });

  it('refuses invalid paging arguments with 403 naming them', async () => {
    expectError(await t.rpc('GET', 'integrations', { limit: 'many' }), 403, 'INVALID_ARGUMENT', 'limit');
    expectError(await t.rpc('GET', 'integrations', { page: '0' }), 403, 'INVALID_ARGUMENT', 'page');
  });
});

describe('GET integration', () => {
  it('returns integration, id, title, type and active with their JSON types, and no lti for API integrations', async () => {
    const owner = await t.newCaller('read-owner');
    const r = await t.rpc('GET', 'integration', { integration: owner.integrationId }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ integration: owner.integrationId, id: null, title: 'read-owner app', type: 'api', active: true });
    expect(r.body).not.toHaveProperty('lti');
  });

  it('returns lti for LMS integrations', async () => {
    const owner = await t.newCaller('read-lms');
    const a = await create(owner, lms11);
    const b = await create(owner, lms13);
    expect((await t.rpc('GET', 'integration', { integration: a }, { as: owner })).body).toEqual({
      integration: a, id: null, title: 'LMS 1.1', type: 'lms_a', active: true, lti: '1.0/1.1',
    });
    expect((await t.rpc('GET', 'integration', { integration: b }, { as: owner })).body).toEqual({
      integration: b, id: null, title: 'LMS 1.3', type: 'lms', active: true, lti: '1.3',
    });
  });

  it('refuses a missing or unknown integration and another user integration with 403; administrators read all', async () => {
    const owner = await t.newCaller('read-other');
    const stranger = await t.newCaller('read-stranger');
    expectError(await t.rpc('GET', 'integration', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'integration');
    expectError(await t.rpc('GET', 'integration', { integration: 'int_doesnotexist' }, { as: owner }), 403, 'NOT_FOUND', 'integration');
    expectError(await t.rpc('GET', 'integration', { integration: stranger.integrationId }, { as: owner }), 403, 'NOT_FOUND');
    const admin = await t.rpc('GET', 'integration', { integration: stranger.integrationId });
    expect(admin.status).toBe(200);
    expect(admin.body.integration).toBe(stranger.integrationId);
  });
});

describe('POST integration', () => {
  it('creates an API integration by default, owned by the caller, whose keys can call the service', async () => {
    const owner = await t.newCaller('create-default');
    const id = await create(owner, { title: 'My tool', description: 'Reports' });
    const record = await row(id);
    expect(record).toMatchObject({ title: 'My tool', description: 'Reports', type: 'api', active: true, lti: null, ownerId: owner.user.id, organizationId: null });
    const caller = await callerOf(owner, id);
    const test = await t.rpc('GET', 'test:app', {}, { as: caller });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ app: caller.app, user: owner.user.id });
  });

  it('accepts a JSON body as well', async () => {
    const owner = await t.newCaller('create-json');
    const r = await t.rpc('POST', 'integration', { title: 'Json', type: 'lms_b', lti: '1.3', platform: 'https://lms.example.org' }, { as: owner, encoding: 'json' });
    expect(r.status).toBe(200);
    expect(await row(r.body.integration)).toMatchObject({ type: 'lms_b', lti: '1.3', platform: 'https://lms.example.org' });
  });

  it('requires a title of 1 to 255 characters and creates nothing otherwise', async () => {
    const owner = await t.newCaller('create-title');
    expectError(await t.rpc('POST', 'integration', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'title');
    expectError(await t.rpc('POST', 'integration', { title: '' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    expectError(await t.rpc('POST', 'integration', { title: 'x'.repeat(256) }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    expect(await t.db.prisma.integration.count({ where: { ownerId: owner.user.id } })).toBe(1);
  });

  it('accepts the six types and refuses others', async () => {
    const owner = await t.newCaller('create-types');
    for (const type of ['api', 'lms_a', 'lms_b', 'lms_c', 'lms_d', 'lms']) {
      const args = type === 'api' ? { title: type, type } : { title: type, type, lti: '1.3', platform: 'https://lms.example.com' };
      const id = await create(owner, args);
      expect((await t.rpc('GET', 'integration', { integration: id }, { as: owner })).body.type).toBe(type);
    }
    expectError(await t.rpc('POST', 'integration', { title: 'x', type: 'moodle', lti: '1.3', platform: 'https://a.example' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'type');
    expect(await t.db.prisma.integration.count({ where: { ownerId: owner.user.id } })).toBe(7);
  });

  it('requires lti and platform for LMS integrations and refuses them for API integrations', async () => {
    const owner = await t.newCaller('create-lti');
    const before = await t.db.prisma.integration.count();
    expectError(await t.rpc('POST', 'integration', { title: 'x', type: 'lms', platform: 'https://a.example' }, { as: owner }), 403, 'MISSING_ARGUMENT', 'lti');
    expectError(await t.rpc('POST', 'integration', { title: 'x', type: 'lms_c', lti: '1.3' }, { as: owner }), 403, 'MISSING_ARGUMENT', 'platform');
    expectError(await t.rpc('POST', 'integration', { title: 'x', type: 'lms', lti: '2.0', platform: 'https://a.example' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'lti');
    expectError(await t.rpc('POST', 'integration', { title: 'x', type: 'lms', lti: '1.3', platform: 'not a url' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'platform');
    expectError(await t.rpc('POST', 'integration', { title: 'x', lti: '1.3' }, { as: owner }), 403, 'ARGUMENT_CONFLICT', 'lti');
    expectError(await t.rpc('POST', 'integration', { title: 'x', type: 'api', lti: '1.0/1.1' }, { as: owner }), 403, 'ARGUMENT_CONFLICT', 'lti');
    expectError(await t.rpc('POST', 'integration', { title: 'x', platform: 'https://a.example' }, { as: owner }), 403, 'ARGUMENT_CONFLICT', 'platform');
    expect(await t.db.prisma.integration.count()).toBe(before);
  });

  it('records LTI 1.0, 1.1 and 1.0/1.1 as 1.0/1.1, and 1.3 as 1.3', async () => {
    const owner = await t.newCaller('create-versions');
    for (const [lti, stored] of [['1.0', '1.0/1.1'], ['1.1', '1.0/1.1'], ['1.0/1.1', '1.0/1.1'], ['1.3', '1.3']]) {
      const id = await create(owner, { title: lti, type: 'lms_d', lti, platform: 'https://lms.example.com' });
      expect((await t.rpc('GET', 'integration', { integration: id }, { as: owner })).body.lti).toBe(stored);
    }
  });

  describe('organization', () => {
    it('accepts an organization the owner owns or administers and refuses others', async () => {
      const owner = await t.newCaller('org-owner');
      const owned = await newOrganization('Owned', owner);
      const administered = await newOrganization('Administered');
      await addMember(administered, owner, 'admin');
      const foreign = await newOrganization('Foreign');
      // A plain member sees the organization: it is told that it is not its own.
      await addMember(foreign, owner, 'member');
      const hidden = await newOrganization('Hidden');
      const count = () => t.db.prisma.integration.count({ where: { ownerId: owner.user.id } });

      expect((await row(await create(owner, { title: 'a', organization: owned }))).organizationId).toBe(owned);
      expect((await row(await create(owner, { title: 'b', organization: administered }))).organizationId).toBe(administered);
      expect((await row(await create(owner, { title: 'c' }))).organizationId).toBeNull();
      const before = await count();
      expectError(await t.rpc('POST', 'integration', { title: 'd', organization: foreign }, { as: owner }), 403, 'NOT_OWN_ORGANIZATION', 'organization');
      expectError(await t.rpc('POST', 'integration', { title: 'e', organization: 'org_nonexistent' }, { as: owner }), 403, 'NOT_FOUND', 'organization');
      // One it may not view is unknown.
      expectError(await t.rpc('POST', 'integration', { title: 'f', organization: hidden }, { as: owner }), 403, 'NOT_FOUND', 'organization');
      expect(await count()).toBe(before);
    });

    it('refuses an organization where the owner is only a member when it administers another', async () => {
      const owner = await t.newCaller('org-mixed');
      const owned = await newOrganization('Mixed owned', owner);
      const joined = await newOrganization('Mixed joined');
      await addMember(joined, owner, 'teacher');
      expectError(await t.rpc('POST', 'integration', { title: 'x', organization: joined }, { as: owner }), 403, 'NOT_OWN_ORGANIZATION', 'organization');
      expect((await row(await create(owner, { title: 'y', organization: owned }))).organizationId).toBe(owned);
    });

    it('puts the integrations of an organizational member in its organization, always', async () => {
      const member = await t.newCaller('org-member');
      const home = await newOrganization('Home');
      await addMember(home, member, 'member');
      const elsewhere = await newOrganization('Elsewhere');
      expect((await row(await create(member, { title: 'implicit' }))).organizationId).toBe(home);
      expect((await row(await create(member, { title: 'explicit', organization: elsewhere }))).organizationId).toBe(home);
    });

    it('lets an administrator choose any organization', async () => {
      const any = await newOrganization('Any');
      expect((await row(await create(t.admin, { title: 'admin org', organization: any }))).organizationId).toBe(any);
    });
  });
});

describe('PATCH integration', () => {
  it('deactivates and reactivates; an inactive integration cannot call (401)', async () => {
    const owner = await t.newCaller('patch-active');
    const id = await create(owner, { title: 'Switch' });
    const caller = await callerOf(owner, id);
    const off = await t.rpc('PATCH', 'integration', { integration: id, active: 'false' }, { as: owner });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ integration: id, active: false });
    expect((await t.rpc('GET', 'integration', { integration: id }, { as: owner })).body.active).toBe(false);
    expectError(await t.rpc('GET', 'test:app', {}, { as: caller }), 401, 'INTEGRATION_INACTIVE');
    expectError(await t.rpc('GET', 'integration:keys', { integration: id }, { as: caller }), 401, 'INTEGRATION_INACTIVE');

    const on = await t.rpc('PATCH', 'integration', { integration: id, active: true }, { as: owner, encoding: 'json' });
    expect(on.body.active).toBe(true);
    expect((await t.rpc('GET', 'test:app', {}, { as: caller })).status).toBe(200);
  });

  it('may deactivate the integration making the call, which takes effect from the next call', async () => {
    const owner = await t.newCaller('patch-self');
    const r = await t.rpc('PATCH', 'integration', { integration: owner.integrationId, active: 'false' }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body.active).toBe(false);
    expectError(await t.rpc('GET', 'test:app', {}, { as: owner }), 401, 'INTEGRATION_INACTIVE');
    // An administrator can switch it back on.
    expect((await t.rpc('PATCH', 'integration', { integration: owner.integrationId, active: 'true' })).status).toBe(200);
    expect((await t.rpc('GET', 'test:app', {}, { as: owner })).status).toBe(200);
  });

  it('refuses an invalid active value and changes nothing', async () => {
    const owner = await t.newCaller('patch-invalid');
    expectError(await t.rpc('PATCH', 'integration', { integration: owner.integrationId, active: 'maybe' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'active');
    expectError(await t.rpc('PATCH', 'integration', { active: 'false' }, { as: owner }), 403, 'MISSING_ARGUMENT', 'integration');
    expect((await row(owner.integrationId)).active).toBe(true);
  });

  it('moves the integration to an organization of the owner; none or empty removes it', async () => {
    const owner = await t.newCaller('patch-org');
    const a = await newOrganization('Patch A', owner);
    const b = await newOrganization('Patch B', owner);
    const id = await create(owner, { title: 'Mover' });
    const move = async (organization: string) => {
      const r = await t.rpc('PATCH', 'integration', { integration: id, organization }, { as: owner });
      expect(r.status).toBe(200);
      return (await row(id)).organizationId;
    };
    expect(await move(a)).toBe(a);
    expect(await move(b)).toBe(b);
    expect(await move('none')).toBeNull();
    expect(await move(a)).toBe(a);
    expect(await move('')).toBeNull();
  });

  it('refuses an organization that is not the owner one, unknown ones, and changes nothing at all', async () => {
    const owner = await t.newCaller('patch-org-refused');
    const mine = await newOrganization('Mine', owner);
    const foreign = await newOrganization('Not mine');
    await addMember(foreign, owner, 'member');
    const hidden = await newOrganization('Hidden');
    const id = await create(owner, { title: 'Stay', organization: mine });
    expectError(await t.rpc('PATCH', 'integration', { integration: id, active: 'false', organization: foreign }, { as: owner }), 403, 'NOT_OWN_ORGANIZATION', 'organization');
    expectError(await t.rpc('PATCH', 'integration', { integration: id, active: 'false', organization: 'org_nonexistent' }, { as: owner }), 403, 'NOT_FOUND', 'organization');
    expectError(await t.rpc('PATCH', 'integration', { integration: id, active: 'false', organization: hidden }, { as: owner }), 403, 'NOT_FOUND', 'organization');
    expect(await row(id)).toMatchObject({ active: true, organizationId: mine });
  });

  it('keeps the integration of an organizational member in its organization', async () => {
    const member = await t.newCaller('patch-member');
    const home = await newOrganization('Patch home');
    await addMember(home, member);
    const id = await create(member, { title: 'Member app' });
    expect((await t.rpc('PATCH', 'integration', { integration: id, organization: 'none' }, { as: member })).status).toBe(200);
    expect((await row(id)).organizationId).toBe(home);
  });

  it('lets an administrator change the organization of another user integration, within that owner organizations', async () => {
    const owner = await t.newCaller('patch-by-admin');
    const theirs = await newOrganization('Theirs', owner);
    const unrelated = await newOrganization('Unrelated');
    const id = await create(owner, { title: 'Managed' });
    expect((await t.rpc('PATCH', 'integration', { integration: id, organization: theirs })).status).toBe(200);
    expect((await row(id)).organizationId).toBe(theirs);
    expectError(await t.rpc('PATCH', 'integration', { integration: id, organization: unrelated }), 403, 'NOT_OWN_ORGANIZATION', 'organization');
    expect((await row(id)).organizationId).toBe(theirs);
    expect((await t.rpc('PATCH', 'integration', { integration: id, organization: 'none', active: 'false' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ organizationId: null, active: false });
  });

  it('refuses another user integration and unknown ones with 403, changing nothing', async () => {
    const owner = await t.newCaller('patch-intruder');
    const victim = await t.newCaller('patch-victim');
    const org = await newOrganization('Intruder org', owner);
    expectError(await t.rpc('PATCH', 'integration', { integration: victim.integrationId, active: 'false' }, { as: owner }), 403, 'NOT_FOUND');
    expectError(await t.rpc('PATCH', 'integration', { integration: victim.integrationId, organization: org }, { as: owner }), 403, 'NOT_FOUND');
    expectError(await t.rpc('PATCH', 'integration', { integration: 'int_unknown', active: 'false' }, { as: owner }), 403, 'NOT_FOUND', 'integration');
    expect(await row(victim.integrationId)).toMatchObject({ active: true, organizationId: null });
    expect((await t.rpc('GET', 'test:app', {}, { as: victim })).status).toBe(200);
  });
});

describe('DELETE integration', () => {
  it('deletes an integration of the caller; its keys stop working', async () => {
    const owner = await t.newCaller('delete-owner');
    const id = await create(owner, { title: 'Doomed' });
    const caller = await callerOf(owner, id);
    const r = await t.rpc('DELETE', 'integration', { integration: id }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ integration: id, success: true });
    expect(await t.db.prisma.integration.findUnique({ where: { id } })).toBeNull();
    expectError(await t.rpc('GET', 'integration', { integration: id }, { as: owner }), 403, 'NOT_FOUND', 'integration');
    expectError(await t.rpc('GET', 'test:app', {}, { as: caller }), 401, 'INVALID_CREDENTIALS');
  });

  it('cannot delete the integration making the call', async () => {
    const owner = await t.newCaller('delete-self');
    expectError(await t.rpc('DELETE', 'integration', { integration: owner.integrationId }, { as: owner }), 403, 'PERMISSION_DENIED');
    expect(await t.db.prisma.integration.findUnique({ where: { id: owner.integrationId } })).not.toBeNull();
    expect((await t.rpc('GET', 'test:app', {}, { as: owner })).status).toBe(200);
    // Another application of the same owner may delete it.
    const second = await callerOf(owner, await create(owner, { title: 'Second' }));
    expect((await t.rpc('DELETE', 'integration', { integration: owner.integrationId }, { as: second })).status).toBe(200);
    expectError(await t.rpc('GET', 'test:app', {}, { as: owner }), 401, 'INVALID_CREDENTIALS');
  });

  it('refuses another user integration and unknown ones; administrators may delete any', async () => {
    const owner = await t.newCaller('delete-intruder');
    const victim = await t.newCaller('delete-victim');
    const extra = await create(victim, { title: 'Extra' });
    expectError(await t.rpc('DELETE', 'integration', { integration: extra }, { as: owner }), 403, 'NOT_FOUND');
    expectError(await t.rpc('DELETE', 'integration', { integration: 'int_unknown' }, { as: owner }), 403, 'NOT_FOUND', 'integration');
    expectError(await t.rpc('DELETE', 'integration', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'integration');
    expect(await t.db.prisma.integration.findUnique({ where: { id: extra } })).not.toBeNull();
    expect((await t.rpc('DELETE', 'integration', { integration: extra })).status).toBe(200);
    expect(await t.db.prisma.integration.findUnique({ where: { id: extra } })).toBeNull();
  });
});

describe('integration:keys', () => {
  async function jwks(url: string) {
    const response = await t.app.fetch(new Request(url));
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as { keys: (JsonWebKey & Record<string, string>)[] } };
  }
  const spki = (key: Parameters<typeof createPublicKey>[0]) => createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');

  it('shows app and secret, and nothing else, for API integrations', async () => {
    const owner = await t.newCaller('keys-api');
    const r = await t.rpc('GET', 'integration:keys', { integration: owner.integrationId }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ app: owner.app, secret: owner.secret });
  });

  it('shows consumer and secret for LTI 1.0/1.1 integrations; these keys cannot call the service', async () => {
    const owner = await t.newCaller('keys-lti1');
    const id = await create(owner, lms11);
    const r = await t.rpc('GET', 'integration:keys', { integration: id }, { as: owner });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['consumer', 'secret']);
    expect(typeof r.body.consumer).toBe('string');
    expect(typeof r.body.secret).toBe('string');
    expect(r.body.secret.length).toBeGreaterThanOrEqual(32);
    expectError(await t.rpc('GET', 'test:app', { app: r.body.consumer, secret: r.body.secret }, { as: null }), 401, 'INVALID_CREDENTIALS');
  });

  it('shows the JWK set URL and PEM for LTI 1.3; the URL serves a JWK set whose key is the PEM key', async () => {
    const owner = await t.newCaller('keys-lti13');
    const id = await create(owner, lms13);
    const r = await t.rpc('GET', 'integration:keys', { integration: id }, { as: owner });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwk', 'pem']);
    expect(r.body.jwk).toBe(`${BASE_URL}/lti/${id}/jwks.json`);
    expect(r.body.pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);

    const set = await jwks(r.body.jwk);
    expect(set.status).toBe(200);
    expect(set.type).toMatch(/^application\/json/);
    expect(set.body.keys).toHaveLength(1);
    const [key] = set.body.keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(typeof key!.kid).toBe('string');
    expect(key).not.toHaveProperty('d');
    expect(spki({ key: key!, format: 'jwk' })).toBe(spki(r.body.pem));
  });

  it('serves no JWK set for API or LTI 1.0/1.1 integrations, nor unknown ones', async () => {
    const owner = await t.newCaller('keys-nojwks');
    const lti1 = await create(owner, lms11);
    for (const id of [owner.integrationId, lti1, 'int_unknown']) {
      expect((await t.app.fetch(new Request(`${BASE_URL}/lti/${id}/jwks.json`))).status).toBe(404);
    }
  });

  it('refuses another user integration and unknown ones', async () => {
    const owner = await t.newCaller('keys-intruder');
    const victim = await t.newCaller('keys-victim');
    expectError(await t.rpc('GET', 'integration:keys', { integration: victim.integrationId }, { as: owner }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'integration:keys', { integration: 'int_unknown' }, { as: owner }), 403, 'NOT_FOUND', 'integration');
    expectError(await t.rpc('POST', 'integration:keys', { integration: victim.integrationId }, { as: owner }), 403, 'NOT_FOUND');
    expectError(await t.rpc('POST', 'integration:keys', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'integration');
    expect((await t.rpc('GET', 'test:app', {}, { as: victim })).status).toBe(200);
    expect((await t.rpc('GET', 'integration:keys', { integration: victim.integrationId })).body).toEqual({ app: victim.app, secret: victim.secret });
  });

  it('rotates the secret of an API integration: same app id, the old secret fails at once (401), the new one works', async () => {
    const owner = await t.newCaller('rotate-api');
    const id = await create(owner, { title: 'Rotated' });
    const old = await callerOf(owner, id);
    const r = await t.rpc('POST', 'integration:keys', { integration: id }, { as: owner });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['app', 'secret']);
    expect(r.body.app).toBe(old.app);
    expect(r.body.secret).not.toBe(old.secret);
    expectError(await t.rpc('GET', 'test:app', {}, { as: old }), 401, 'INVALID_CREDENTIALS');
    const fresh = { ...old, secret: r.body.secret };
    expect((await t.rpc('GET', 'test:app', {}, { as: fresh })).status).toBe(200);
    expect((await t.rpc('GET', 'integration:keys', { integration: id }, { as: owner })).body).toEqual(r.body);
  });

  it('rotates the keys of the integration making the call', async () => {
    const owner = await t.newCaller('rotate-self');
    const r = await t.rpc('POST', 'integration:keys', { integration: owner.integrationId }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body.app).toBe(owner.app);
    expectError(await t.rpc('GET', 'test:app', {}, { as: owner }), 401, 'INVALID_CREDENTIALS');
    expect((await t.rpc('GET', 'test:app', {}, { as: { ...owner, secret: r.body.secret } })).status).toBe(200);
  });

  it('rotates the secret of an LTI 1.0/1.1 integration and keeps its consumer key', async () => {
    const owner = await t.newCaller('rotate-lti1');
    const id = await create(owner, lms11);
    const before = (await t.rpc('GET', 'integration:keys', { integration: id }, { as: owner })).body;
    const after = (await t.rpc('POST', 'integration:keys', { integration: id }, { as: owner })).body;
    expect(Object.keys(after).sort()).toEqual(['consumer', 'secret']);
    expect(after.consumer).toBe(before.consumer);
    expect(after.secret).not.toBe(before.secret);
  });

  it('gives an LTI 1.3 integration a new key pair, served by its JWK set URL', async () => {
    const owner = await t.newCaller('rotate-lti13');
    const id = await create(owner, lms13);
    const before = (await t.rpc('GET', 'integration:keys', { integration: id }, { as: owner })).body;
    const oldSet = await jwks(before.jwk);
    const oldRow = await row(id);
    const after = await t.rpc('POST', 'integration:keys', { integration: id }, { as: owner });
    expect(after.status).toBe(200);
    expect(Object.keys(after.body).sort()).toEqual(['jwk', 'pem']);
    expect(after.body.jwk).toBe(before.jwk);
    expect(after.body.pem).not.toBe(before.pem);
    const newRow = await row(id);
    expect(newRow.privateKeyCipher).not.toBe(oldRow.privateKeyCipher);
    const newSet = await jwks(after.body.jwk);
    expect(newSet.body.keys).toHaveLength(1);
    expect(spki({ key: newSet.body.keys[0]!, format: 'jwk' })).toBe(spki(after.body.pem));
    expect(newSet.body.keys[0]!.kid).not.toBe(oldSet.body.keys[0]!.kid);
  });

  it('stores secrets encrypted: the database never holds the secret or private key text', async () => {
    const owner = await t.newCaller('keys-at-rest');
    const api = await create(owner, { title: 'At rest' });
    const lti1 = await create(owner, lms11);
    const lti13 = await create(owner, lms13);
    for (const id of [api, lti1]) {
      const { secret } = (await t.rpc('GET', 'integration:keys', { integration: id }, { as: owner })).body;
      const stored = await row(id);
      expect(stored.secretCipher).toBeTruthy();
      expect(stored.secretCipher).not.toContain(secret);
      expect(t.platform.secrets.open(stored.secretCipher!)).toBe(secret);
    }
    const stored = await row(lti13);
    expect(stored.secretCipher).toBeNull();
    expect(stored.privateKeyCipher).toBeTruthy();
    expect(stored.privateKeyCipher).not.toContain('PRIVATE KEY');
    expect(t.platform.secrets.open(stored.privateKeyCipher!)).toContain('-----BEGIN PRIVATE KEY-----');
    // A rotated secret is sealed too.
    const rotated = (await t.rpc('POST', 'integration:keys', { integration: api }, { as: owner })).body.secret;
    expect((await row(api)).secretCipher).not.toContain(rotated);
  });
});
