import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { verifyPassword } from '../../src/auth/secrets.ts';
import {
  AssumeUserDocument,
  CreateLoginLinkDocument,
  CreateUserDocument,
  DeleteUserDocument,
  LoginLinkDocument,
  MeDocument,
  NodeDocument,
  RevokeAssumeTokenDocument,
  RevokeLoginLinkDocument,
  SearchUserDocument,
  SetUserActiveDocument,
  SetUserGroupDocument,
  SetUserNameDocument,
  UserDocument,
  UsersDocument,
  type CreateUserInput,
  type UsersQuery,
} from '../../schema/operations/generated.ts';
import { type GraphQLErrorBody, ISO, expectCode, ok, refused, send } from './client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());


const userCount = () => t.db.prisma.user.count();
const row = (id: string) => t.db.prisma.user.findUnique({ where: { id } });

let made = 0;
/** A user created through the mutation by `as`, managed by it. */
async function createUser(as: Caller, input: Partial<CreateUserInput> = {}) {
  made += 1;
  const data = await ok(t, CreateUserDocument, { input: { username: `member${made}`, firstName: 'Member', lastName: `No${made}`, email: `member${made}@example.com`, ...input } }, { as });
  return data.createUser;
}

describe('credentials', () => {
  it('accepts Bearer, the Service-API-App/Secret headers and ?app=&secret=, all acting as the owner', async () => {
    const { app, secret } = t.admin;
    const bearer = await ok(t, MeDocument, {}, { as: null, headers: { authorization: `Bearer ${app}:${secret}` } });
    const headers = await ok(t, MeDocument, {}, { as: null, headers: { 'service-api-app': app, 'service-api-secret': secret } });
    const response = await t.app.fetch(
      new Request(`${BASE_URL}/graphql?${new URLSearchParams({ app, secret })}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: MeDocument }),
      }),
    );
    expect(response.status).toBe(200);
    const query = (await response.json()) as { data: typeof bearer };
    for (const data of [bearer, headers, query.data]) expect(data.me.id).toBe(t.admin.user.id);
  });

  it('answers HTTP 401 with MISSING_CREDENTIALS without credentials, and INVALID_CREDENTIALS for a wrong secret', async () => {
    const missing = await send(t, MeDocument, {}, { as: null });
    expect(missing.status).toBe(401);
    expect(missing.data ?? null).toBeNull();
    expect(missing.errors).toHaveLength(1);
    expectCode(missing.errors![0]!, 'MISSING_CREDENTIALS');
    expect(missing.errors![0]!.extensions?.status).toBe(401);

    const wrong = await send(t, MeDocument, {}, { as: { ...t.admin, secret: 'not-the-secret' } });
    expect(wrong.status).toBe(401);
    expectCode(wrong.errors![0]!, 'INVALID_CREDENTIALS');
  });

  it('answers 503 with Retry-After and MAINTENANCE while the instance is in maintenance', async () => {
    const down = await createTestApp({ MAINTENANCE: 'true' });
    try {
      const user = await down.newCaller('regular-user');
      const response = await down.app.fetch(
        new Request(`${BASE_URL}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${user.app}:${user.secret}` },
          body: JSON.stringify({ query: MeDocument }),
        }),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('120');
      const body = (await response.json()) as { errors: GraphQLErrorBody[] };
      expect(body.errors.map((e) => e.extensions?.code)).toEqual(['MAINTENANCE']);
    } finally {
      await down.close();
    }
  });

  it('serves GraphiQL to a browser without credentials', async () => {
    const response = await t.app.fetch(new Request(`${BASE_URL}/graphql`, { headers: { accept: 'text/html' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<title>Learning platform GraphQL</title>');
    expect(html.toLowerCase()).toContain('graphiql');
  });
});

describe('me', () => {
  it('is the application owner with its integrations, with the JSON types of the schema', async () => {
    const data = await ok(t, MeDocument, {});
    expect(data.me).toEqual({
      id: t.admin.user.id,
      username: 'admin',
      name: 'admin Tester',
      email: 'admin@example.com',
      status: true,
      exam: false,
      group: null,
      admin: true,
      language: 'en',
      timezone: 'UTC',
      integrations: [
        { id: t.admin.integrationId, title: 'admin app', type: 'api', active: true, lti: null, createdAt: expect.stringMatching(ISO) },
      ],
    });
  });

  it("shows a plain user only its own integrations, and never another user's", async () => {
    const plain = await t.newCaller('me-plain');
    const data = await ok(t, MeDocument, {}, { as: plain });
    expect(data.me.id).toBe(plain.user.id);
    expect(data.me.admin).toBe(false);
    expect(data.me.integrations.map((i) => i.id)).toEqual([plain.integrationId]);
  });
});

describe('node', () => {
  it('finds a user and an integration by their identification strings', async () => {
    const manager = await t.newCaller('node-manager');
    const member = await t.newCaller('node-member', { createdBy: manager });
    expect((await ok(t, NodeDocument, { id: member.user.id }, { as: manager })).node).toEqual({ __typename: 'User', id: member.user.id, username: 'node-member' });
    expect((await ok(t, NodeDocument, { id: manager.user.id }, { as: manager })).node).toEqual({ __typename: 'User', id: manager.user.id, username: 'node-manager' });
    expect((await ok(t, NodeDocument, { id: manager.integrationId }, { as: manager })).node).toEqual({
      __typename: 'Integration',
      id: manager.integrationId,
      title: 'node-manager app',
    });
    // Administrators read everyone.
    expect((await ok(t, NodeDocument, { id: member.user.id })).node?.id).toBe(member.user.id);
  });

  it('is null, without an error, for what the viewer may not read and for ids of nothing', async () => {
    const viewer = await t.newCaller('node-viewer');
    const stranger = await t.newCaller('node-stranger');
    for (const id of [stranger.user.id, t.admin.user.id, stranger.integrationId, 'usr_doesnotexist00', 'int_doesnotexist00', 'lnk_abc', 'nonsense']) {
      const r = await send(t, NodeDocument, { id }, { as: viewer });
      expect(r.errors, id).toBeUndefined();
      expect(r.data, id).toEqual({ node: null });
    }
  });

  it('answers nodes in the order asked, null where the viewer may not read', async () => {
    const viewer = await t.newCaller('nodes-viewer');
    const member = await t.newCaller('nodes-member', { createdBy: viewer });
    const r = await t.gql(`query Nodes($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: ['nonsense', member.user.id, t.admin.user.id, viewer.integrationId] }, { as: viewer });
    expect(r.body).toEqual({ data: { nodes: [null, { id: member.user.id }, null, { id: viewer.integrationId }] } });
  });
});

describe('user and searchUser', () => {
  it('reads a managed user with every field of the detail page', async () => {
    const manager = await t.newCaller('detail-manager');
    const created = await createUser(manager, {
      username: 'detail-user',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 2071234567',
      gender: 'female',
      birthdate: '1815-12-10',
      group: 'analysts',
      color: 'blue',
      template: 'corporate_user',
    });
    const data = await ok(t, UserDocument, { id: created.user.id }, { as: manager });
    expect(data.user).toEqual({
      id: created.user.id,
      username: 'detail-user',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      status: true,
      exam: false,
      group: 'analysts',
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
      displayName: 'Ada Lovelace',
      phone: '+44 2071234567',
      gender: 'female',
      birthdate: '1815-12-10',
      admin: false,
      language: 'en',
      timezone: 'UTC',
      color: 'blue',
      template: 'corporate_user',
      mustChangePassword: false,
      customFields: {},
      createdAt: expect.stringMatching(ISO),
      canManage: true,
      manager: { id: manager.user.id, username: 'detail-manager' },
      // The viewer owns none of the user's integrations.
      integrations: [],
    });
  });

  it("reads 'me' as the caller, and refuses users the caller does not manage or that do not exist", async () => {
    const viewer = await t.newCaller('detail-viewer');
    expect((await ok(t, UserDocument, { id: 'me' }, { as: viewer })).user.id).toBe(viewer.user.id);
    const denied = await send(t, UserDocument, { id: t.admin.user.id }, { as: viewer });
    expect(denied.status).toBe(200);
    expect(denied.data).toBeNull();
    expectCode(denied.errors![0]!, 'NOT_FOUND', 'user');
    expect(denied.errors![0]!.path).toEqual(['user']);
    expect(denied.errors![0]!.extensions?.status).toBe(403);
    expectCode(await refused(t, UserDocument, { id: 'usr_doesnotexist00' }, { as: viewer }), 'NOT_FOUND', 'user');
  });

  it('finds one visible user by email (any case), username or identification string', async () => {
    const manager = await t.newCaller('search-manager');
    const member = await createUser(manager, { username: 'findable', email: 'Findable@Example.com' });
    for (const query of ['findable@example.COM', 'findable', member.user.id]) {
      expect((await ok(t, SearchUserDocument, { query }, { as: manager })).searchUser.id, query).toBe(member.user.id);
    }
    const stranger = await t.newCaller('search-stranger');
    expectCode(await refused(t, SearchUserDocument, { query: 'findable' }, { as: stranger }), 'NOT_FOUND', 'query');
  });
});

describe('users connection', () => {
  it('pages through the managed users oldest first with cursors, without exam accounts', async () => {
    const manager = await t.newCaller('pager');
    for (let i = 0; i < 5; i++) await createUser(manager);
    await createUser(manager, { exam: true });
    const expected = (
      await t.db.prisma.user.findMany({ where: { createdById: manager.user.id, generated: false }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
    ).map((u) => u.id);
    expect(expected).toHaveLength(5);

    const seen: string[] = [];
    let after: string | null = null;
    const pages: boolean[] = [];
    do {
      const data: UsersQuery = await ok(t, UsersDocument, { first: 2, after }, { as: manager });
      seen.push(...data.users.edges.map((e) => e.node.id));
      for (const edge of data.users.edges) {
        expect(typeof edge.cursor).toBe('string');
        expect(edge.node.canManage).toBe(true);
        expect(edge.node.exam).toBe(false);
      }
      pages.push(data.users.pageInfo.hasNextPage);
      after = data.users.pageInfo.hasNextPage ? data.users.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(expected);
    expect(pages).toEqual([true, true, false]);
  });

  it('searches name, username and email, case-insensitively', async () => {
    const manager = await t.newCaller('searcher');
    const grace = await createUser(manager, { username: 'ghopper', firstName: 'Grace', lastName: 'Hopper', email: 'amazing@navy.example' });
    const alan = await createUser(manager, { username: 'aturing', firstName: 'Alan', lastName: 'Turing', email: 'alan@bletchley.example' });
    const ids = async (search: string) => (await ok(t, UsersDocument, { search }, { as: manager })).users.edges.map((e) => e.node.id);
    expect(await ids('HOPPER')).toEqual([grace.user.id]);
    expect(await ids('aturi')).toEqual([alan.user.id]);
    expect(await ids('navy.EXAMPLE')).toEqual([grace.user.id]);
    expect(await ids('nobody')).toEqual([]);
  });

  it('lists only users the caller manages; administrators see everyone', async () => {
    const manager = await t.newCaller('lister');
    const member = await createUser(manager);
    const stranger = await t.newCaller('lister-stranger');
    const strangers = await ok(t, UsersDocument, { first: 100 }, { as: stranger });
    expect(strangers.users.edges).toEqual([]);
    const admin = await ok(t, UsersDocument, { first: 100 });
    const all = admin.users.edges.map((e) => e.node.id);
    expect(all).toEqual(expect.arrayContaining([member.user.id, manager.user.id, stranger.user.id, t.admin.user.id]));
  });
});

describe('createUser', () => {
  it('creates a managed user with the defaults of POST user and returns the generated password once', async () => {
    const manager = await t.newCaller('creator');
    await t.db.prisma.user.update({ where: { id: manager.user.id }, data: { timezone: 'Europe/Paris' } });
    const before = await userCount();
    const r = await ok(t, CreateUserDocument, { input: { username: 'jdoe', firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' } }, { as: manager });
    expect(r.createUser.user).toEqual({
      id: expect.stringMatching(/^usr_[a-z0-9]+$/),
      username: 'jdoe',
      name: 'Jane Doe',
      email: 'jane@example.com',
      status: true,
      exam: false,
      group: null,
      firstName: 'Jane',
      lastName: 'Doe',
      fullName: 'Jane Doe',
      displayName: 'Jane Doe',
      language: 'en',
      timezone: 'Europe/Paris',
      color: 'default',
      mustChangePassword: false,
      customFields: {},
      manager: { id: manager.user.id },
    });
    expect(r.createUser.password).toMatch(/^[a-z0-9]{12}$/);
    expect(await userCount()).toBe(before + 1);
    const stored = await row(r.createUser.user.id);
    expect(stored?.createdById).toBe(manager.user.id);
    expect(await verifyPassword(r.createUser.password!, stored!.passwordHash)).toBe(true);
  });

  it('keeps a given password and names; exam accounts get no password back', async () => {
    const given = await createUser(t.admin, { password: 'chosen-secret', fullName: 'Dr. Given', displayName: 'Given' });
    expect(given.password).toBe('chosen-secret');
    expect(given.user.fullName).toBe('Dr. Given');
    expect(given.user.displayName).toBe('Given');
    const exam = await createUser(t.admin, { exam: true });
    expect(exam.password).toBeNull();
    expect(exam.user.exam).toBe(true);
  });

  it('refuses bad arguments with INVALID_ARGUMENT or MISSING_ARGUMENT naming them, and creates nothing', async () => {
    const before = await userCount();
    const base = { username: 'refused-user', firstName: 'Re', lastName: 'Fused', email: 'refused@example.com' };
    const cases: [Partial<CreateUserInput> | Record<string, unknown>, string, string][] = [
      [{ username: 'abc' }, 'INVALID_ARGUMENT', 'username'],
      [{ username: 'white space' }, 'INVALID_ARGUMENT', 'username'],
      [{ username: 'admin' }, 'USERNAME_TAKEN', 'username'],
      [{ phone: '12345' }, 'INVALID_ARGUMENT', 'phone'],
      [{ password: 'abc' }, 'INVALID_ARGUMENT', 'password'],
      [{ language: 'xx' }, 'INVALID_ARGUMENT', 'language'],
      [{ timezone: 'Mars/Olympus' }, 'INVALID_ARGUMENT', 'timezone'],
      [{ firstName: '' }, 'INVALID_ARGUMENT', 'firstName'],
      [{ customFields: { unknown: 'x' } }, 'UNKNOWN_FIELD', 'customFields.unknown'],
      // Refused by the schema before the service runs, with the same codes.
      [{ email: 'not-an-email' }, 'INVALID_ARGUMENT', 'email'],
      [{ birthdate: '2001-02-30' }, 'INVALID_ARGUMENT', 'birthdate'],
      [{ gender: 'robot' }, 'INVALID_ARGUMENT', 'gender'],
      [{ firstName: null }, 'MISSING_ARGUMENT', 'firstName'],
      [{ email: undefined }, 'MISSING_ARGUMENT', 'email'],
    ];
    for (const [change, code, argument] of cases) {
      const input = { ...base, ...change } as CreateUserInput;
      const r = await send(t, CreateUserDocument, { input });
      expect(r.errors, JSON.stringify(change)).toHaveLength(1);
      expectCode(r.errors![0]!, code, argument);
      expect(r.errors![0]!.extensions?.status).toBe(403);
      expect(r.data ?? null).toBeNull();
    }
    const missingVariable = await send(t, CreateUserDocument, {} as never);
    expectCode(missingVariable.errors![0]!, 'MISSING_ARGUMENT', 'input');
    expect(await userCount()).toBe(before);
  });
});

describe('setUserActive and deleteUser', () => {
  it('disables and enables a managed user; a disabled owner cannot call', async () => {
    const manager = await t.newCaller('activator');
    const member = await t.newCaller('activated', { createdBy: manager });
    expect((await ok(t, SetUserActiveDocument, { user: member.user.id, active: false }, { as: manager })).setUserActive).toEqual({ id: member.user.id, status: false });
    expect((await row(member.user.id))?.enabled).toBe(false);
    const blocked = await send(t, MeDocument, {}, { as: member });
    expect(blocked.status).toBe(401);
    expectCode(blocked.errors![0]!, 'OWNER_DISABLED');
    expect((await ok(t, SetUserActiveDocument, { user: member.user.id, active: true }, { as: manager })).setUserActive.status).toBe(true);
    expect((await ok(t, MeDocument, {}, { as: member })).me.id).toBe(member.user.id);
  });

  it('refuses users the caller does not manage, and disabling oneself, changing nothing', async () => {
    const caller = await t.newCaller('activator-2');
    expectCode(await refused(t, SetUserActiveDocument, { user: t.admin.user.id, active: false }, { as: caller }), 'NOT_FOUND', 'user');
    expectCode(await refused(t, SetUserActiveDocument, { user: t.admin.user.id, active: false }), 'PERMISSION_DENIED');
    expect((await row(t.admin.user.id))?.enabled).toBe(true);
  });

  it('deletes a managed user and returns its identification string; it is gone afterwards', async () => {
    const manager = await t.newCaller('deleter');
    const member = await createUser(manager);
    expect((await ok(t, DeleteUserDocument, { user: member.user.id }, { as: manager })).deleteUser).toBe(member.user.id);
    expect(await row(member.user.id)).toBeNull();
    expect((await ok(t, NodeDocument, { id: member.user.id }, { as: manager })).node).toBeNull();
    expectCode(await refused(t, DeleteUserDocument, { user: member.user.id }, { as: manager }), 'NOT_FOUND', 'user');
  });

  it('refuses deleting the calling account or a user not managed, changing nothing', async () => {
    const caller = await t.newCaller('deleter-2');
    expectCode(await refused(t, DeleteUserDocument, { user: 'me' }, { as: caller }), 'PERMISSION_DENIED');
    expectCode(await refused(t, DeleteUserDocument, { user: t.admin.user.id }, { as: caller }), 'NOT_FOUND', 'user');
    expect(await row(caller.user.id)).not.toBeNull();
    expect(await row(t.admin.user.id)).not.toBeNull();
  });
});

describe('setUserName and setUserGroup', () => {
  it('renames with the default full and display names, and reports whether anything changed', async () => {
    const manager = await t.newCaller('renamer');
    const member = await createUser(manager);
    const first = await ok(t, SetUserNameDocument, { user: member.user.id, firstName: 'Katherine', lastName: 'Johnson' }, { as: manager });
    expect(first.setUserName).toEqual({
      changed: true,
      user: { id: member.user.id, firstName: 'Katherine', lastName: 'Johnson', fullName: 'Katherine Johnson', displayName: 'Katherine Johnson' },
    });
    const again = await ok(t, SetUserNameDocument, { user: member.user.id, firstName: 'Katherine', lastName: 'Johnson' }, { as: manager });
    expect(again.setUserName.changed).toBe(false);
    const display = await ok(t, SetUserNameDocument, { user: member.user.id, firstName: 'Katherine', lastName: 'Johnson', displayName: 'KJ' }, { as: manager });
    expect(display.setUserName.user.displayName).toBe('KJ');
    expect((await row(member.user.id))?.displayName).toBe('KJ');
  });

  it('lets users rename themselves but not others; a refused rename changes nothing', async () => {
    const caller = await t.newCaller('self-namer');
    expect((await ok(t, SetUserNameDocument, { user: 'me', firstName: 'Self', lastName: 'Named' }, { as: caller })).setUserName.user.fullName).toBe('Self Named');
    expectCode(await refused(t, SetUserNameDocument, { user: t.admin.user.id, firstName: 'X', lastName: 'Y' }, { as: caller }), 'NOT_FOUND', 'user');
    expectCode(await refused(t, SetUserNameDocument, { user: 'me', firstName: 'x'.repeat(65), lastName: 'Y' }, { as: caller }), 'INVALID_ARGUMENT', 'firstName');
    expect((await row(t.admin.user.id))?.fullName).toBe('admin Tester');
    expect((await row(caller.user.id))?.fullName).toBe('Self Named');
  });

  it('moves a managed user to another group', async () => {
    const manager = await t.newCaller('grouper');
    const member = await createUser(manager);
    expect((await ok(t, SetUserGroupDocument, { user: member.user.id, group: 'blue-team' }, { as: manager })).setUserGroup).toEqual({
      changed: true,
      user: { id: member.user.id, group: 'blue-team' },
    });
    expect((await ok(t, SetUserGroupDocument, { user: member.user.id, group: 'blue-team' }, { as: manager })).setUserGroup.changed).toBe(false);
    expect((await row(member.user.id))?.group).toBe('blue-team');
    expectCode(await refused(t, SetUserGroupDocument, { user: member.user.id, group: '' }, { as: manager }), 'INVALID_ARGUMENT', 'group');
    const stranger = await t.newCaller('grouper-stranger');
    expectCode(await refused(t, SetUserGroupDocument, { user: member.user.id, group: 'red-team' }, { as: stranger }), 'NOT_FOUND', 'user');
    expect((await row(member.user.id))?.group).toBe('blue-team');
  });
});

describe('login links', () => {
  it('creates a link, hands out the same link for the same settings, and a new one for others', async () => {
    const manager = await t.newCaller('linker');
    const member = await createUser(manager);
    const before = Date.now();
    const first = (await ok(t, CreateLoginLinkDocument, { user: member.user.id }, { as: manager })).createLoginLink;
    expect(first).toEqual({ url: expect.stringMatching(new RegExp(`^${BASE_URL}/login/[a-z0-9]{40}$`)), valid: expect.stringMatching(ISO), count: 1, used: 0 });
    const valid = Date.parse(first.valid);
    expect(valid).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(valid).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);

    const same = (await ok(t, CreateLoginLinkDocument, { user: member.user.id }, { as: manager })).createLoginLink;
    expect(same.url).toBe(first.url);
    const other = (await ok(t, CreateLoginLinkDocument, { user: member.user.id, logins: 3, expiresInDays: 7, redirect: '/home' }, { as: manager })).createLoginLink;
    expect(other.url).not.toBe(first.url);
    expect(other.count).toBe(3);
    expect((await ok(t, CreateLoginLinkDocument, { user: member.user.id, logins: 3, expiresInDays: 7, redirect: '/home' }, { as: manager })).createLoginLink.url).toBe(other.url);
    expect((await ok(t, LoginLinkDocument, { user: member.user.id }, { as: manager })).loginLink.url).toBe(other.url);
    expect(await t.db.prisma.loginLink.count({ where: { userId: member.user.id } })).toBe(2);
  });

  it('ends a link on the day given by expiresOn (UTC)', async () => {
    const member = await createUser(t.admin);
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const link = (await ok(t, CreateLoginLinkDocument, { user: member.user.id, expiresOn: day })).createLoginLink;
    expect(link.valid).toBe(`${day}T23:59:59.000Z`);
  });

  it('refuses bad settings naming the argument, and users the caller does not manage', async () => {
    const manager = await t.newCaller('linker-2');
    const member = await createUser(manager);
    expectCode(await refused(t, CreateLoginLinkDocument, { user: member.user.id, expiresInDays: 31 }, { as: manager }), 'INVALID_ARGUMENT', 'expires');
    expectCode(await refused(t, CreateLoginLinkDocument, { user: member.user.id, logins: 256 }, { as: manager }), 'INVALID_ARGUMENT', 'logins');
    expectCode(await refused(t, CreateLoginLinkDocument, { user: member.user.id, redirect: 'https://elsewhere.example' }, { as: manager }), 'INVALID_ARGUMENT', 'redirect');
    expectCode(await refused(t, CreateLoginLinkDocument, { user: t.admin.user.id }, { as: manager }), 'NOT_FOUND', 'user');
    expect(await t.db.prisma.loginLink.count({ where: { userId: member.user.id } })).toBe(0);
  });

  it('revokes a link: it is no longer handed out and a new one is made', async () => {
    const manager = await t.newCaller('revoker');
    const member = await createUser(manager);
    const link = (await ok(t, CreateLoginLinkDocument, { user: member.user.id }, { as: manager })).createLoginLink;
    expect((await ok(t, RevokeLoginLinkDocument, { user: member.user.id, url: link.url }, { as: manager })).revokeLoginLink).toBe(true);
    const stored = await t.db.prisma.loginLink.findFirstOrThrow({ where: { userId: member.user.id } });
    expect(stored.invalidatedAt).toBeInstanceOf(Date);
    expectCode(await refused(t, LoginLinkDocument, { user: member.user.id }, { as: manager }), 'NOT_FOUND', 'user');
    const fresh = (await ok(t, CreateLoginLinkDocument, { user: member.user.id }, { as: manager })).createLoginLink;
    expect(fresh.url).not.toBe(link.url);
    expectCode(await refused(t, RevokeLoginLinkDocument, { user: member.user.id, url: `${BASE_URL}/login/unknown` }, { as: manager }), 'NOT_FOUND', 'url');
  });
});

describe('assume tokens', () => {
  it('acts as the assumed user with the Service-API-Assume header (or ?assume=) until the token is revoked', async () => {
    const manager = await t.newCaller('assumer');
    const member = await createUser(manager);
    const before = Date.now();
    const { assumeUser } = await ok(t, AssumeUserDocument, { user: member.user.username }, { as: manager });
    expect(assumeUser).toEqual({ token: expect.stringMatching(/^[a-z0-9]{8}\.[a-z0-9]{40}$/), valid: expect.stringMatching(ISO) });
    expect(Date.parse(assumeUser.valid)).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(Date.parse(assumeUser.valid)).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const assumed = await ok(t, MeDocument, {}, { as: manager, headers: { 'service-api-assume': assumeUser.token } });
    expect(assumed.me.id).toBe(member.user.id);
    expect(assumed.me.username).toBe(member.user.username);
    const viaQuery = await t.app.fetch(
      new Request(`${BASE_URL}/graphql?assume=${assumeUser.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${manager.app}:${manager.secret}` },
        body: JSON.stringify({ query: MeDocument }),
      }),
    );
    expect(((await viaQuery.json()) as { data: { me: { id: string } } }).data.me.id).toBe(member.user.id);
    // Only the application owner that asked for it can use it.
    const other = await send(t, MeDocument, {}, { headers: { 'service-api-assume': assumeUser.token } });
    expect(other.status).toBe(401);
    expectCode(other.errors![0]!, 'INVALID_ASSUME_TOKEN');

    expect((await ok(t, RevokeAssumeTokenDocument, { token: assumeUser.token }, { as: manager })).revokeAssumeToken).toBe(true);
    const revoked = await send(t, MeDocument, {}, { as: manager, headers: { 'service-api-assume': assumeUser.token } });
    expect(revoked.status).toBe(401);
    expectCode(revoked.errors![0]!, 'INVALID_ASSUME_TOKEN');
    expectCode(await refused(t, RevokeAssumeTokenDocument, { token: 'unknown.token' }, { as: manager }), 'NOT_FOUND', 'token');
  });

  it('needs the password of a user the caller does not manage', async () => {
    const caller = await t.newCaller('assumer-2');
    const target = await createUser(t.admin, { password: 'target-password' });
    expectCode(await refused(t, AssumeUserDocument, { user: target.user.id }, { as: caller }), 'MISSING_ARGUMENT', 'password');
    expectCode(await refused(t, AssumeUserDocument, { user: target.user.id, password: 'wrong' }, { as: caller }), 'WRONG_PASSWORD', 'password');
    // An unknown user is answered as one the caller does not manage (the guide, "Enumeration and guessing").
    expectCode(await refused(t, AssumeUserDocument, { user: 'nobody-at-all' }, { as: caller }), 'MISSING_ARGUMENT', 'password');
    expectCode(await refused(t, AssumeUserDocument, { user: 'nobody-at-all', password: 'wrong' }, { as: caller }), 'WRONG_PASSWORD', 'password');
    const tokens = await t.db.prisma.assumeToken.count({ where: { userId: target.user.id } });
    expect(tokens).toBe(0);
    const { assumeUser } = await ok(t, AssumeUserDocument, { user: target.user.email, password: 'target-password' }, { as: caller });
    expect((await ok(t, MeDocument, {}, { as: caller, headers: { 'service-api-assume': assumeUser.token } })).me.id).toBe(target.user.id);
  });
});
