import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, BASE_URL, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/organizations.ts';
import { seedClassCast } from '../helpers/class-seed.ts';
import { seed } from '../helpers/seed.ts';
import { gradeSubmission, startSubmission } from '../../src/services/classes/submissions.service.ts';
import { updateAssignment } from '../../src/services/classes/assignments.service.ts';

/**
 * The Classes endpoints of the contract through HTTP: the documented output fields with their JSON
 * types, who may see and manage what, membership writes (update not duplicate, expiry, active,
 * notify through the outbox), and that a refused call writes nothing.
 */

let t: TestApp;
/** Owns the organization `org`. */
let director: Caller;
/** Teacher of `org`: manages its classes. */
let teacher: Caller;
/** Plain member of `org`: manages nothing. */
let plain: Caller;
/** Knows nothing of anyone. */
let stranger: Caller;
/** Users created by `director` (so it manages them), used as members. */
let ann: Caller;
let bob: Caller;
let orgId: string;

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DAY = 86_400_000;
const fmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

beforeAll(async () => {
  t = await createTestApp();
  ({ director, teacher, plain, stranger, ann, bob, orgId } = await seedClassCast(t));
});
afterAll(async () => t?.close());

let seq = 0;
/** A class created by its owner (the director unless given) through the service GraphQL calls (the contract only reads classes). */
async function makeClass(data: { title?: string; owner?: Caller; organizationId?: string | null; externalId?: string; start?: Date; end?: Date } = {}) {
  const { owner = director, organizationId = orgId, ...rest } = data;
  return seed(t).as(owner).class({ title: `Class ${++seq}`, organization: organizationId, ...rest });
}

/** Approved memberships, expiring in `days` if given, added by the administrator (who manages every class and reads every user). */
const join = (classId: string, users: Caller[], days?: number) => seed(t).admin.classOf(classId).members(users, days === undefined ? {} : { expires: days });

/** A pending or lapsed membership, written directly: no operation leaves one unapproved or sets an expiry in the past. */
const member = (classId: string, userId: string, extra: { approved: false } | { expiresAt: Date }) =>
  t.db.prisma.classMember.create({ data: { classId, userId, ...extra } });

/** Everything a classes call could write. */
async function snapshot() {
  const p = t.db.prisma;
  return {
    members: await p.classMember.findMany({ orderBy: [{ classId: 'asc' }, { userId: 'asc' }] }),
    notifications: await p.notification.count(),
    audit: await p.auditEvent.count(),
  };
}

/** Runs a call that must be refused, checks the error and that nothing was written. */
async function refused(call: () => Promise<RpcResult>, status: number, code?: string, argument?: string) {
  const before = await snapshot();
  const r = await call();
  expectError(r, status, code, argument);
  expect(await snapshot()).toEqual(before);
  return r;
}

const rowsOf = (classId: string) => t.db.prisma.classMember.findMany({ where: { classId }, orderBy: { userId: 'asc' } });

describe('GET classes', () => {
  it('lists the classes the caller sees: owned, in organizations it teaches, or where it is an active member', async () => {
    const owned = await makeClass({ title: 'Own class', owner: stranger, organizationId: null, externalId: 'own-1' });
    const orgClass = await makeClass({ title: 'Org class' });
    const joined = await makeClass({ title: 'Joined class', organizationId: null });
    const pending = await makeClass({ title: 'Pending class', organizationId: null });
    const lapsed = await makeClass({ title: 'Lapsed class', organizationId: null });
    await join(joined.id, [plain], 1);
    await member(pending.id, plain.user.id, { approved: false });
    await member(lapsed.id, plain.user.id, { expiresAt: new Date(Date.now() - 1000) });

    const mine = await t.rpc('GET', 'classes', {}, { as: stranger });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ classes: [{ class: owned.id, id: 'own-1', title: 'Own class' }] });

    const titles = async (as: Caller) => ((await t.rpc('GET', 'classes', { limit: 1000 }, { as })).body.classes as { title: string }[]).map((c) => c.title);
    // A plain organization member sees only the class it is an active member of.
    expect(await titles(plain)).toEqual(['Joined class']);
    // Teachers and the owner of the organization see its classes; neither sees personal classes of others.
    expect(await titles(teacher)).toContain('Org class');
    expect(await titles(teacher)).not.toContain('Joined class');
    expect(await titles(director)).toEqual(expect.arrayContaining(['Org class', 'Joined class', 'Pending class', 'Lapsed class']));
    // Instance administrators see every class.
    expect(await titles(t.admin)).toEqual(expect.arrayContaining(['Own class', 'Org class', 'Joined class']));
    expect(orgClass.id).toMatch(/^cls_/);
  });

  it('pages by title with limit (default 16) and page, and ignores page in search mode', async () => {
    const pager = await t.newCaller('pager');
    for (let i = 1; i <= 18; i++) await makeClass({ title: `Page ${String(i).padStart(2, '0')}`, owner: pager, organizationId: null });
    const first = await t.rpc('GET', 'classes', {}, { as: pager });
    expect(first.body.classes).toHaveLength(16);
    expect(first.body.classes[0]).toEqual({ class: expect.stringMatching(/^cls_/), id: null, title: 'Page 01' });
    const second = await t.rpc('GET', 'classes', { limit: 5, page: 2 }, { as: pager });
    expect(second.body.classes.map((c: { title: string }) => c.title)).toEqual(['Page 06', 'Page 07', 'Page 08', 'Page 09', 'Page 10']);
    const search = await t.rpc('GET', 'classes', { search: 'page 1', limit: 3, page: 4 }, { as: pager });
    expect(search.body.classes.map((c: { title: string }) => c.title)).toEqual(['Page 10', 'Page 11', 'Page 12']);
    expectError(await t.rpc('GET', 'classes', { limit: 0 }, { as: pager }), 403, 'INVALID_ARGUMENT', 'limit');
  });
});

describe('GET class', () => {
  it('answers class, id, title, start and end as datetimes, or null when unset', async () => {
    const start = new Date('2031-02-03T04:05:06Z');
    const end = new Date('2031-06-30T18:00:00Z');
    const dated = await makeClass({ title: 'Dated', externalId: 'ext-9', start, end });
    const r = await t.rpc('GET', 'class', { class: dated.id }, { as: teacher });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ class: dated.id, id: 'ext-9', title: 'Dated', start: '2031-02-03 04:05:06', end: '2031-06-30 18:00:00' });
    expect(r.body.start).toMatch(DATETIME);
    const plainClass = await makeClass({ title: 'Undated' });
    expect((await t.rpc('GET', 'class', { class: plainClass.id }, { as: director })).body).toEqual({
      class: plainClass.id,
      id: null,
      title: 'Undated',
      start: null,
      end: null,
    });
  });

  it('refuses an unknown class (NOT_FOUND), a missing argument, and a class the caller may not see', async () => {
    expectError(await t.rpc('GET', 'class', { class: 'cls_nothing' }), 403, 'NOT_FOUND', 'class');
    expectError(await t.rpc('GET', 'class', {}), 403, 'MISSING_ARGUMENT', 'class');
    const hidden = await makeClass();
    expectError(await t.rpc('GET', 'class', { class: hidden.id }, { as: stranger }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'class', { class: hidden.id }, { as: plain }), 403, 'NOT_FOUND');
  });
});

describe('GET class:assignments', () => {
  it('lists assignments by start with link, datetimes and the status for the caller', async () => {
    const cls = await makeClass({ title: 'Assignments' });
    await join(cls.id, [ann, bob]);
    const now = Date.now();
    const at = (days: number) => new Date(Math.floor((now + days * DAY) / 1000) * 1000);
    const make = async (title: string, starts: Date, ends: Date, active = true) => ({ id: await cls.assignment({ title, starts, ends, active }), starts, ends });
    const open = await make('Open', at(-10), at(10));
    const off = await make('Switched off', at(-9), at(10), false);
    const future = await make('Future', at(5), at(10));
    const over = await make('Over', at(-30), at(-20));
    const started = await make('Started', at(-8), at(10));
    const submitted = await make('Submitted', at(-7), at(10));
    // Graded while open, then ended yesterday: work is handed in and graded only while an assignment is open.
    const graded = await make('Graded after the end', at(-40), at(10));
    await startSubmission(await seed(t).as(ann).ctx(), { assignment: started.id });
    for (const assignment of [submitted.id, graded.id]) await seed(t).as(ann).submit(assignment);
    const asDirector = await seed(t).as(director).ctx();
    await gradeSubmission(asDirector, { assignment: graded.id, user: ann.user.id, grade: 'A' });
    await updateAssignment(asDirector, { assignment: graded.id, ends: at(-1) });

    const r = await t.rpc('GET', 'class:assignments', { class: cls.id }, { as: ann });
    expect(r.status).toBe(200);
    expect(r.body.assignments.map((a: { title: string }) => a.title)).toEqual([
      'Graded after the end',
      'Over',
      'Open',
      'Switched off',
      'Started',
      'Submitted',
      'Future',
    ]);
    const byId = new Map(r.body.assignments.map((a: { assignment: string }) => [a.assignment, a]));
    expect(byId.get(open.id)).toEqual({
      assignment: open.id,
      title: 'Open',
      link: `${BASE_URL}/classes/${cls.id}/assignments/${open.id}`,
      status: 'ACTIVE',
      starts: fmt(open.starts),
      ends: fmt(open.ends),
    });
    const status = (body: { assignments: { assignment: string; status: string }[] }) =>
      Object.fromEntries(body.assignments.map((a) => [a.assignment, a.status]));
    expect(status(r.body)).toEqual({
      [open.id]: 'ACTIVE',
      [off.id]: 'INACTIVE',
      [future.id]: 'INACTIVE',
      [over.id]: 'INACTIVE',
      [started.id]: 'STARTED',
      [submitted.id]: 'SUBMITTED',
      [graded.id]: 'GRADED',
    });
    // The status is the caller's: bob has no submissions, and neither has the teacher.
    for (const as of [bob, teacher]) {
      expect(status((await t.rpc('GET', 'class:assignments', { class: cls.id }, { as })).body)).toEqual({
        [open.id]: 'ACTIVE',
        [off.id]: 'INACTIVE',
        [future.id]: 'INACTIVE',
        [over.id]: 'INACTIVE',
        [started.id]: 'ACTIVE',
        [submitted.id]: 'ACTIVE',
        [graded.id]: 'INACTIVE',
      });
    }
    expect(r.body.assignments[0].starts).toMatch(DATETIME);
  });

  it('answers an empty list for a class without assignments and refuses callers who may not see the class', async () => {
    const cls = await makeClass();
    expect((await t.rpc('GET', 'class:assignments', { class: cls.id }, { as: teacher })).body).toEqual({ assignments: [] });
    expectError(await t.rpc('GET', 'class:assignments', { class: cls.id }, { as: stranger }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'class:assignments', { class: 'cls_unknown' }), 403, 'NOT_FOUND', 'class');
  });
});

describe('GET class:members', () => {
  it('lists members by name with active true only for approved, unexpired memberships', async () => {
    const cls = await makeClass();
    const carl = await t.newCaller('carlmember', { createdBy: director });
    await join(cls.id, [ann], 1);
    await member(cls.id, bob.user.id, { approved: false });
    await member(cls.id, carl.user.id, { expiresAt: new Date(Date.now() - 60_000) });
    const r = await t.rpc('GET', 'class:members', { class: cls.id }, { as: teacher });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      members: [
        { user: ann.user.id, name: 'annmember Tester', active: true },
        { user: bob.user.id, name: 'bobmember Tester', active: false },
        { user: carl.user.id, name: 'carlmember Tester', active: false },
      ],
    });
    // A member who does not manage the class sees only its own membership; others see nothing.
    expect((await t.rpc('GET', 'class:members', { class: cls.id }, { as: ann })).body).toEqual({
      members: [{ user: ann.user.id, name: 'annmember Tester', active: true }],
    });
    expectError(await t.rpc('GET', 'class:members', { class: cls.id }, { as: plain }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'class:members', { class: cls.id }, { as: bob }), 403, 'NOT_FOUND');
  });
});

describe('POST class:members', () => {
  it('adds members, approved and without expiry by default, and answers what it changed', async () => {
    const cls = await makeClass();
    const r = await t.rpc('POST', 'class:members', { class: cls.id, users: `${ann.user.id}, ${bob.user.id}` }, { as: teacher });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ classes: [cls.id], users: [ann.user.id, bob.user.id], success: true });
    const rows = await rowsOf(cls.id);
    expect(rows.map((m) => [m.userId, m.approved, m.expiresAt])).toEqual(
      [ann.user.id, bob.user.id].sort().map((id) => [id, true, null]),
    );
    expect(await t.db.prisma.notification.count({ where: { userId: { in: [ann.user.id, bob.user.id] } } })).toBe(0);
    const members = (await t.rpc('GET', 'class:members', { class: cls.id }, { as: teacher })).body.members;
    expect(members.map((m: { active: boolean }) => m.active)).toEqual([true, true]);
  });

  it('updates an existing membership instead of duplicating it: a new expiry replaces the old, none removes it', async () => {
    const cls = await makeClass();
    await t.rpc('POST', 'class:members', { class: cls.id, users: ann.user.id, expires: 3 }, { as: teacher });
    let rows = await rowsOf(cls.id);
    expect(rows).toHaveLength(1);
    expect(Math.abs(rows[0]!.expiresAt!.getTime() - (Date.now() + 3 * DAY))).toBeLessThan(60_000);

    const until = new Date(Math.floor(Date.now() / 1000) * 1000 + 40 * DAY);
    const again = await t.rpc('POST', 'class:members', { class: cls.id, users: ann.user.id, expires: fmt(until) }, { as: teacher });
    expect(again.status).toBe(200);
    rows = await rowsOf(cls.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expiresAt).toEqual(until);

    await t.rpc('POST', 'class:members', { class: cls.id, users: ann.user.id }, { as: teacher });
    rows = await rowsOf(cls.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expiresAt).toBeNull();
  });

  it('approves a pending membership and revives an expired one', async () => {
    const cls = await makeClass();
    await member(cls.id, ann.user.id, { approved: false });
    await member(cls.id, bob.user.id, { expiresAt: new Date(Date.now() - DAY) });
    await t.rpc('POST', 'class:members', { class: cls.id, users: [ann.user.id, bob.user.id].join(','), expires: 1 }, { as: director });
    const members = (await t.rpc('GET', 'class:members', { class: cls.id }, { as: director })).body.members;
    expect(members).toEqual([
      { user: ann.user.id, name: 'annmember Tester', active: true },
      { user: bob.user.id, name: 'bobmember Tester', active: true },
    ]);
  });

  it('accepts expires as whole days from 1 or a future datetime, and refuses anything else writing nothing', async () => {
    const cls = await makeClass();
    const call = (expires: unknown) => () => t.rpc('POST', 'class:members', { class: cls.id, users: ann.user.id, expires }, { as: teacher });
    for (const bad of ['0', '-2', 'soon', '2030-01-01', '1.5']) await refused(call(bad), 403, 'INVALID_ARGUMENT', 'expires');
    await refused(call(fmt(new Date(Date.now() - 60_000))), 403, 'INVALID_ARGUMENT', 'expires');
    expect((await call('1')()).status).toBe(200);
    // JSON bodies carry native numbers.
    const json = await t.rpc('POST', 'class:members', { class: cls.id, users: [ann.user.id], expires: 2 }, { as: teacher, encoding: 'json' });
    expect(json.status).toBe(200);
    const [row] = await rowsOf(cls.id);
    expect(Math.abs(row!.expiresAt!.getTime() - (Date.now() + 2 * DAY))).toBeLessThan(60_000);
  });

  it('with notify=true puts one message per member in the outbox: email, or SMS for a user with only a phone', async () => {
    const cls = await makeClass({ title: 'Notified class' });
    const phoneOnly = await t.newCaller('phoneonly', { createdBy: director });
    await t.db.prisma.user.update({ where: { id: phoneOnly.user.id }, data: { email: '', phone: '+44 7700 900123' } });
    await seed(t).as(director).addMembers(orgId, [phoneOnly]);
    const r = await t.rpc(
      'POST',
      'class:members',
      { class: cls.id, users: `${ann.user.id},${phoneOnly.user.id}`, notify: 'true', expires: 7 },
      { as: teacher, encoding: 'multipart' },
    );
    expect(r.status).toBe(200);
    const sent = await t.db.prisma.notification.findMany({ where: { subject: 'You are a member of Notified class' }, orderBy: { channel: 'asc' } });
    expect(sent.map((n) => [n.channel, n.recipient, n.userId, n.status])).toEqual([
      ['email', 'annmember@example.com', ann.user.id, 'pending'],
      ['sms', '+44 7700 900123', phoneOnly.user.id, 'pending'],
    ]);
    expect(sent[0]!.body).toContain(`${BASE_URL}/classes/${cls.id}`);
    expect(sent[0]!.body).toMatch(/until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  });

  it('refuses an unknown user naming users, and writes nothing (no membership, no message)', async () => {
    const cls = await makeClass();
    const r = await refused(
      () => t.rpc('POST', 'class:members', { class: cls.id, users: `${ann.user.id},usr_nobody`, notify: true }, { as: teacher }),
      403,
      'NOT_FOUND',
      'users',
    );
    expect(r.error).toContain('usr_nobody');
    expect(await rowsOf(cls.id)).toEqual([]);
    await refused(() => t.rpc('POST', 'class:members', { class: 'cls_nothing', users: ann.user.id }), 403, 'NOT_FOUND', 'class');
    await refused(() => t.rpc('POST', 'class:members', { class: cls.id }), 403, 'MISSING_ARGUMENT', 'users');
    await refused(() => t.rpc('POST', 'class:members', { class: cls.id, users: ' , ' }), 403, 'INVALID_ARGUMENT', 'users');
    await refused(() => t.rpc('POST', 'class:members', { class: cls.id, users: ann.user.id, notify: 'maybe' }), 403, 'INVALID_ARGUMENT', 'notify');
  });

  it('lets the class owner, instance administrators, and the organization owner and teachers manage members; nobody else', async () => {
    const personal = await makeClass({ owner: plain, organizationId: null });
    const orgClass = await makeClass({ owner: director });
    const add = (classId: string, as: Caller, user = bob.user.id) => t.rpc('POST', 'class:members', { class: classId, users: user }, { as });
    // The owner of a personal class enrols users it may read (here itself); bob is unknown to it.
    expect((await add(personal.id, plain, plain.user.id)).status).toBe(200);
    await refused(() => add(personal.id, plain), 403, 'NOT_FOUND', 'users');
    expect((await add(orgClass.id, director)).status).toBe(200);
    expect((await add(orgClass.id, teacher)).status).toBe(200);
    const byAdmin = await add(personal.id, t.admin);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    await refused(() => add(personal.id, teacher), 403, 'NOT_FOUND');
    await refused(() => add(orgClass.id, plain), 403, 'NOT_FOUND');
    await refused(() => add(orgClass.id, stranger), 403, 'NOT_FOUND');
    // Being a member of a class is not managing it.
    await join(orgClass.id, [ann]);
    await refused(() => add(orgClass.id, ann), 403, 'PERMISSION_DENIED');
    // A reporter ranks above a teacher, so it manages the organization's classes too.
    const reporter = await t.newCaller('reporter');
    await seed(t).admin.addMembers(orgId, [reporter], { permissionOrganization: 'reporter' });
    expect((await add(orgClass.id, reporter)).status).toBe(200);
  });
});

describe('DELETE class:members', () => {
  it('removes the listed members, ignores users who are not members, and refuses unknown users writing nothing', async () => {
    const cls = await makeClass();
    await join(cls.id, [ann, bob]);
    await refused(() => t.rpc('DELETE', 'class:members', { class: cls.id, users: `${ann.user.id},usr_ghost` }, { as: teacher }), 403, 'NOT_FOUND', 'users');
    await refused(() => t.rpc('DELETE', 'class:members', { class: cls.id, users: ann.user.id }, { as: plain }), 403, 'NOT_FOUND');
    const r = await t.rpc('DELETE', 'class:members', { class: cls.id, users: `${ann.user.id},${teacher.user.id}` }, { as: teacher });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ classes: [cls.id], users: [ann.user.id, teacher.user.id], success: true });
    expect((await rowsOf(cls.id)).map((m) => m.userId)).toEqual([bob.user.id]);
  });
});

describe('POST classes:members', () => {
  it('adds every user to every class, updating existing memberships, with expiry and notify', async () => {
    const a = await makeClass({ title: 'Multi A' });
    const b = await makeClass({ title: 'Multi B' });
    await member(a.id, ann.user.id, { approved: false });
    const r = await t.rpc('POST', 'classes:members', { classes: `${a.id},${b.id}`, users: `${ann.user.id},${bob.user.id}`, expires: 10, notify: true }, { as: teacher });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ classes: [a.id, b.id], users: [ann.user.id, bob.user.id], success: true });
    for (const cls of [a, b]) {
      const rows = await rowsOf(cls.id);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.approved).toBe(true);
        expect(Math.abs(row.expiresAt!.getTime() - (Date.now() + 10 * DAY))).toBeLessThan(60_000);
      }
    }
    expect(await t.db.prisma.notification.count({ where: { subject: { in: ['You are a member of Multi A', 'You are a member of Multi B'] } } })).toBe(4);
  });

  it('writes nothing when one class is unknown or not managed by the caller', async () => {
    const mine = await makeClass();
    const foreign = await makeClass({ owner: stranger, organizationId: null });
    await refused(
      () => t.rpc('POST', 'classes:members', { classes: `${mine.id},cls_missing`, users: ann.user.id, notify: true }, { as: teacher }),
      403,
      'NOT_FOUND',
      'classes',
    );
    await refused(
      () => t.rpc('POST', 'classes:members', { classes: `${mine.id},${foreign.id}`, users: ann.user.id, notify: true }, { as: teacher }),
      403,
      'NOT_FOUND',
    );
    await refused(() => t.rpc('POST', 'classes:members', { classes: mine.id, users: 'usr_missing' }, { as: teacher }), 403, 'NOT_FOUND', 'users');
    await refused(() => t.rpc('POST', 'classes:members', { users: ann.user.id }, { as: teacher }), 403, 'MISSING_ARGUMENT', 'classes');
  });
});

describe('user:classes', () => {
  it("GET lists the user's memberships the caller may see, with link and active", async () => {
    const seen = await makeClass({ title: 'Seen by the director', externalId: 'seen' });
    const hidden = await makeClass({ title: 'Not the director’s', owner: stranger, organizationId: null });
    const dave = await t.newCaller('davemember', { createdBy: director });
    await member(seen.id, dave.user.id, { approved: false });
    await join(hidden.id, [dave]);
    const r = await t.rpc('GET', 'user:classes', { user: dave.user.id }, { as: director });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      classes: [{ class: seen.id, id: 'seen', title: 'Seen by the director', link: `${BASE_URL}/classes/${seen.id}`, active: false }],
    });
    // The user sees all its own memberships.
    const own = await t.rpc('GET', 'user:classes', { user: 'me' }, { as: dave });
    expect(own.body.classes.map((c: { class: string; active: boolean }) => [c.class, c.active])).toEqual([
      [hidden.id, true],
      [seen.id, false],
    ]);
    // Reading needs the user read rule: its manager, itself, or an administrator; to anyone else the user is unknown.
    expectError(await t.rpc('GET', 'user:classes', { user: dave.user.id }, { as: teacher }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:classes', { user: 'usr_none' }, { as: director }), 403, 'NOT_FOUND', 'user');
    expect((await t.rpc('GET', 'user:classes', { user: dave.user.id }, { as: t.admin })).body.classes).toHaveLength(2);
  });

  it('POST adds the user to classes (updating existing memberships) when the caller manages the user and every class', async () => {
    const a = await makeClass();
    const b = await makeClass();
    await join(a.id, [ann], 1);
    const r = await t.rpc('POST', 'user:classes', { user: ann.user.id, classes: `${a.id},${b.id}`, expires: 5, notify: true }, { as: director });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ classes: [a.id, b.id], users: [ann.user.id], success: true });
    for (const cls of [a, b]) {
      const rows = await rowsOf(cls.id);
      expect(rows).toHaveLength(1);
      expect(Math.abs(rows[0]!.expiresAt!.getTime() - (Date.now() + 5 * DAY))).toBeLessThan(60_000);
    }
    const got = (await t.rpc('GET', 'user:classes', { user: ann.user.id }, { as: director })).body.classes;
    expect(got.filter((c: { class: string }) => [a.id, b.id].includes(c.class)).map((c: { active: boolean }) => c.active)).toEqual([true, true]);
  });

  it('POST and DELETE refuse, writing nothing, without managing the user or every class', async () => {
    const cls = await makeClass();
    // The teacher manages the class but did not create ann: to it, ann is unknown.
    await refused(() => t.rpc('POST', 'user:classes', { user: ann.user.id, classes: cls.id }, { as: teacher }), 403, 'NOT_FOUND', 'user');
    // Reading oneself is not managing oneself.
    await refused(() => t.rpc('POST', 'user:classes', { user: 'me', classes: cls.id }, { as: teacher }), 403, 'PERMISSION_DENIED');
    const foreign = await makeClass({ owner: stranger, organizationId: null });
    await refused(() => t.rpc('POST', 'user:classes', { user: ann.user.id, classes: `${cls.id},${foreign.id}` }, { as: director }), 403, 'NOT_FOUND');
    await refused(() => t.rpc('POST', 'user:classes', { user: ann.user.id, classes: `${cls.id},cls_gone` }, { as: director }), 403, 'NOT_FOUND', 'classes');
    await refused(() => t.rpc('POST', 'user:classes', { user: 'usr_gone', classes: cls.id }, { as: director }), 403, 'NOT_FOUND', 'user');
    await refused(() => t.rpc('POST', 'user:classes', { user: ann.user.id, classes: cls.id, expires: '2000-01-01 00:00:00' }, { as: director }), 403, 'INVALID_ARGUMENT', 'expires');
    await join(cls.id, [ann]);
    await refused(() => t.rpc('DELETE', 'user:classes', { user: ann.user.id, classes: cls.id }, { as: teacher }), 403, 'NOT_FOUND', 'user');
  });

  it('DELETE removes the user from the listed classes only', async () => {
    const a = await makeClass();
    const b = await makeClass();
    await join(a.id, [bob]);
    await join(b.id, [bob]);
    const r = await t.rpc('DELETE', 'user:classes', { user: bob.user.id, classes: a.id }, { as: director });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ classes: [a.id], users: [bob.user.id], success: true });
    expect(await rowsOf(a.id)).toEqual([]);
    expect(await rowsOf(b.id)).toHaveLength(1);
  });
});

describe('methods', () => {
  it('answers 405 with Allow for methods the class endpoints do not support', async () => {
    const r = await t.rpc('PATCH', 'class:members');
    expectError(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET, POST, DELETE');
    expect((await t.rpc('GET', 'classes:members')).headers.get('allow')).toBe('POST');
  });
});
