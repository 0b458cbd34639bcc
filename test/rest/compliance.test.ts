import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { daysAgo, seeder, utcDay } from '../helpers/competency-seed.ts';
import { seed } from '../helpers/seed.ts';
import type { Organization, User } from '../../src/generated/prisma/client.ts';

let t: TestApp;
let org: Organization;
let reporter: Caller;
let reporter2: Caller;
let leader: Caller;
let plain: Caller;
let outsider: Caller;

const zero = { completed: 0, progress: 0, waiting: 0, expired: 0, due: 0, overdue: 0, outdated: 0 };
const counts = (status: Partial<typeof zero>) => ({ ...zero, ...status });

/**
 * One organization whose assignments cover every counter, every assignment channel and the
 * boundaries of the definitions (the competency status counters). It is written directly: the
 * counters turn on dates in the past (joining, direct assignment, a requirement's change, a
 * competency's creation) that the services stamp with the time of the call.
 */
beforeAll(async () => {
  t = await createTestApp();
  const seed = seeder(t);
  org = await seed.organization('Counters');
  const ops = await seed.department(org, 'Ops', { externalId: 'OPS-1' });
  const field = await seed.department(org, 'Field', { parent: ops });
  const sales = await seed.department(org, 'Sales');
  await seed.department(org, 'Empty');

  const users = async <const N extends string[]>(names: N, department: typeof ops | null = null, joined?: Date) => {
    const out: User[] = [];
    for (const name of names) {
      const user = await seed.user(name);
      await seed.member(org, user, { department, joined });
      out.push(user);
    }
    return out as { [K in keyof N]: User };
  };
  const [sc, sv, se, so, sw, sov, sd, sp, x] = await users(['sc', 'sv', 'se', 'so', 'sw', 'sov', 'sd', 'sp', 'x']);
  const [o1, o2] = await users(['o1', 'o2'], ops);
  await users(['f1'], field);
  const [s1] = await users(['s1'], sales, daysAgo(40));
  const [s2] = await users(['s2'], sales, daysAgo(1));

  reporter = await t.newCaller('cmp-reporter');
  await seed.member(org, reporter.user, { role: 'reporter', members: 'organization' });
  reporter2 = await t.newCaller('cmp-reporter2');
  await seed.member(org, reporter2.user, { role: 'reporter', members: 'department', department: field });
  leader = await t.newCaller('cmp-leader');
  await seed.member(org, leader.user);
  await seed.leader(ops, leader.user);
  plain = await t.newCaller('cmp-plain');
  await seed.member(org, plain.user);
  outsider = await t.newCaller('cmp-outsider');

  // Safety: every counter among directly assigned members. R1 expires after 365 days and is due
  // 10 days after the assignment; R2 changed 5 days ago; R3 is optional and never done.
  const safety = await seed.competency(org, 'Safety', {
    description: 'Site safety',
    createdAt: daysAgo(600),
    direct: [
      { user: sc, at: daysAgo(50) },
      { user: sv, at: daysAgo(400) },
      { user: se, at: daysAgo(500) },
      { user: so, at: daysAgo(50) },
      { user: sw, at: daysAgo(50) },
      { user: sov, at: daysAgo(20) },
      { user: sd, at: daysAgo(1) },
      { user: sp, at: daysAgo(50) },
    ],
  });
  const r1 = await seed.requirement(safety.id, 'todo', { validityDays: 365, deadlineType: 'days', deadlineDays: 10, changedAt: daysAgo(1000), priority: 0 });
  const r2 = await seed.requirement(safety.id, 'todo', { changedAt: daysAgo(5), priority: 1 });
  await seed.requirement(safety.id, 'todo', { optional: true, priority: 2 });
  await progress(r1.id, sc, 'completed', daysAgo(10));
  await progress(r2.id, sc, 'completed', daysAgo(1));
  await progress(r1.id, sv, 'completed', daysAgo(364)); // one day short of expiry
  await progress(r2.id, sv, 'completed', daysAgo(1));
  await progress(r1.id, se, 'completed', daysAgo(400)); // expired, although its deadline passed long ago
  await progress(r2.id, se, 'completed', daysAgo(1));
  await progress(r1.id, so, 'completed', daysAgo(10));
  await progress(r2.id, so, 'completed', daysAgo(6)); // before R2 changed
  await progress(r1.id, sw, 'waiting'); // past its deadline, but waiting for review
  await progress(r2.id, sw, 'completed', daysAgo(1));
  await progress(r2.id, sov, 'progress'); // R1 not started, 10 days after its deadline
  await progress(r1.id, sp, 'completed', daysAgo(10));
  await progress(r2.id, sp, 'progress');

  // Hygiene through the Ops department only (not Field below it); its date deadline is 60 days away.
  const hygiene = await seed.competency(org, 'Hygiene', { departments: [ops] });
  const r4 = await seed.requirement(hygiene.id, 'class', { deadlineType: 'date', deadlineDate: utcDay(60) });
  await progress(r4.id, o2, 'progress');

  // Date deadlines last to the end of their day (UTC).
  const today = await seed.competency(org, 'Due today', { direct: [{ user: x }] });
  await seed.requirement(today.id, 'document', { deadlineType: 'date', deadlineDate: utcDay(0) });
  const yesterday = await seed.competency(org, 'Due yesterday', { direct: [{ user: x }] });
  await seed.requirement(yesterday.id, 'document', { deadlineType: 'date', deadlineDate: utcDay(-1) });
  const optionalOnly = await seed.competency(org, 'Optional only', { direct: [{ user: x }] });
  await seed.requirement(optionalOnly.id, 'todo', { optional: true });

  // Department assignments date from the later of joining and the competency's creation; a
  // direct assignment that is earlier wins, and a member assigned twice counts once.
  const fresh = await seed.competency(org, 'Fresh', { createdAt: daysAgo(2), departments: [sales], direct: [{ user: s2, at: daysAgo(30) }] });
  await seed.requirement(fresh.id, 'todo', { deadlineType: 'days', deadlineDays: 10 });
  const old = await seed.competency(org, 'Old', { createdAt: daysAgo(40), departments: [sales] });
  await seed.requirement(old.id, 'todo', { deadlineType: 'days', deadlineDays: 10 });

  const conduct = await seed.competency(org, 'Code of conduct', { assignAll: true });
  const r9 = await seed.requirement(conduct.id, 'todo');
  await progress(r9.id, o1, 'completed');
  await seed.competency(org, 'Nobody');

  // Another organization's assignments and progress of the same people count nowhere here.
  const other = await seed.organization('Other');
  await seed.member(other, o1);
  const elsewhere = await seed.competency(other, 'Elsewhere', { assignAll: true });
  await progress((await seed.requirement(elsewhere.id, 'todo')).id, o1, 'waiting');
});
afterAll(async () => t?.close());

/** Progress through the service, recorded by the administrator: a reviewer of every member, who may date a completion. */
const progress = (requirement: string, user: User, status: string, completedAt?: Date) =>
  seed(t).admin.progress(requirement, { user }, status, completedAt ? { completedAt } : {});

const byTitle = (list: any[]) => Object.fromEntries(list.map((c) => [c.title, c]));

describe('competency status counters (GET organization:competencies)', () => {
  it('gives each assignment exactly one status, from real progress rows', async () => {
    const r = await t.rpc('GET', 'organization:competencies', { organization: org.id });
    expect(r.status).toBe(200);
    const c = byTitle(r.body.competencies);
    expect(r.body.competencies.map((x: any) => x.title)).toEqual([
      'Code of conduct', 'Due today', 'Due yesterday', 'Fresh', 'Hygiene', 'Nobody', 'Old', 'Optional only', 'Safety',
    ]);
    expect(c.Safety.assigned).toBe(8);
    expect(c.Safety.status).toEqual({ completed: 2, progress: 1, waiting: 1, expired: 1, due: 1, overdue: 1, outdated: 1 });
    expect(c['Code of conduct'].assigned).toBe(18);
    expect(c['Code of conduct'].status).toEqual(counts({ completed: 1 }));
    expect(c.Hygiene.assigned).toBe(2);
    expect(c.Hygiene.status).toEqual(counts({ progress: 1 }));
    expect(c['Due today'].status).toEqual(counts({ due: 1 }));
    expect(c['Due yesterday'].status).toEqual(counts({ overdue: 1 }));
    expect(c['Optional only'].status).toEqual(counts({ completed: 1 }));
    expect(c.Fresh.assigned).toBe(2);
    expect(c.Fresh.status).toEqual(counts({ due: 1, overdue: 1 }));
    expect(c.Old.assigned).toBe(2);
    expect(c.Old.status).toEqual(counts({ due: 1, overdue: 1 }));
    expect(c.Nobody.assigned).toBe(0);
    expect(c.Nobody.status).toEqual(zero);
  });

  it('counts assignment channels as configured', async () => {
    const c = byTitle((await t.rpc('GET', 'organization:competencies', { organization: org.id })).body.competencies);
    expect(c['Code of conduct'].assignments).toEqual({ all: true, departments: 0, members: 0 });
    expect(c.Hygiene.assignments).toEqual({ all: false, departments: 1, members: 0 });
    expect(c.Fresh.assignments).toEqual({ all: false, departments: 1, members: 1 });
    expect(c.Safety.assignments).toEqual({ all: false, departments: 0, members: 8 });
  });

  it('counts only the members of led departments for a department leader', async () => {
    const r = await t.rpc('GET', 'organization:competencies', { organization: org.id }, { as: leader });
    expect(r.status).toBe(200);
    const c = byTitle(r.body.competencies);
    expect(r.body.competencies).toHaveLength(9);
    expect(c['Code of conduct'].assigned).toBe(4);
    expect(c['Code of conduct'].status).toEqual(counts({ completed: 1 }));
    expect(c.Hygiene.assigned).toBe(2);
    expect(c.Safety.assigned).toBe(0);
    expect(c.Safety.status).toEqual(zero);
  });

  it('counts the visible members of a reporter', async () => {
    const all = await t.rpc('GET', 'organization:competencies', { organization: org.id }, { as: reporter });
    expect(byTitle(all.body.competencies).Safety.status).toEqual({ completed: 2, progress: 1, waiting: 1, expired: 1, due: 1, overdue: 1, outdated: 1 });
    // A reporter who sees its own department (Field) only.
    const own = byTitle((await t.rpc('GET', 'organization:competencies', { organization: org.id }, { as: reporter2 })).body.competencies);
    expect(own['Code of conduct'].assigned).toBe(2);
    expect(own.Safety.assigned).toBe(0);
  });
});

describe('GET organization:compliance', () => {
  const everything = {
    scope: 'organization',
    competencies: ['Code of conduct', 'Due today', 'Due yesterday', 'Fresh', 'Hygiene', 'Old', 'Optional only', 'Safety'],
    assigned: 35,
    status: { completed: 4, progress: 2, waiting: 1, expired: 1, due: 4, overdue: 4, outdated: 1 },
  };

  it('reports every visible member to an organization reporter, departments in hierarchy order', async () => {
    for (const as of [t.admin, reporter]) {
      const r = await t.rpc('GET', 'organization:compliance', { organization: org.id }, { as });
      expect(r.status).toBe(200);
      const body = r.body;
      expect(Object.keys(body)).toEqual(['organization', 'scope', 'competencies', 'departments', 'assigned', 'status']);
      expect(body.organization).toBe(org.id);
      expect(body.scope).toBe(everything.scope);
      expect(body.competencies.map((c: any) => c.title)).toEqual(everything.competencies);
      expect(body.competencies[0]).toEqual({ competency: expect.stringMatching(/^cmp_/), id: null, title: 'Code of conduct' });
      expect(body.assigned).toBe(everything.assigned);
      expect(body.status).toEqual(everything.status);
      // Empty has no member and is left out; members without a department come last.
      expect(body.departments.map((d: any) => [d.department, d.id, d.parent, d.level, d.members])).toEqual([
        ['Ops', 'OPS-1', null, 0, 2],
        ['Field', null, 'Ops', 1, 2],
        ['Sales', null, null, 0, 2],
        [null, null, null, 0, 12],
      ]);
      const titles = new Map(body.competencies.map((c: any) => [c.competency, c.title]));
      const named = (d: any) => d.competencies.map((c: any) => ({ ...c, competency: titles.get(c.competency) }));
      expect(named(body.departments[0])).toEqual([
        { competency: 'Code of conduct', assigned: 2, status: counts({ completed: 1 }) },
        { competency: 'Hygiene', assigned: 2, status: counts({ progress: 1 }) },
      ]);
      expect(named(body.departments[1])).toEqual([{ competency: 'Code of conduct', assigned: 2, status: zero }]);
      expect(named(body.departments[2])).toEqual([
        { competency: 'Code of conduct', assigned: 2, status: zero },
        { competency: 'Fresh', assigned: 2, status: counts({ due: 1, overdue: 1 }) },
        { competency: 'Old', assigned: 2, status: counts({ due: 1, overdue: 1 }) },
      ]);
      expect(named(body.departments[3]).map((c: any) => [c.competency, c.assigned])).toEqual([
        ['Code of conduct', 12],
        ['Due today', 1],
        ['Due yesterday', 1],
        ['Optional only', 1],
        ['Safety', 8],
      ]);
    }
  });

  it('the totals are the sums of the departments', async () => {
    const body = (await t.rpc('GET', 'organization:compliance', { organization: org.id })).body;
    const rows = body.departments.flatMap((d: any) => d.competencies);
    expect(rows.reduce((n: number, c: any) => n + c.assigned, 0)).toBe(body.assigned);
    for (const key of Object.keys(zero)) expect(rows.reduce((n: number, c: any) => n + c.status[key], 0), key).toBe(body.status[key]);
  });

  it('shows a department leader only the led departments (scope departments)', async () => {
    const r = await t.rpc('GET', 'organization:compliance', { organization: org.id }, { as: leader });
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('departments');
    expect(r.body.competencies.map((c: any) => c.title)).toEqual(['Code of conduct', 'Hygiene']);
    expect(r.body.departments.map((d: any) => [d.department, d.parent, d.level, d.members])).toEqual([
      ['Ops', null, 0, 2],
      ['Field', 'Ops', 1, 2],
    ]);
    expect(r.body.assigned).toBe(6);
    expect(r.body.status).toEqual(counts({ completed: 1, progress: 1 }));
  });

  it('limits a reporter to the members it sees', async () => {
    const r = await t.rpc('GET', 'organization:compliance', { organization: org.id }, { as: reporter2 });
    expect(r.body.scope).toBe('organization');
    expect(r.body.competencies.map((c: any) => c.title)).toEqual(['Code of conduct']);
    expect(r.body.departments).toEqual([
      { department: 'Field', id: null, parent: 'Ops', level: 1, members: 2, competencies: [{ competency: r.body.competencies[0].competency, assigned: 2, status: zero }] },
    ]);
    expect(r.body.assigned).toBe(2);
  });

  it('refuses members who neither report nor lead; to outsiders the organization is unknown', async () => {
    for (const [as, code] of [[plain, 'PERMISSION_DENIED'], [outsider, 'NOT_FOUND']] as const) {
      for (const endpoint of ['organization:compliance', 'organization:competencies']) {
        const r = await t.rpc('GET', endpoint, { organization: org.id }, { as });
        expect(r.status, endpoint).toBe(403);
        expect(r.code).toBe(code);
      }
    }
  });

  it('names a missing or unknown organization', async () => {
    const missing = await t.rpc('GET', 'organization:compliance', {});
    expect([missing.status, missing.code, missing.body.error.argument]).toEqual([403, 'MISSING_ARGUMENT', 'organization']);
    const unknown = await t.rpc('GET', 'organization:compliance', { organization: 'org_nothing' });
    expect([unknown.status, unknown.code, unknown.body.error.argument]).toEqual([403, 'NOT_FOUND', 'organization']);
  });

  it('counts progress recorded later at once, and never an assignment twice', async () => {
    const before = (await t.rpc('GET', 'organization:compliance', { organization: org.id })).body;
    const f1 = await t.db.prisma.user.findFirstOrThrow({ where: { firstName: 'f1' } });
    const conduct = await t.db.prisma.competency.findFirstOrThrow({ where: { organizationId: org.id, title: 'Code of conduct' }, include: { requirements: true } });
    // Recorded by the administrator, a reviewer of every member, and withdrawn the same way.
    const requirement = conduct.requirements[0]!.id;
    await progress(requirement, f1, 'waiting');
    const after = (await t.rpc('GET', 'organization:compliance', { organization: org.id })).body;
    expect(after.assigned).toBe(before.assigned);
    expect(after.status.waiting).toBe(before.status.waiting + 1);
    await progress(requirement, f1, 'none');
    expect(await t.db.prisma.requirementProgress.count({ where: { userId: f1.id } })).toBe(0);
  });
});
