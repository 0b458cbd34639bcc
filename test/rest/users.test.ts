import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, BASE_URL, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { expectError, refusedUnchanged } from '../helpers/expect.ts';
import { newExam } from '../helpers/exam-seed.ts';
import { seed } from '../helpers/seed.ts';

/**
 * The Users endpoints of the contract, through HTTP: every documented rule, the exact output
 * fields with native JSON types, and that a refused write leaves the database as it was.
 */

let t: TestApp;
/** A non-admin owner whose users are the subjects of most tests. */
let boss: Caller;
/** Another non-admin owner: none of boss's users are visible to it. */
let other: Caller;

beforeAll(async () => {
  t = await createTestApp();
  boss = await t.newCaller('boss');
  other = await t.newCaller('other');
});
afterAll(async () => t?.close());

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const parseDatetime = (s: string) => new Date(`${s.replace(' ', 'T')}Z`).getTime();

let seq = 0;
const uniq = (prefix = 'u') => `${prefix}${++seq}x${Date.now().toString(36)}`;


/** Everything a users call could write. */
async function snapshot() {
  const p = t.db.prisma;
  const order = { orderBy: { id: 'asc' as const } };
  return {
    users: await p.user.findMany(order),
    links: await p.loginLink.findMany(order),
    tokens: await p.assumeToken.findMany(order),
    notifications: await p.notification.findMany(order),
    audit: await p.auditEvent.count(),
  };
}

/** Runs a call that must be refused, checks the error and that nothing was written. */
const refused = refusedUnchanged(snapshot);

interface NewUser {
  user: string;
  username: string;
  password: string;
}

/** Creates a user through POST user (as boss unless told otherwise). */
async function createUser(args: Record<string, unknown> = {}, as: Caller = boss): Promise<NewUser> {
  const username = uniq('user');
  const r = await t.rpc('POST', 'user', { username, first_name: 'First', last_name: 'Last', email: `${username}@example.com`, ...args }, { as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const base = () => ({ username: uniq('user'), first_name: 'Ann', last_name: 'Smith', email: `${uniq('e')}@example.com` });

/** Opens a login link the way a browser would. */
async function openLink(url: string): Promise<Response> {
  return t.app.fetch(new Request(url, { redirect: 'manual' }));
}

describe('GET users', () => {
  let lister: Caller;
  const made: { id: string; name: string }[] = [];

  beforeAll(async () => {
    lister = await t.newCaller('lister');
    // 18 regular users with sortable names, one exam account, and a user of someone else.
    for (let i = 0; i < 18; i++) {
      const n = String(i).padStart(2, '0');
      const u = await createUser({ first_name: `Person${n}`, last_name: 'Listed', email: `person${n}@list.example` }, lister);
      made.push({ id: u.user, name: `Person${n} Listed` });
    }
    await createUser({ first_name: 'Exam', last_name: 'Account', exam: 'true' }, lister);
    await createUser({ first_name: 'Person99', last_name: 'Foreign' }, other);
  });

  it('lists managed non-generated users as {user, name}, 16 by default, page 1 by default', async () => {
    const r = await t.rpc('GET', 'users', {}, { as: lister });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['users']);
    expect(r.body.users).toHaveLength(16);
    for (const u of r.body.users) {
      expect(Object.keys(u).sort()).toEqual(['name', 'user']);
      expect(typeof u.user).toBe('string');
      expect(typeof u.name).toBe('string');
    }
    expect(r.body.users).toEqual(made.slice(0, 16).map((m) => ({ user: m.id, name: m.name })));
    const page1 = await t.rpc('GET', 'users', { page: '1' }, { as: lister });
    expect(page1.body).toEqual(r.body);
  });

  it('pages with limit and page, never showing exam accounts or users of others', async () => {
    const page2 = await t.rpc('GET', 'users', { page: '2' }, { as: lister });
    expect(page2.body.users).toEqual(made.slice(16).map((m) => ({ user: m.id, name: m.name })));
    const all = await t.rpc('GET', 'users', { limit: '100' }, { as: lister });
    expect(all.body.users).toHaveLength(18);
    expect(all.body.users.map((u: any) => u.name)).not.toContain('Exam Account');
    expect(all.body.users.map((u: any) => u.name)).not.toContain('Person99 Foreign');
    const small = await t.rpc('GET', 'users', { limit: '5', page: '3' }, { as: lister });
    expect(small.body.users.map((u: any) => u.user)).toEqual(made.slice(10, 15).map((m) => m.id));
    const beyond = await t.rpc('GET', 'users', { page: '9' }, { as: lister });
    expect(beyond.body).toEqual({ users: [] });
  });

  it('filters with search on name, username or email and ignores page in search mode', async () => {
    const byName = await t.rpc('GET', 'users', { search: 'person07' }, { as: lister });
    expect(byName.body.users).toEqual([{ user: made[7]!.id, name: made[7]!.name }]);
    const byEmail = await t.rpc('GET', 'users', { search: 'person1', page: '5' }, { as: lister });
    expect(byEmail.body.users.map((u: any) => u.user)).toEqual(made.slice(10).map((m) => m.id));
    const limited = await t.rpc('GET', 'users', { search: 'listed', limit: '3', page: '4' }, { as: lister });
    expect(limited.body.users.map((u: any) => u.user)).toEqual(made.slice(0, 3).map((m) => m.id));
    const none = await t.rpc('GET', 'users', { search: 'foreign' }, { as: lister });
    expect(none.body).toEqual({ users: [] });
  });

  it('lets an administrator list every managed user', async () => {
    const r = await t.rpc('GET', 'users', { search: 'Person99' });
    expect(r.body.users).toHaveLength(1);
  });

  it('refuses invalid paging arguments with 403 naming them', async () => {
    expectError(await t.rpc('GET', 'users', { limit: '0' }, { as: lister }), 403, 'INVALID_ARGUMENT', 'limit');
    expectError(await t.rpc('GET', 'users', { limit: 'ten' }, { as: lister }), 403, 'INVALID_ARGUMENT', 'limit');
    expectError(await t.rpc('GET', 'users', { page: '0' }, { as: lister }), 403, 'INVALID_ARGUMENT', 'page');
  });
});

describe('GET user:me and GET user', () => {
  it('user:me returns user, name, status, exam with native types', async () => {
    const r = await t.rpc('GET', 'user:me', {}, { as: boss });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: boss.user.id, name: 'boss Tester', status: true, exam: false });
  });

  it('GET user takes the literal me and identification strings', async () => {
    const me = await t.rpc('GET', 'user', { user: 'me' }, { as: boss });
    expect(me.body).toEqual({ user: boss.user.id, name: 'boss Tester', status: true, exam: false });
    const u = await createUser({ first_name: 'Gina', last_name: 'Get' });
    const r = await t.rpc('GET', 'user', { user: u.user }, { as: boss });
    expect(r.body).toEqual({ user: u.user, name: 'Gina Get', status: true, exam: false });
    const exam = await createUser({ first_name: 'Exa', last_name: 'Minee', exam: 'true' });
    expect((await t.rpc('GET', 'user', { user: exam.user }, { as: boss })).body).toEqual({ user: exam.user, name: 'Exa Minee', status: true, exam: true });
    // Administrators read everyone.
    expect((await t.rpc('GET', 'user', { user: u.user })).status).toBe(200);
  });

  it('refuses a missing, unknown or foreign user with 403; a foreign user is answered as an unknown one', async () => {
    expectError(await t.rpc('GET', 'user', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'user');
    expectError(await t.rpc('GET', 'user', { user: 'usr_unknown00000000' }, { as: boss }), 403, 'NOT_FOUND', 'user');
    const u = await createUser();
    expectError(await t.rpc('GET', 'user', { user: u.user }, { as: other }), 403, 'NOT_FOUND', 'user');
    // An administrator is someone else's user too.
    expectError(await t.rpc('GET', 'user', { user: t.admin.user.id }, { as: boss }), 403, 'NOT_FOUND', 'user');
  });
});

describe('POST user', () => {
  it('creates a user with the documented defaults and returns user, username, password', async () => {
    const args = base();
    const r = await t.rpc('POST', 'user', args, { as: boss });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['password', 'user', 'username']);
    expect(r.body.user).toMatch(/^usr_/);
    expect(r.body.username).toBe(args.username);
    expect(typeof r.body.password).toBe('string');
    expect(r.body.password.length).toBeGreaterThanOrEqual(4);
    expect(r.body.password.length).toBeLessThanOrEqual(64);
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
    expect(u).toMatchObject({
      username: args.username,
      email: args.email,
      firstName: 'Ann',
      lastName: 'Smith',
      fullName: 'Ann Smith',
      displayName: 'Ann Smith',
      phone: null,
      gender: null,
      birthdate: null,
      group: null,
      template: null,
      generated: false,
      enabled: true,
      admin: false,
      color: 'default',
      mustChangePassword: false,
      language: boss.user.language,
      timezone: boss.user.timezone,
      customFields: {},
      createdById: boss.user.id,
    });
    // The generated password is the real one: someone not managing the user can assume it with it.
    const assumed = await t.rpc('POST', 'user:assume', { user: args.username, password: r.body.password }, { as: other });
    expect(assumed.status).toBe(200);
    // No notification unless asked for.
    expect(await t.db.prisma.notification.count({ where: { userId: r.body.user } })).toBe(0);
  });

  it('stores every optional field as given', async () => {
    // No service configures custom fields: they are set up in the database.
    await t.db.prisma.customField.create({ data: { id: 'cfd_department01', entity: 'user', key: 'department', label: 'Department' } });
    const args = {
      ...base(),
      password: 'Secret-Pw1',
      full_name: 'Dr. Ann Smith',
      display_name: 'Annie',
      phone: '+36 1 234 5678',
      gender: 'female',
      birthdate: '1990-02-28',
      group: 'sales',
      template: 'corporate_teacher',
      custom_department: 'Research',
      language: 'de',
      timezone: 'Europe/Budapest',
      color: 'purple',
      must_change_password: 'true',
    };
    const r = await t.rpc('POST', 'user', args, { as: boss });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: r.body.user, username: args.username, password: 'Secret-Pw1' });
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
    expect(u).toMatchObject({
      fullName: 'Dr. Ann Smith',
      displayName: 'Annie',
      phone: '+36 1 234 5678',
      gender: 'female',
      birthdate: new Date('1990-02-28T00:00:00Z'),
      group: 'sales',
      template: 'corporate_teacher',
      customFields: { department: 'Research' },
      language: 'de',
      timezone: 'Europe/Budapest',
      color: 'purple',
      mustChangePassword: true,
    });
    expect((await t.rpc('GET', 'user', { user: r.body.user }, { as: boss })).body.name).toBe('Dr. Ann Smith');
    expect((await t.rpc('POST', 'user:assume', { user: args.username, password: 'Secret-Pw1' }, { as: other })).status).toBe(200);
  });

  it('derives display_name from a given full_name', async () => {
    const r = await t.rpc('POST', 'user', { ...base(), full_name: 'Ann B. Smith' }, { as: boss });
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
    expect([u.fullName, u.displayName]).toEqual(['Ann B. Smith', 'Ann B. Smith']);
    const d = await t.rpc('POST', 'user', { ...base(), display_name: 'AS' }, { as: boss });
    const v = await t.db.prisma.user.findUniqueOrThrow({ where: { id: d.body.user } });
    expect([v.fullName, v.displayName]).toEqual(['Ann Smith', 'AS']);
  });

  it('accepts every documented gender, template and color value', async () => {
    for (const gender of ['male', 'female', 'other']) expect((await t.rpc('POST', 'user', { ...base(), gender }, { as: boss })).status).toBe(200);
    for (const template of ['corporate_test', 'corporate_user', 'corporate_reporter', 'corporate_supervisor', 'corporate_teacher', 'corporate_admin', 'streaming']) {
      const r = await t.rpc('POST', 'user', { ...base(), template }, { as: boss });
      expect(r.status, template).toBe(200);
      expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } })).template).toBe(template);
    }
    for (const color of ['default', 'branding', 'red', 'blue', 'yellow', 'green', 'purple', 'gray']) {
      const r = await t.rpc('POST', 'user', { ...base(), color }, { as: boss });
      expect(r.status, color).toBe(200);
      expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } })).color).toBe(color);
    }
  });

  it('returns only user for exam accounts (exam defaults to false)', async () => {
    const r = await t.rpc('POST', 'user', { ...base(), exam: 'true', password: 'hidden-pw' }, { as: boss });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['user']);
    expect(typeof r.body.user).toBe('string');
    expect((await t.rpc('GET', 'user', { user: r.body.user }, { as: boss })).body.exam).toBe(true);
    const f = await t.rpc('POST', 'user', { ...base(), exam: 'false' }, { as: boss });
    expect(Object.keys(f.body).sort()).toEqual(['password', 'user', 'username']);
  });

  it('takes language and timezone from the application owner by default', async () => {
    const owner = await t.newCaller('hungarian');
    await t.db.prisma.user.update({ where: { id: owner.user.id }, data: { language: 'hu', timezone: 'Europe/Budapest' } });
    const r = await t.rpc('POST', 'user', base(), { as: owner });
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
    expect([u.language, u.timezone]).toEqual(['hu', 'Europe/Budapest']);
    const given = await t.rpc('POST', 'user', { ...base(), language: 'en', timezone: 'America/New_York' }, { as: owner });
    const g = await t.db.prisma.user.findUniqueOrThrow({ where: { id: given.body.user } });
    expect([g.language, g.timezone]).toEqual(['en', 'America/New_York']);
  });

  it('under assume, takes the defaults from the assumed user, who then manages the new user', async () => {
    const manager = await createUser({ language: 'de', timezone: 'Europe/Berlin' });
    const token = (await t.rpc('POST', 'user:assume', { user: manager.user }, { as: boss })).body.token;
    const r = await t.rpc('POST', 'user', { ...base(), assume: token }, { as: boss });
    expect(r.status).toBe(200);
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
    expect([u.language, u.timezone, u.createdById]).toEqual(['de', 'Europe/Berlin', manager.user]);
  });

  it('takes native JSON values in a JSON body', async () => {
    const args = { ...base(), exam: false, must_change_password: true, notify: false, birthdate: '2001-12-31' };
    const r = await t.rpc('POST', 'user', args, { as: boss, encoding: 'json' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['password', 'user', 'username']);
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
    expect([u.mustChangePassword, u.generated]).toEqual([true, false]);
    const link = await t.rpc('POST', 'user:login', { user: r.body.user, expires: 2, logins: 3, short: false }, { as: boss, encoding: 'json' });
    expect(link.status).toBe(200);
    expect(link.body.count).toBe(3);
  });

  it('enforces the documented lengths: username and password 4-64, names 1-64, full and display names 1-255', async () => {
    const cases: [string, string, boolean][] = [
      ['username', 'abc', false],
      ['username', 'abcd', true],
      ['username', 'a'.repeat(64), true],
      ['username', 'a'.repeat(65), false],
      ['password', 'abc', false],
      ['password', 'abcd', true],
      ['password', 'p'.repeat(64), true],
      ['password', 'p'.repeat(65), false],
      ['first_name', '', false],
      ['first_name', 'A', true],
      ['first_name', 'f'.repeat(64), true],
      ['first_name', 'f'.repeat(65), false],
      ['last_name', '', false],
      ['last_name', 'B', true],
      ['last_name', 'l'.repeat(64), true],
      ['last_name', 'l'.repeat(65), false],
      ['full_name', '', false],
      ['full_name', 'F', true],
      ['full_name', 'n'.repeat(255), true],
      ['full_name', 'n'.repeat(256), false],
      ['display_name', '', false],
      ['display_name', 'D', true],
      ['display_name', 'd'.repeat(255), true],
      ['display_name', 'd'.repeat(256), false],
    ];
    for (const [field, value, ok] of cases) {
      const args = { ...base(), [field]: value };
      if (ok) {
        const r = await t.rpc('POST', 'user', args, { as: boss });
        expect(r.status, `${field}=${value.length}`).toBe(200);
      } else {
        await refused(() => t.rpc('POST', 'user', args, { as: boss }), 403, 'INVALID_ARGUMENT', field);
      }
    }
  });

  it('refuses names made only of spaces', async () => {
    await refused(() => t.rpc('POST', 'user', { ...base(), first_name: '   ' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'first_name');
    await refused(() => t.rpc('POST', 'user', { ...base(), display_name: ' ' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'display_name');
  });

  it('refuses a missing required argument with MISSING_ARGUMENT', async () => {
    for (const field of ['username', 'first_name', 'last_name', 'email']) {
      const args: Record<string, unknown> = base();
      delete args[field];
      await refused(() => t.rpc('POST', 'user', args, { as: boss }), 403, 'MISSING_ARGUMENT', field);
    }
  });

  it('validates formats and enumerations and writes nothing when refused', async () => {
    const bad: [string, string][] = [
      ['email', 'not-an-email'],
      ['email', 'a@'],
      ['phone', '36 1 234 5678'],
      ['phone', '+36 abc'],
      ['gender', 'unknown'],
      ['birthdate', '1990-02-30'],
      ['birthdate', '02/28/1990'],
      ['exam', 'maybe'],
      ['template', 'none'],
      ['template', 'corporate'],
      ['color', 'pink'],
      ['must_change_password', 'yes please'],
      ['notify', 'sometimes'],
      ['language', 'xx'],
      ['language', 'fr'],
      ['timezone', 'Mars/Olympus_Mons'],
    ];
    for (const [field, value] of bad) {
      await refused(() => t.rpc('POST', 'user', { ...base(), [field]: value }, { as: boss }), 403, undefined, field);
    }
    const phone = await t.rpc('POST', 'user', { ...base(), phone: '+1-555-123-4567' }, { as: boss });
    expect(phone.status).toBe(200);
  });

  it('accepts custom_{field} only when the field is configured for users', async () => {
    // No service configures custom fields: they are set up in the database.
    await t.db.prisma.customField.create({ data: { id: 'cfd_orgonly0001', entity: 'organization', key: 'region', label: 'Region' } });
    await refused(() => t.rpc('POST', 'user', { ...base(), custom_nickname: 'x' }, { as: boss }), 403, 'UNKNOWN_FIELD', 'custom_nickname');
    await refused(() => t.rpc('POST', 'user', { ...base(), custom_region: 'north' }, { as: boss }), 403, 'UNKNOWN_FIELD', 'custom_region');
    // No service configures custom fields: they are set up in the database.
    await t.db.prisma.customField.create({ data: { id: 'cfd_nickname001', entity: 'user', key: 'nickname', label: 'Nickname' } });
    const r = await t.rpc('POST', 'user', { ...base(), custom_nickname: 'Nicky' }, { as: boss });
    expect(r.status).toBe(200);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } })).customFields).toEqual({ nickname: 'Nicky' });
  });

  it('refuses a username that is taken, also when two requests race', async () => {
    const u = await createUser();
    await refused(() => t.rpc('POST', 'user', { ...base(), username: u.username }, { as: other }), 403, 'USERNAME_TAKEN', 'username');
    const username = uniq('race');
    const before = await t.db.prisma.user.count();
    const results = await Promise.all(
      [1, 2, 3].map((i) => t.rpc('POST', 'user', { ...base(), username, email: `race${i}@example.com` }, { as: boss })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403]);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 403, 'USERNAME_TAKEN', 'username');
    expect(await t.db.prisma.user.count()).toBe(before + 1);
  });

  it('with notify=true writes one email to the outbox with a working login link and never the password', async () => {
    const args = { ...base(), password: 'Very-Secret-77', notify: 'true' };
    const r = await t.rpc('POST', 'user', args, { as: boss });
    expect(r.status).toBe(200);
    const rows = await t.db.prisma.notification.findMany({ where: { userId: r.body.user } });
    expect(rows).toHaveLength(1);
    const n = rows[0]!;
    expect(n).toMatchObject({ channel: 'email', recipient: args.email, status: 'pending' });
    expect(n.body).not.toContain('Very-Secret-77');
    expect(n.subject).not.toContain('Very-Secret-77');
    const url = /https?:\/\/\S+/.exec(n.body)?.[0];
    expect(url).toMatch(new RegExp(`^${BASE_URL}/(login|l)/[a-z0-9]+$`));
    const opened = await openLink(url!);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('set-cookie')).toMatch(/^session=/);
  });
});

describe('PATCH user and DELETE user', () => {
  it('disables and enables a managed user; the status shows it', async () => {
    const u = await createUser();
    const off = await t.rpc('PATCH', 'user', { user: u.user, active: 'false' }, { as: boss });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ user: u.user, status: false, success: true });
    expect((await t.rpc('GET', 'user', { user: u.user }, { as: boss })).body.status).toBe(false);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: u.user } })).enabled).toBe(false);
    // Disabled users can neither be assumed nor use login links.
    await refused(() => t.rpc('POST', 'user:assume', { user: u.user }, { as: boss }), 403, 'USER_DISABLED');
    const on = await t.rpc('PATCH', 'user', { user: u.user, active: 'true' }, { as: boss });
    expect(on.body).toEqual({ user: u.user, status: true, success: true });
    expect((await t.rpc('GET', 'user', { user: u.user }, { as: boss })).body.status).toBe(true);
  });

  it('cannot disable the calling account', async () => {
    await refused(() => t.rpc('PATCH', 'user', { user: 'me', active: 'false' }), 403, 'PERMISSION_DENIED');
    await refused(() => t.rpc('PATCH', 'user', { user: boss.user.id, active: 'false' }, { as: boss }), 403, 'PERMISSION_DENIED');
    expect((await t.rpc('GET', 'user:me')).body.status).toBe(true);
  });

  it('cannot disable the application owner through an assumed administrator', async () => {
    const second = await t.rpc('POST', 'user', base());
    await t.db.prisma.user.update({ where: { id: second.body.user }, data: { admin: true } });
    const token = (await t.rpc('POST', 'user:assume', { user: second.body.user })).body.token;
    await refused(() => t.rpc('PATCH', 'user', { user: t.admin.user.id, active: 'false', assume: token }), 403, 'PERMISSION_DENIED');
    await refused(() => t.rpc('DELETE', 'user', { user: t.admin.user.id, assume: token }), 403, 'PERMISSION_DENIED');
  });

  it('refuses foreign, unknown or invalid arguments and changes nothing', async () => {
    const u = await createUser();
    await refused(() => t.rpc('PATCH', 'user', { user: u.user, active: 'false' }, { as: other }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('PATCH', 'user', { user: 'usr_nobody000000000', active: 'false' }, { as: boss }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('PATCH', 'user', { user: u.user, active: 'off-ish' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'active');
    await refused(() => t.rpc('PATCH', 'user', { active: 'false' }, { as: boss }), 403, 'MISSING_ARGUMENT', 'user');
  });

  it('deletes a managed user', async () => {
    const u = await createUser();
    const r = await t.rpc('DELETE', 'user', { user: u.user }, { as: boss });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: u.user, success: true });
    expect(await t.db.prisma.user.findUnique({ where: { id: u.user } })).toBeNull();
    expectError(await t.rpc('GET', 'user', { user: u.user }, { as: boss }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('DELETE', 'user', { user: u.user }, { as: boss }), 403, 'NOT_FOUND', 'user');
  });

  it('refuses to delete the caller, a foreign user or nothing', async () => {
    const u = await createUser();
    await refused(() => t.rpc('DELETE', 'user', { user: u.user }, { as: other }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('DELETE', 'user', { user: 'me' }), 403, 'PERMISSION_DENIED');
    await refused(() => t.rpc('DELETE', 'user', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'user');
  });
});

describe('user:name', () => {
  it('reads the four names with the documented fields', async () => {
    const u = await createUser({ first_name: 'Nora', last_name: 'Name', display_name: 'NN' });
    const r = await t.rpc('GET', 'user:name', { user: u.user }, { as: boss });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: u.user, first_name: 'Nora', last_name: 'Name', full_name: 'Nora Name', display_name: 'NN' });
    expect((await t.rpc('GET', 'user:name', { user: 'me' }, { as: boss })).body.first_name).toBe('boss');
  });

  it('renames: changed is true, then false for the same names', async () => {
    const u = await createUser();
    const args = { user: u.user, first_name: 'Rita', last_name: 'Renamed' };
    const first = await t.rpc('POST', 'user:name', args, { as: boss });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ user: u.user, success: true, changed: true });
    const again = await t.rpc('POST', 'user:name', args, { as: boss });
    expect(again.body).toEqual({ user: u.user, success: true, changed: false });
    expect((await t.rpc('GET', 'user:name', { user: u.user }, { as: boss })).body).toEqual({
      user: u.user, first_name: 'Rita', last_name: 'Renamed', full_name: 'Rita Renamed', display_name: 'Rita Renamed',
    });
    const explicit = await t.rpc('POST', 'user:name', { ...args, full_name: 'Rita R.', display_name: 'RR' }, { as: boss });
    expect(explicit.body.changed).toBe(true);
    expect((await t.rpc('GET', 'user', { user: u.user }, { as: boss })).body.name).toBe('Rita R.');
    expect((await t.rpc('GET', 'user:name', { user: u.user }, { as: boss })).body.display_name).toBe('RR');
  });

  it('lets a user rename itself', async () => {
    const self = await t.newCaller('selfnamer');
    const r = await t.rpc('POST', 'user:name', { user: 'me', first_name: 'Selma', last_name: 'Self' }, { as: self });
    expect(r.body).toEqual({ user: self.user.id, success: true, changed: true });
    expect((await t.rpc('GET', 'user:me', {}, { as: self })).body.name).toBe('Selma Self');
  });

  it('refuses bad names and foreign users without changing anything', async () => {
    const u = await createUser();
    const ok = { user: u.user, first_name: 'A', last_name: 'B' };
    await refused(() => t.rpc('POST', 'user:name', { ...ok, first_name: '' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'first_name');
    await refused(() => t.rpc('POST', 'user:name', { ...ok, last_name: 'x'.repeat(65) }, { as: boss }), 403, 'INVALID_ARGUMENT', 'last_name');
    await refused(() => t.rpc('POST', 'user:name', { ...ok, full_name: 'x'.repeat(256) }, { as: boss }), 403, 'INVALID_ARGUMENT', 'full_name');
    await refused(() => t.rpc('POST', 'user:name', { ...ok, display_name: '' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'display_name');
    await refused(() => t.rpc('POST', 'user:name', { user: u.user, first_name: 'A' }, { as: boss }), 403, 'MISSING_ARGUMENT', 'last_name');
    await refused(() => t.rpc('POST', 'user:name', ok, { as: other }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:name', { user: u.user }, { as: other }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:name', { user: 'usr_nobody000000000' }, { as: boss }), 403, 'NOT_FOUND', 'user');
  });
});

describe('user:group', () => {
  it('reads null before a group is set, then the group; changed is true then false', async () => {
    const u = await createUser();
    // No group: left out (the contract types group as a string), not null.
    const unset = (await t.rpc('GET', 'user:group', { user: u.user }, { as: boss })).body;
    expect(unset).toEqual({ user: u.user });
    expect(Object.keys(unset)).toEqual(['user']);
    const set = await t.rpc('POST', 'user:group', { user: u.user, group: 'marketing' }, { as: boss });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ user: u.user, success: true, changed: true });
    const again = await t.rpc('POST', 'user:group', { user: u.user, group: 'marketing' }, { as: boss });
    expect(again.body).toEqual({ user: u.user, success: true, changed: false });
    expect((await t.rpc('GET', 'user:group', { user: u.user }, { as: boss })).body).toEqual({ user: u.user, group: 'marketing' });
    const created = await createUser({ group: 'support' });
    expect((await t.rpc('GET', 'user:group', { user: created.user }, { as: boss })).body.group).toBe('support');
  });

  it('lets a user regroup itself', async () => {
    const self = await t.newCaller('selfgrouper');
    const r = await t.rpc('POST', 'user:group', { user: 'me', group: 'volunteers' }, { as: self });
    expect(r.body).toEqual({ user: self.user.id, success: true, changed: true });
    expect((await t.rpc('GET', 'user:group', { user: 'me' }, { as: self })).body).toEqual({ user: self.user.id, group: 'volunteers' });
  });

  it('refuses a missing group and foreign users without changing anything', async () => {
    const u = await createUser();
    await refused(() => t.rpc('POST', 'user:group', { user: u.user }, { as: boss }), 403, 'MISSING_ARGUMENT', 'group');
    await refused(() => t.rpc('POST', 'user:group', { user: u.user, group: 'x' }, { as: other }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:group', { user: u.user }, { as: other }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:group', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'user');
  });
});

describe('GET user:search', () => {
  it('finds a visible user by email (any case), username or identification string', async () => {
    const u = await createUser({ email: 'Searchable.Person@Example.com' });
    for (const query of ['searchable.person@example.com', u.username, u.user]) {
      const r = await t.rpc('GET', 'user:search', { query }, { as: boss });
      expect(r.status, query).toBe(200);
      expect(r.body).toEqual({ user: u.user, exam: false });
    }
    const exam = await createUser({ exam: 'true' });
    expect((await t.rpc('GET', 'user:search', { query: exam.user }, { as: boss })).body).toEqual({ user: exam.user, exam: true });
  });

  it('does not find users the caller cannot see', async () => {
    const u = await createUser({ email: 'hidden.person@example.com' });
    expectError(await t.rpc('GET', 'user:search', { query: u.username }, { as: other }), 403, 'NOT_FOUND', 'query');
    expectError(await t.rpc('GET', 'user:search', { query: 'hidden.person@example.com' }, { as: other }), 403, 'NOT_FOUND', 'query');
    expectError(await t.rpc('GET', 'user:search', { query: u.user }, { as: other }), 403, 'NOT_FOUND', 'query');
    expectError(await t.rpc('GET', 'user:search', { query: 'nobody@nowhere.example' }, { as: boss }), 403, 'NOT_FOUND', 'query');
    expectError(await t.rpc('GET', 'user:search', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'query');
  });
});

describe('user:login', () => {
  const DAY = 86_400_000;

  it('creates a link with the defaults: one day, one login', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user }, { as: boss });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['count', 'url', 'user', 'valid']);
    expect(r.body.user).toBe(u.user);
    expect(r.body.url).toMatch(new RegExp(`^${BASE_URL}/login/[a-z0-9]+$`));
    expect(r.body.count).toBe(1);
    expect(r.body.valid).toMatch(DATETIME);
    expect(Math.abs(parseDatetime(r.body.valid) - (Date.now() + DAY))).toBeLessThan(10_000);
    const get = await t.rpc('GET', 'user:login', { user: u.user }, { as: boss });
    expect(get.body).toEqual({ user: u.user, url: r.body.url, valid: r.body.valid });
  });

  it('returns the same link for the same settings and a new one for different settings', async () => {
    const u = await createUser();
    const settings = { user: u.user, expires: '3', logins: '5', redirect: '/courses', template: 'plain' };
    const a = await t.rpc('POST', 'user:login', settings, { as: boss });
    const b = await t.rpc('POST', 'user:login', settings, { as: boss });
    expect(b.body).toEqual(a.body);
    expect(a.body.count).toBe(5);
    expect(Math.abs(parseDatetime(a.body.valid) - (Date.now() + 3 * DAY))).toBeLessThan(10_000);
    const urls = new Set([a.body.url]);
    for (const change of [{ expires: '4' }, { logins: '6' }, { redirect: '/home' }, { template: 'fancy' }, { redirect: undefined }]) {
      const r = await t.rpc('POST', 'user:login', JSON.parse(JSON.stringify({ ...settings, ...change })), { as: boss });
      expect(r.status).toBe(200);
      expect(urls.has(r.body.url), JSON.stringify(change)).toBe(false);
      urls.add(r.body.url);
    }
    expect(await t.db.prisma.loginLink.count({ where: { userId: u.user } })).toBe(6);
    // GET returns the latest valid one.
    const latest = await t.db.prisma.loginLink.findFirstOrThrow({ where: { userId: u.user }, orderBy: { createdAt: 'desc' } });
    const get = await t.rpc('GET', 'user:login', { user: u.user }, { as: boss });
    expect(get.body.valid).toBe(`${latest.expiresAt.toISOString().slice(0, 10)} ${latest.expiresAt.toISOString().slice(11, 19)}`);
  });

  it('takes expires as 1-30 days or a date, and logins up to 255', async () => {
    const u = await createUser();
    const inTen = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);
    const byDate = await t.rpc('POST', 'user:login', { user: u.user, expires: inTen }, { as: boss });
    expect(byDate.status).toBe(200);
    expect(byDate.body.valid).toBe(`${inTen} 23:59:59`);
    const thirty = await t.rpc('POST', 'user:login', { user: u.user, expires: '30', logins: '255' }, { as: boss });
    expect(thirty.status).toBe(200);
    expect(thirty.body.count).toBe(255);
    expect(Math.abs(parseDatetime(thirty.body.valid) - (Date.now() + 30 * DAY))).toBeLessThan(10_000);
    const one = await t.rpc('POST', 'user:login', { user: u.user, expires: '1' }, { as: boss });
    expect(one.status).toBe(200);

    const past = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const far = new Date(Date.now() + 32 * DAY).toISOString().slice(0, 10);
    for (const expires of ['0', '31', '-1', 'soon', past, far, '2026-02-30']) {
      await refused(() => t.rpc('POST', 'user:login', { user: u.user, expires }, { as: boss }), 403, 'INVALID_ARGUMENT', 'expires');
    }
    for (const logins of ['0', '256', 'many']) {
      await refused(() => t.rpc('POST', 'user:login', { user: u.user, logins }, { as: boss }), 403, 'INVALID_ARGUMENT', 'logins');
    }
  });

  it('makes a link into an exam for its examinee: opening it signs the examinee in and lands on the exam', async () => {
    const u = await createUser();
    const exam = await newExam(t, boss);
    // Not on the exam yet: refused like an exam of nothing.
    await refused(() => t.rpc('POST', 'user:login', { user: u.user, exam }, { as: boss }), 403, 'NOT_FOUND', 'exam');
    expect((await t.rpc('POST', 'exam:users', { exam, users: u.user }, { as: boss })).status).toBe(200);
    expect((await t.rpc('GET', 'exam:users', { exam }, { as: boss })).body.users.map((e: any) => e.user)).toEqual([u.user]);

    const r = await t.rpc('POST', 'user:login', { user: u.user, exam, logins: '2' }, { as: boss });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['user', 'url', 'valid', 'count']);
    expect(r.body).toMatchObject({ user: u.user, url: expect.stringMatching(new RegExp(`^${BASE_URL}/login/[a-z0-9]+$`)), count: 2 });
    // The same settings answer the same link; without the exam it is another link.
    expect((await t.rpc('POST', 'user:login', { user: u.user, exam, logins: '2' }, { as: boss })).body.url).toBe(r.body.url);
    const plain = await t.rpc('POST', 'user:login', { user: u.user, logins: '2' }, { as: boss });
    expect(plain.body.url).not.toBe(r.body.url);

    const opened = await openLink(r.body.url);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`${BASE_URL}/exam/${exam}`);
    const cookie = opened.headers.get('set-cookie')!;
    expect(JSON.parse(t.platform.secrets.open(/^session=([^;]+)/.exec(cookie)![1]!)).sub).toBe(u.user);
    expect((await openLink(plain.body.url)).headers.get('location')).toBe(`${BASE_URL}/`);

    // GraphQL makes the same link (the same settings answer the same valid link).
    const viaGraphql = await t.gql(`mutation($user: ID!, $exam: ID) { createLoginLink(user: $user, exam: $exam, logins: 2) { url } }`, { user: u.user, exam }, { as: boss });
    expect(viaGraphql.body).toEqual({ data: { createLoginLink: { url: r.body.url } } });

    // Taken off the exam, the link still signs the user in, on the start page.
    expect((await t.rpc('DELETE', 'exam:users', { exam, users: u.user }, { as: boss })).status).toBe(200);
    const later = await openLink(r.body.url);
    expect(later.status).toBe(302);
    expect(later.headers.get('location')).toBe(`${BASE_URL}/`);
  });

  it('a link into an exam the caller may not see is refused as unknown, even for an examinee', async () => {
    const u = await createUser();
    const theirs = await newExam(t, other);
    // The administrator adds the user (the exam's owner does not see it).
    await seed(t).admin.examinees(theirs, [{ user: { id: u.user } }]);
    await refused(() => t.rpc('POST', 'user:login', { user: u.user, exam: theirs }, { as: boss }), 403, 'NOT_FOUND', 'exam');
  });

  it('refuses exam combined with redirect, an exam the user is not on, and a bad redirect', async () => {
    const u = await createUser();
    await refused(() => t.rpc('POST', 'user:login', { user: u.user, exam: 'exm_abc', redirect: '/home' }, { as: boss }), 403, 'ARGUMENT_CONFLICT');
    await refused(() => t.rpc('POST', 'user:login', { user: u.user, exam: 'exm_abc' }, { as: boss }), 403, 'NOT_FOUND', 'exam');
    await refused(() => t.rpc('POST', 'user:login', { user: u.user, redirect: 'https://evil.example/' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'redirect');
    await refused(() => t.rpc('POST', 'user:login', { user: u.user, short: 'perhaps' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'short');
  });

  it('makes short links only while the short_links feature is on (406 otherwise)', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user, short: 'true' }, { as: boss });
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(new RegExp(`^${BASE_URL}/l/[a-z0-9]+$`));
    expect((await openLink(r.body.url)).status).toBe(302);
    await t.platform.settings.set('features', { short_links: false });
    try {
      await refused(() => t.rpc('POST', 'user:login', { user: u.user, short: 'true', logins: '2' }, { as: boss }), 406, 'FEATURE_DISABLED');
      // Long links still work.
      expect((await t.rpc('POST', 'user:login', { user: u.user, short: 'false' }, { as: boss })).status).toBe(200);
    } finally {
      await t.platform.settings.set('features', {});
    }
    expect((await t.rpc('POST', 'user:login', { user: u.user, short: 'true', logins: '2' }, { as: boss })).status).toBe(200);
  });

  it('signs the user in: 302 to the redirect with a session cookie, counting uses up to logins', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user, logins: '2', redirect: '/courses/intro' }, { as: boss });
    const first = await openLink(r.body.url);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`${BASE_URL}/courses/intro`);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^session=[^;]+;.*HttpOnly/);
    const session = JSON.parse(t.platform.secrets.open(/^session=([^;]+)/.exec(cookie)![1]!));
    expect(session.sub).toBe(u.user);
    const link = () => t.db.prisma.loginLink.findFirstOrThrow({ where: { userId: u.user } });
    expect((await link()).uses).toBe(1);
    expect((await openLink(r.body.url)).status).toBe(302);
    expect((await link()).uses).toBe(2);
    const third = await openLink(r.body.url);
    expect(third.status).toBe(410);
    expect(third.headers.get('set-cookie')).toBeNull();
    expect((await link()).uses).toBe(2);
    // A used-up link is no longer the valid one, and equal settings now give a new link.
    expectError(await t.rpc('GET', 'user:login', { user: u.user }, { as: boss }), 403, 'NOT_FOUND');
    const fresh = await t.rpc('POST', 'user:login', { user: u.user, logins: '2', redirect: '/courses/intro' }, { as: boss });
    expect(fresh.body.url).not.toBe(r.body.url);
  });

  it('redirects [content_type:tag] to the tagged content list', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user, redirect: '[exam:onboarding]' }, { as: boss });
    expect(r.status).toBe(200);
    const opened = await openLink(r.body.url);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`${BASE_URL}/exam?tag=onboarding`);
  });

  it('refuses an expired link', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user, logins: '3' }, { as: boss });
    await t.db.prisma.loginLink.updateMany({ where: { userId: u.user }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await openLink(r.body.url)).status).toBe(410);
    expect((await t.db.prisma.loginLink.findFirstOrThrow({ where: { userId: u.user } })).uses).toBe(0);
    expectError(await t.rpc('GET', 'user:login', { user: u.user }, { as: boss }), 403, 'NOT_FOUND');
  });

  it('refuses a link of a disabled user', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user }, { as: boss });
    await t.rpc('PATCH', 'user', { user: u.user, active: 'false' }, { as: boss });
    expect((await openLink(r.body.url)).status).toBe(410);
  });

  it('DELETE invalidates a link', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:login', { user: u.user, logins: '10' }, { as: boss });
    const short = await t.rpc('POST', 'user:login', { user: u.user, short: 'true' }, { as: boss });
    const del = await t.rpc('DELETE', 'user:login', { user: u.user, url: r.body.url }, { as: boss });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ user: u.user, success: true });
    expect((await openLink(r.body.url)).status).toBe(410);
    expect((await t.rpc('GET', 'user:login', { user: u.user }, { as: boss })).body.url).toBe(short.body.url);
    expect((await t.rpc('DELETE', 'user:login', { user: u.user, url: short.body.url }, { as: boss })).status).toBe(200);
    expect((await openLink(short.body.url)).status).toBe(410);
    expectError(await t.rpc('GET', 'user:login', { user: u.user }, { as: boss }), 403, 'NOT_FOUND');
    // Equal settings give a new link once the old one is invalidated.
    const again = await t.rpc('POST', 'user:login', { user: u.user, logins: '10' }, { as: boss });
    expect(again.body.url).not.toBe(r.body.url);
  });

  it('refuses DELETE of a link that is not the user’s, or not a URL', async () => {
    const u = await createUser();
    const v = await createUser();
    const link = await t.rpc('POST', 'user:login', { user: u.user }, { as: boss });
    await refused(() => t.rpc('DELETE', 'user:login', { user: v.user, url: link.body.url }, { as: boss }), 403, 'NOT_FOUND', 'url');
    await refused(() => t.rpc('DELETE', 'user:login', { user: u.user, url: `${BASE_URL}/login/nothing0000000000000000` }, { as: boss }), 403, 'NOT_FOUND', 'url');
    await refused(() => t.rpc('DELETE', 'user:login', { user: u.user, url: 'not a url' }, { as: boss }), 403, 'INVALID_ARGUMENT', 'url');
    await refused(() => t.rpc('DELETE', 'user:login', { user: u.user }, { as: boss }), 403, 'MISSING_ARGUMENT', 'url');
    await refused(() => t.rpc('DELETE', 'user:login', { user: u.user, url: link.body.url }, { as: other }), 403, 'NOT_FOUND', 'user');
    expect((await openLink(link.body.url)).status).toBe(302);
  });

  it('refuses links for users of someone else', async () => {
    const u = await createUser();
    await refused(() => t.rpc('POST', 'user:login', { user: u.user }, { as: other }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:login', { user: u.user }, { as: other }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('POST', 'user:login', { user: 'usr_nobody000000000' }, { as: boss }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('POST', 'user:login', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'user');
  });
});

describe('user:assume', () => {
  it('gives a token for a managed user without a password; it works as assume until revoked', async () => {
    const u = await createUser({ first_name: 'Assumed', last_name: 'Person' });
    const r = await t.rpc('POST', 'user:assume', { user: u.user }, { as: boss });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['token', 'user', 'valid']);
    expect(r.body.user).toBe(u.user);
    expect(typeof r.body.token).toBe('string');
    expect(r.body.valid).toMatch(DATETIME);
    expect(parseDatetime(r.body.valid)).toBeGreaterThan(Date.now());
    expect(parseDatetime(r.body.valid)).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    const me = await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: boss });
    expect(me.body).toEqual({ user: u.user, name: 'Assumed Person', status: true, exam: false });
    // The token acts as the user: the user's own name can be changed, boss's other users are out of reach.
    const other2 = await createUser();
    expectError(await t.rpc('GET', 'user', { user: other2.user, assume: r.body.token }, { as: boss }), 403, 'NOT_FOUND', 'user');
    const del = await t.rpc('DELETE', 'user:assume', { token: r.body.token }, { as: boss });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await t.db.prisma.assumeToken.findFirstOrThrow({ where: { userId: u.user } })).revokedAt).not.toBeNull();
    expectError(await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: boss }), 401, 'INVALID_ASSUME_TOKEN');
  });

  it('finds the user by username or email as well', async () => {
    const u = await createUser({ email: 'assume.by.mail@example.com' });
    expect((await t.rpc('POST', 'user:assume', { user: u.username }, { as: boss })).body.user).toBe(u.user);
    expect((await t.rpc('POST', 'user:assume', { user: 'Assume.By.Mail@example.com' }, { as: boss })).body.user).toBe(u.user);
  });

  it('prefers a username over an equal email address of an older account', async () => {
    const older = await createUser({ email: 'lookalike@example.com' });
    const newer = await createUser({ username: 'lookalike@example.com' });
    expect((await t.rpc('POST', 'user:assume', { user: 'lookalike@example.com' }, { as: boss })).body.user).toBe(newer.user);
    expect(older.user).not.toBe(newer.user);
  });

  it('needs the correct password for a user the caller does not manage', async () => {
    const u = await createUser({ password: 'right-password' });
    await refused(() => t.rpc('POST', 'user:assume', { user: u.user }, { as: other }), 403, 'MISSING_ARGUMENT', 'password');
    await refused(() => t.rpc('POST', 'user:assume', { user: u.user, password: 'wrong-password' }, { as: other }), 403, undefined, 'password');
    const r = await t.rpc('POST', 'user:assume', { user: u.username, password: 'right-password' }, { as: other });
    expect(r.status).toBe(200);
    expect((await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: other })).body.user).toBe(u.user);
  });

  it('checks a password given for a managed user too: a wrong one is refused, the right one accepted', async () => {
    const u = await createUser({ password: 'managed-password' });
    await refused(() => t.rpc('POST', 'user:assume', { user: u.user, password: 'not-the-password' }, { as: boss }), 403, 'WRONG_PASSWORD', 'password');
    expect((await t.rpc('POST', 'user:assume', { user: u.user, password: 'managed-password' }, { as: boss })).status).toBe(200);
  });

  it('accepts the user secret (the secret of one of its API applications) instead of the password', async () => {
    const owner = await t.newCaller('secretholder');
    await refused(() => t.rpc('POST', 'user:assume', { user: owner.user.id, password: 'not-the-secret' }, { as: other }), 403, undefined, 'password');
    const r = await t.rpc('POST', 'user:assume', { user: owner.user.id, password: owner.secret }, { as: other });
    expect(r.status).toBe(200);
    expect((await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: other })).body.user).toBe(owner.user.id);
  });

  it('keeps tokens to the application owner that asked for them', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:assume', { user: u.user }, { as: boss });
    expectError(await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: other }), 401, 'INVALID_ASSUME_TOKEN');
    await refused(() => t.rpc('DELETE', 'user:assume', { token: r.body.token }, { as: other }), 403, 'NOT_FOUND', 'token');
    expect((await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: boss })).body.user).toBe(u.user);
  });

  it('refuses an expired token', async () => {
    const u = await createUser();
    const r = await t.rpc('POST', 'user:assume', { user: u.user }, { as: boss });
    await t.db.prisma.assumeToken.updateMany({ where: { userId: u.user }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await t.rpc('GET', 'user:me', { assume: r.body.token }, { as: boss }), 401, 'INVALID_ASSUME_TOKEN');
  });

  it('refuses unknown users and tokens, and missing arguments, writing nothing', async () => {
    // An unknown user is answered as a user the caller does not manage (the guide, "Enumeration and guessing"); administrators are told.
    await refused(() => t.rpc('POST', 'user:assume', { user: 'nobody-at-all' }, { as: boss }), 403, 'MISSING_ARGUMENT', 'password');
    await refused(() => t.rpc('POST', 'user:assume', { user: 'nobody-at-all' }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('POST', 'user:assume', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'user');
    await refused(() => t.rpc('DELETE', 'user:assume', { token: 'abc.def' }, { as: boss }), 403, 'NOT_FOUND', 'token');
    await refused(() => t.rpc('DELETE', 'user:assume', {}, { as: boss }), 403, 'MISSING_ARGUMENT', 'token');
  });
});
