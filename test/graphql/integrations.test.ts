import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import {
  CreateIntegrationDocument,
  DeleteIntegrationDocument,
  IntegrationKeysDocument,
  IntegrationsDocument,
  MeDocument,
  NodeDocument,
  RotateIntegrationKeysDocument,
  UpdateIntegrationDocument,
  type CreateIntegrationInput,
  type IntegrationsQuery,
} from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused, send } from './client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());


const row = (id: string) => t.db.prisma.integration.findUnique({ where: { id } });
const integrationCount = () => t.db.prisma.integration.count();

async function create(as: Caller, input: CreateIntegrationInput) {
  return (await ok(t, CreateIntegrationDocument, { input }, { as })).createIntegration;
}

/** A caller made of an API integration's keys as integrationKeys shows them. */
async function callerOf(owner: Caller, integration: string): Promise<Caller> {
  const { integrationKeys } = await ok(t, IntegrationKeysDocument, { integration }, { as: owner });
  return { user: owner.user, app: integrationKeys.app!, secret: integrationKeys.secret!, integrationId: integration };
}

const lms13: CreateIntegrationInput = { title: 'LMS 1.3', type: 'lms', lti: '1.3', platform: 'https://lms.example.com' };
const lms11: CreateIntegrationInput = { title: 'LMS 1.1', type: 'lms_a', lti: '1.0/1.1', platform: 'https://moodle.example.com/' };

describe('integrations connection', () => {
  it('lists the caller own integrations oldest first with every field; administrators see all', async () => {
    const owner = await t.newCaller('list-owner');
    const other = await t.newCaller('list-other');
    const made = await create(owner, { title: 'Second app', description: 'For reports' });
    const foreign = await create(other, { title: 'Foreign app' });

    const data = await ok(t, IntegrationsDocument, {}, { as: owner });
    expect(data.integrations.edges.map((e) => e.node)).toEqual([
      {
        id: owner.integrationId,
        title: 'list-owner app',
        type: 'api',
        active: true,
        lti: null,
        createdAt: expect.stringMatching(ISO),
        description: null,
        platform: null,
        owner: { id: owner.user.id, username: 'list-owner' },
      },
      {
        id: made.id,
        title: 'Second app',
        type: 'api',
        active: true,
        lti: null,
        createdAt: expect.stringMatching(ISO),
        description: 'For reports',
        platform: null,
        owner: { id: owner.user.id, username: 'list-owner' },
      },
    ]);
    expect(data.integrations.pageInfo.hasNextPage).toBe(false);

    const all = await ok(t, IntegrationsDocument, { first: 100 });
    expect(all.integrations.edges.map((e) => e.node.id)).toEqual(
      expect.arrayContaining([t.admin.integrationId, owner.integrationId, made.id, foreign.id, other.integrationId]),
    );
  });

  it('pages with cursors and searches titles case-insensitively', async () => {
    const owner = await t.newCaller('paging-owner');
    for (let i = 1; i <= 6; i++) await create(owner, { title: `Paged ${i}` });
    const expected = (await t.db.prisma.integration.findMany({ where: { ownerId: owner.user.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map((i) => i.id);
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const data: IntegrationsQuery = await ok(t, IntegrationsDocument, { first: 3, after }, { as: owner });
      seen.push(...data.integrations.edges.map((e) => e.node.id));
      after = data.integrations.pageInfo.hasNextPage ? data.integrations.pageInfo.endCursor : null;
      pages += 1;
    } while (after);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);

    const found = await ok(t, IntegrationsDocument, { search: 'PAGED 4' }, { as: owner });
    expect(found.integrations.edges.map((e) => e.node.title)).toEqual(['Paged 4']);
  });
});

describe('createIntegration and integrationKeys', () => {
  it('creates an API integration owned by the caller whose keys authenticate', async () => {
    const owner = await t.newCaller('api-owner');
    const made = await create(owner, { title: 'Reporting', description: 'Nightly export' });
    expect(made).toEqual({
      id: expect.stringMatching(/^int_[a-z0-9]+$/),
      title: 'Reporting',
      description: 'Nightly export',
      type: 'api',
      active: true,
      lti: null,
      platform: null,
      createdAt: expect.stringMatching(ISO),
      owner: { id: owner.user.id },
    });
    const { integrationKeys } = await ok(t, IntegrationKeysDocument, { integration: made.id }, { as: owner });
    expect(integrationKeys).toEqual({ app: expect.stringMatching(/^[a-z0-9]{24}$/), secret: expect.stringMatching(/^[a-z0-9]{48}$/), consumer: null, jwk: null, pem: null });
    const me = await ok(t, MeDocument, {}, { as: await callerOf(owner, made.id) });
    expect(me.me.id).toBe(owner.user.id);
  });

  it('creates LMS integrations with the keys of their LTI version', async () => {
    const owner = await t.newCaller('lms-owner');
    const a = await create(owner, lms11);
    expect(a).toMatchObject({ type: 'lms_a', lti: '1.0/1.1', platform: 'https://moodle.example.com/' });
    const aKeys = (await ok(t, IntegrationKeysDocument, { integration: a.id }, { as: owner })).integrationKeys;
    expect(aKeys).toEqual({ app: null, consumer: expect.stringMatching(/^[a-z0-9]{24}$/), secret: expect.stringMatching(/^[a-z0-9]{48}$/), jwk: null, pem: null });

    const b = await create(owner, lms13);
    expect(b).toMatchObject({ type: 'lms', lti: '1.3', platform: 'https://lms.example.com' });
    const bKeys = (await ok(t, IntegrationKeysDocument, { integration: b.id }, { as: owner })).integrationKeys;
    expect(bKeys).toEqual({ app: null, consumer: null, secret: null, jwk: `${BASE_URL}/lti/${b.id}/jwks.json`, pem: expect.stringContaining('BEGIN PUBLIC KEY') });
    expect(createPublicKey(bKeys.pem!).asymmetricKeyType).toBe('rsa');
  });

  it('places an integration in an organization of the caller', async () => {
    const owner = await t.newCaller('org-owner');
    const org = await seed(t).as(owner).organization({ title: 'Owned' });
    const made = await create(owner, { title: 'In org', organization: org.id });
    expect((await row(made.id))?.organizationId).toBe(org.id);
    const foreign = await seed(t).admin.organization({ title: 'Foreign' });
    // Unknown to the caller, who may not view it.
    expectCode(await refused(t, CreateIntegrationDocument, { input: { title: 'Elsewhere', organization: foreign.id } }, { as: owner }), 'NOT_FOUND', 'organization');
    // A plain member sees it: it is told that it is not its own.
    await foreign.members([owner]);
    expectCode(await refused(t, CreateIntegrationDocument, { input: { title: 'Elsewhere', organization: foreign.id } }, { as: owner }), 'NOT_OWN_ORGANIZATION', 'organization');
  });

  it('refuses bad arguments naming them, and creates nothing', async () => {
    const owner = await t.newCaller('bad-owner');
    const before = await integrationCount();
    const cases: [CreateIntegrationInput | Record<string, unknown>, string, string][] = [
      [{ title: '' }, 'INVALID_ARGUMENT', 'title'],
      [{ title: 'x'.repeat(256) }, 'INVALID_ARGUMENT', 'title'],
      [{ title: 'LMS', type: 'lms_b', platform: 'https://lms.example.com' }, 'MISSING_ARGUMENT', 'lti'],
      [{ title: 'LMS', type: 'lms_b', lti: '1.3' }, 'MISSING_ARGUMENT', 'platform'],
      [{ title: 'LMS', type: 'lms_b', lti: '2.0', platform: 'https://lms.example.com' }, 'INVALID_ARGUMENT', 'lti'],
      [{ title: 'LMS', type: 'lms_b', lti: '1.3', platform: 'not a url' }, 'INVALID_ARGUMENT', 'platform'],
      [{ title: 'API', lti: '1.3' }, 'ARGUMENT_CONFLICT', 'lti'],
      [{ title: 'API', organization: 'org_doesnotexist00' }, 'NOT_FOUND', 'organization'],
      // Refused by the schema before the service runs, with the same codes.
      [{ title: 'API', type: 'moodle' }, 'INVALID_ARGUMENT', 'type'],
      [{ description: 'no title' }, 'MISSING_ARGUMENT', 'title'],
    ];
    for (const [input, code, argument] of cases) {
      expectCode(await refused(t, CreateIntegrationDocument, { input: input as CreateIntegrationInput }, { as: owner }), code, argument);
    }
    expect(await integrationCount()).toBe(before);
  });

  it("refuses the keys of another user's integration", async () => {
    const owner = await t.newCaller('keys-owner');
    const stranger = await t.newCaller('keys-stranger');
    expectCode(await refused(t, IntegrationKeysDocument, { integration: owner.integrationId }, { as: stranger }), 'NOT_FOUND');
    expectCode(await refused(t, IntegrationKeysDocument, { integration: 'int_doesnotexist00' }, { as: stranger }), 'NOT_FOUND', 'integration');
    // Administrators manage every integration.
    expect((await ok(t, IntegrationKeysDocument, { integration: owner.integrationId })).integrationKeys.app).toBe(owner.app);
  });
});

describe('updateIntegration and deleteIntegration', () => {
  it('deactivates an integration, whose keys then stop working, and activates it again', async () => {
    const owner = await t.newCaller('toggle-owner');
    const made = await create(owner, { title: 'Toggle' });
    const caller = await callerOf(owner, made.id);
    expect((await ok(t, UpdateIntegrationDocument, { integration: made.id, active: false }, { as: owner })).updateIntegration).toEqual({ id: made.id, active: false });
    expect((await row(made.id))?.active).toBe(false);
    const blocked = await send(t, MeDocument, {}, { as: caller });
    expect(blocked.status).toBe(401);
    expectCode(blocked.errors![0]!, 'INTEGRATION_INACTIVE');
    expect((await ok(t, UpdateIntegrationDocument, { integration: made.id, active: true }, { as: owner })).updateIntegration.active).toBe(true);
    expect((await ok(t, MeDocument, {}, { as: caller })).me.id).toBe(owner.user.id);
  });

  it('moves an integration out of its organization with an empty organization', async () => {
    const owner = await t.newCaller('move-owner');
    const org = await seed(t).as(owner).organization({ title: 'Moving' });
    const made = await create(owner, { title: 'Mover', organization: org.id });
    await ok(t, UpdateIntegrationDocument, { integration: made.id, organization: '' }, { as: owner });
    expect((await row(made.id))?.organizationId).toBeNull();
    await ok(t, UpdateIntegrationDocument, { integration: made.id, organization: org.id }, { as: owner });
    expect((await row(made.id))?.organizationId).toBe(org.id);
  });

  it("refuses another user's integration, changing nothing", async () => {
    const owner = await t.newCaller('update-owner');
    const stranger = await t.newCaller('update-stranger');
    expectCode(await refused(t, UpdateIntegrationDocument, { integration: owner.integrationId, active: false }, { as: stranger }), 'NOT_FOUND');
    expectCode(await refused(t, DeleteIntegrationDocument, { integration: owner.integrationId }, { as: stranger }), 'NOT_FOUND');
    expect((await row(owner.integrationId))?.active).toBe(true);
  });

  it('deletes an integration and returns its identification string', async () => {
    const owner = await t.newCaller('delete-owner');
    const made = await create(owner, { title: 'Short-lived' });
    expect((await ok(t, DeleteIntegrationDocument, { integration: made.id }, { as: owner })).deleteIntegration).toBe(made.id);
    expect(await row(made.id)).toBeNull();
    expect((await ok(t, NodeDocument, { id: made.id }, { as: owner })).node).toBeNull();
    expectCode(await refused(t, DeleteIntegrationDocument, { integration: made.id }, { as: owner }), 'NOT_FOUND', 'integration');
  });

  it('refuses deleting the integration making the call', async () => {
    const owner = await t.newCaller('self-delete');
    expectCode(await refused(t, DeleteIntegrationDocument, { integration: owner.integrationId }, { as: owner }), 'PERMISSION_DENIED');
    expect(await row(owner.integrationId)).not.toBeNull();
  });
});

describe('rotateIntegrationKeys', () => {
  it('replaces the secret of an API integration: the old one stops working at once, the app id stays', async () => {
    const owner = await t.newCaller('rotate-owner');
    const made = await create(owner, { title: 'Rotating' });
    const old = await callerOf(owner, made.id);
    const { rotateIntegrationKeys: keys } = await ok(t, RotateIntegrationKeysDocument, { integration: made.id }, { as: owner });
    expect(keys).toEqual({ app: old.app, secret: expect.stringMatching(/^[a-z0-9]{48}$/), consumer: null, jwk: null, pem: null });
    expect(keys.secret).not.toBe(old.secret);
    const refusedOld = await send(t, MeDocument, {}, { as: old });
    expect(refusedOld.status).toBe(401);
    expectCode(refusedOld.errors![0]!, 'INVALID_CREDENTIALS');
    expect((await ok(t, MeDocument, {}, { as: { ...old, secret: keys.secret! } })).me.id).toBe(owner.user.id);
    expect((await ok(t, IntegrationKeysDocument, { integration: made.id }, { as: owner })).integrationKeys.secret).toBe(keys.secret);
  });

  it('replaces the key pair of an LTI 1.3 integration and the secret of LTI 1.1, keeping the consumer key', async () => {
    const owner = await t.newCaller('rotate-lms');
    const b = await create(owner, lms13);
    const before = (await ok(t, IntegrationKeysDocument, { integration: b.id }, { as: owner })).integrationKeys;
    const after = (await ok(t, RotateIntegrationKeysDocument, { integration: b.id }, { as: owner })).rotateIntegrationKeys;
    expect(after.jwk).toBe(before.jwk);
    expect(after.pem).toContain('BEGIN PUBLIC KEY');
    expect(after.pem).not.toBe(before.pem);

    const a = await create(owner, lms11);
    const a1 = (await ok(t, IntegrationKeysDocument, { integration: a.id }, { as: owner })).integrationKeys;
    const a2 = (await ok(t, RotateIntegrationKeysDocument, { integration: a.id }, { as: owner })).rotateIntegrationKeys;
    expect(a2.consumer).toBe(a1.consumer);
    expect(a2.secret).not.toBe(a1.secret);
  });

  it("refuses another user's integration, changing nothing", async () => {
    const owner = await t.newCaller('rotate-victim');
    const stranger = await t.newCaller('rotate-stranger');
    expectCode(await refused(t, RotateIntegrationKeysDocument, { integration: owner.integrationId }, { as: stranger }), 'NOT_FOUND');
    expect((await ok(t, MeDocument, {}, { as: owner })).me.id).toBe(owner.user.id);
  });
});
