import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed, type CompetencyHandle, type OrganizationHandle, type UserHandle } from '../helpers/seed.ts';
import { newId } from '../../src/ids.ts';
import { contentResolver, registerContentResolver } from '../../src/services/competencies/content.ts';

let t: TestApp;
let org: OrganizationHandle;
let onboarding: CompetencyHandle;
let reader: Caller;
let plain: Caller;
let outsider: Caller;
let educator: UserHandle;
let stranger: UserHandle;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const s = seed(t);
  org = await s.admin.organization({ title: 'Library org' });
  reader = await t.newCaller('req-reader');
  await org.members([reader], { permissionMembers: 'organization' });
  plain = await t.newCaller('req-plain');
  educator = await s.user('educator', { lastName: 'Member' });
  await org.members([plain, educator]);
  stranger = await s.user('stranger', { lastName: 'Member' }); // not a member: visible to the administrator only
  outsider = await t.newCaller('req-outsider');

  const handbook = await org.document('Handbook', { prefix: 'HR' });
  const policy = await org.document('Old policy', { archived: true });
  const gone = await org.document('Gone');
  const klass = await org.class({ title: 'Onboarding day', externalId: 'CLS-1' });
  Object.assign(ids, { handbook, policy, gone, klass: klass.id });

  onboarding = await org.competency('Onboarding', { externalId: 'ONB', documents: [handbook, policy, gone] });
  await onboarding.assign({ all: true });
  await org.competency('Fire safety', { description: 'Extinguishers and exits' });
  // Written out of order: the output follows the priority.
  const requirement = onboarding.requirement;
  await requirement('todo', { priority: 8, todoType: 'document', todoAttachments: false, todoFields: ['Document number'] });
  // Requirements pointing at an exam and a class that do not exist, written directly: the service refuses them.
  const c = onboarding.id;
  await t.db.prisma.requirement.create({ data: { id: newId('Requirement'), competencyId: c, type: 'exam', priority: 0, title: 'Entry exam', contentId: 'exm_missing', deadlineType: 'days', deadlineDays: 14 } });
  await requirement('class', { priority: 1, title: 'Onboarding day', content: klass.id, description: 'Attend in person', optional: true });
  await t.db.prisma.requirement.create({ data: { id: newId('Requirement'), competencyId: c, type: 'class', priority: 2, contentId: 'cls_gone' } });
  await requirement('document', { priority: 3, content: handbook, deadlineType: 'date', deadlineDate: '2027-01-31', documents: [handbook, gone] });
  await requirement('document', { priority: 4, content: policy });
  await requirement('journey', { priority: 5, content: 'exm_start', outcomes: ['pass', 'merit'] });
  await requirement('todo', { priority: 6, todoAttachments: true });
  await requirement('todo', { priority: 7, todoType: 'training', todoAttachments: false, todoEducators: [educator.id, stranger.id], todoFields: ['Date', 'Trainer'] });
  // A deleted document reads as missing wherever it was attached.
  await t.db.prisma.libraryDocument.delete({ where: { id: gone } });
});
afterAll(async () => t?.close());

describe('GET organization:competencies', () => {
  it('lists competency records with the documented fields and JSON types', async () => {
    const r = await t.rpc('GET', 'organization:competencies', { organization: org.id });
    expect(r.status).toBe(200);
    expect(r.body.organization).toBe(org.id);
    expect(r.body.competencies).toHaveLength(2);
    const [fire, onb] = r.body.competencies;
    expect(Object.keys(onb)).toEqual(['competency', 'id', 'title', 'description', 'requirements', 'documents', 'assignments', 'assigned', 'status']);
    expect(onb).toEqual({
      competency: onboarding.id,
      id: 'ONB',
      title: 'Onboarding',
      description: null,
      requirements: 9,
      documents: 2,
      assignments: { all: true, departments: 0, members: 0 },
      assigned: 3,
      // Three members, none started, the entry exam due 14 days after joining.
      status: { completed: 0, progress: 0, waiting: 0, expired: 0, due: 3, overdue: 0, outdated: 0 },
    });
    expect(fire).toMatchObject({ id: null, title: 'Fire safety', description: 'Extinguishers and exits', requirements: 0, documents: 0, assigned: 0 });
  });

  it('answers 405 to other methods', async () => {
    const r = await t.rpc('POST', 'organization:competencies', { organization: org.id });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
  });
});

describe('GET organization:competency:requirements', () => {
  it('lists every requirement type with its fields, ordered by priority', async () => {
    const r = await t.rpc('GET', 'organization:competency:requirements', { competency: onboarding.id });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['organization', 'competency', 'id', 'title', 'requirements']);
    expect(r.body).toMatchObject({ organization: org.id, competency: onboarding.id, id: 'ONB', title: 'Onboarding' });
    const list = r.body.requirements;
    for (const req of list) expect(req.requirement).toMatch(/^req_/);
    const strip = list.map(({ requirement: _, ...rest }: any) => rest);
    expect(strip).toEqual([
      { title: 'Entry exam', type: 'exam', optional: false, deadline: { type: 'days', days: 14 }, exam: null },
      {
        title: 'Onboarding day',
        type: 'class',
        optional: true,
        description: 'Attend in person',
        class: { class: ids.klass, id: 'CLS-1', title: 'Onboarding day' },
      },
      { title: null, type: 'class', optional: false, class: null },
      {
        title: null,
        type: 'document',
        optional: false,
        deadline: { type: 'date', date: '2027-01-31' },
        documents: [ids.handbook],
        document: { document: ids.handbook, prefix: 'HR', title: 'Handbook', archived: false },
      },
      { title: null, type: 'document', optional: false, document: { document: ids.policy, prefix: null, title: 'Old policy', archived: true } },
      // Exams are not part of the service yet: the starting exam is unavailable.
      { title: null, type: 'journey', optional: false, journey: null },
      { title: null, type: 'todo', optional: false, todo: { type: 'default', attachments: true } },
      {
        title: null,
        type: 'todo',
        optional: false,
        todo: {
          type: 'training',
          attachments: false,
          educators: [
            { user: educator.id, name: 'educator Member' },
            { user: stranger.id, name: 'stranger Member' },
          ],
          fields: ['Date', 'Trainer'],
        },
      },
      { title: null, type: 'todo', optional: false, todo: { type: 'document', attachments: false, fields: ['Document number'] } },
    ]);
  });

  it('shows only the educators the caller may see', async () => {
    const r = await t.rpc('GET', 'organization:competency:requirements', { competency: onboarding.id }, { as: reader });
    expect(r.status).toBe(200);
    expect(r.body.requirements[7].todo.educators).toEqual([{ user: educator.id, name: 'educator Member' }]);
    // A member who sees no other member sees no educator, but still reads the requirements.
    const own = await t.rpc('GET', 'organization:competency:requirements', { competency: onboarding.id }, { as: plain });
    expect(own.status).toBe(200);
    expect(own.body.requirements[7].todo.educators).toEqual([]);
  });

  it('resolves exams and journeys once their module answers for them', async () => {
    const [exam, journey] = [contentResolver('exam'), contentResolver('journey')];
    registerContentResolver('exam', {
      verifies: true,
      load: async (_db, _org, wanted) => new Map(wanted.filter((id) => id === 'exm_missing').map((id) => [id, { id, externalId: 'EX-1', title: 'Entry' }])),
    });
    registerContentResolver('journey', {
      verifies: true,
      load: async (_db, _org, wanted) => new Map(wanted.map((id) => [id, { exam: id, title: 'Career path', active: true }])),
    });
    try {
      const list = (await t.rpc('GET', 'organization:competency:requirements', { competency: onboarding.id })).body.requirements;
      expect(list[0].exam).toEqual({ exam: 'exm_missing', id: 'EX-1', title: 'Entry' });
      expect(list[5].journey).toEqual({ exam: 'exm_start', title: 'Career path', active: true, outcomes: ['pass', 'merit'] });
    } finally {
      registerContentResolver('exam', exam);
      registerContentResolver('journey', journey);
    }
  });

  it('finds a competency by external identifier when the organization is given', async () => {
    const r = await t.rpc('GET', 'organization:competency:requirements', { competency: 'ONB', organization: org.id });
    expect(r.status).toBe(200);
    expect(r.body.competency).toBe(onboarding.id);
    expect(r.body.requirements).toHaveLength(9);
    const bare = await t.rpc('GET', 'organization:competency:requirements', { competency: 'ONB' });
    expect([bare.status, bare.code, bare.body.error.argument]).toEqual([403, 'NOT_FOUND', 'competency']);
    const other = await seed(t).admin.organization({ title: 'Other' });
    const elsewhere = await t.rpc('GET', 'organization:competency:requirements', { competency: onboarding.id, organization: other.id });
    expect([elsewhere.status, elsewhere.code]).toEqual([403, 'NOT_FOUND']);
    const missing = await t.rpc('GET', 'organization:competency:requirements', {});
    expect([missing.status, missing.code, missing.body.error.argument]).toEqual([403, 'MISSING_ARGUMENT', 'competency']);
  });

  it('answers callers outside the organization as for a competency of nothing', async () => {
    const r = await t.rpc('GET', 'organization:competency:requirements', { competency: onboarding.id }, { as: outsider });
    const none = await t.rpc('GET', 'organization:competency:requirements', { competency: 'cmp_nothing' }, { as: outsider });
    expect([r.status, r.code, r.body.error.argument]).toEqual([403, 'NOT_FOUND', 'competency']);
    expect(r.error!.replace(onboarding.id, 'cmp_nothing')).toBe(none.error);
  });
});

describe('features', () => {
  it('answers 406 FEATURE_DISABLED on all three endpoints when library or competencies is off', async () => {
    const calls: [string, Record<string, string>][] = [
      ['organization:competencies', { organization: org.id }],
      ['organization:competency:requirements', { competency: onboarding.id }],
      ['organization:compliance', { organization: org.id }],
    ];
    try {
      for (const off of ['library', 'competencies']) {
        await t.platform.settings.set('features', { [off]: false });
        for (const [endpoint, args] of calls) {
          const r = await t.rpc('GET', endpoint, args);
          expect([r.status, r.code], `${endpoint} without ${off}`).toEqual([406, 'FEATURE_DISABLED']);
          expect(r.error).toContain(off);
        }
      }
      // A user switch overrides the instance setting.
      await t.platform.settings.set('features', { competencies: false });
      await t.db.prisma.user.update({ where: { id: t.admin.user.id }, data: { features: { competencies: true } } });
      expect((await t.rpc('GET', 'organization:competencies', { organization: org.id })).status).toBe(200);
    } finally {
      await t.db.prisma.user.update({ where: { id: t.admin.user.id }, data: { features: {} } });
      await t.platform.settings.set('features', {});
    }
    for (const [endpoint, args] of calls) expect((await t.rpc('GET', endpoint, args)).status, endpoint).toBe(200);
  });
});
