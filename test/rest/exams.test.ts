import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { addMember, newOrganization, newQuiz, ok } from '../helpers/quiz-seed.ts';
import { END, START, examRule, newExam, newPlay, refused } from '../helpers/exam-seed.ts';
import { clock } from '../../src/services/exams/clock.ts';
import { newId } from '../../src/ids.ts';
import { operations } from '../../src/rest/operations.ts';
import { routes } from '../../src/rest/routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
afterEach(() => clock.fix(null));

const row = (id: string) => t.db.prisma.exam.findUnique({ where: { id } });
const at = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

describe('POST exam and GET exam', () => {
  it('creates an exam owned by the caller with the documented defaults and reads the record with native types', async () => {
    const me = await t.newCaller('create-defaults');
    const quiz = await newQuiz(t, me, { title: 'Quiz', language: 'de' });
    const exam = await newExam(t, me, { quiz, title: 'Finals' });
    clock.fix(at('2029-12-31 00:00:00'));
    const body = await ok(t, 'GET', 'exam', { exam }, me);
    // description is left out when not set; id and deadline read null; the language is the Quiz set's.
    expect(body).toEqual({
      exam, id: null, title: 'Finals', language: 'de', quiz, active: false, status: 'INACTIVE', secure: false, start: START, end: END, deadline: null,
    });
    expect(Object.keys(body)).toEqual(['exam', 'id', 'title', 'language', 'quiz', 'active', 'status', 'secure', 'start', 'end', 'deadline']);
    expect(await row(exam)).toMatchObject({ ownerId: me.user.id, organizationId: null, type: 'exam', round: 1, archived: false, active: true });
  });

  it('takes id, language and type, and answers active while the period runs', async () => {
    const me = await t.newCaller('create-full');
    const exam = await newExam(t, me, { id: 'ext-1', language: 'en', type: 'homework' });
    clock.fix(at('2030-01-15 12:00:00'));
    expect(await ok(t, 'GET', 'exam', { exam }, me)).toMatchObject({ exam, id: 'ext-1', language: 'en', active: true, status: 'ACTIVE' });
    expect((await row(exam))!.type).toBe('homework');
  });

  it('refuses missing and invalid arguments, changing nothing', async () => {
    const me = await t.newCaller('create-refused');
    const quiz = await newQuiz(t, me);
    const base = { title: 'Exam', quiz, start: START, end: END };
    for (const missing of ['title', 'quiz', 'start', 'end'] as const) {
      const { [missing]: _, ...args } = base;
      await refused(t, () => t.rpc('POST', 'exam', args, { as: me }), 403, 'MISSING_ARGUMENT', missing);
    }
    await refused(t, () => t.rpc('POST', 'exam', { ...base, end: START }, { as: me }), 403, 'INVALID_ARGUMENT', 'end');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, end: '2029-12-01 00:00:00' }, { as: me }), 403, 'INVALID_ARGUMENT', 'end');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, start: '2030-02-30 00:00:00' }, { as: me }), 403, 'INVALID_ARGUMENT', 'start');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, type: 'quiz' }, { as: me }), 403, 'INVALID_ARGUMENT', 'type');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, title: '' }, { as: me }), 403, undefined, 'title');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, id: 'x'.repeat(65) }, { as: me }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, language: 'xx' }, { as: me }), 403, 'INVALID_ARGUMENT', 'language');
    await refused(t, () => t.rpc('POST', 'exam', { ...base, keep_certificate_settings: 'maybe' }, { as: me }), 403, 'INVALID_ARGUMENT', 'keep_certificate_settings');
  });

  it('needs a Quiz set the caller may view', async () => {
    const me = await t.newCaller('create-quiz');
    const other = await t.newCaller('create-quiz-other');
    const foreign = await newQuiz(t, other);
    await refused(t, () => t.rpc('POST', 'exam', { title: 'E', quiz: 'qz_nothing', start: START, end: END }, { as: me }), 403, 'NOT_FOUND', 'quiz');
    await refused(t, () => t.rpc('POST', 'exam', { title: 'E', quiz: foreign, start: START, end: END }, { as: me }), 403);
  });

  it('takes copy_settings from an exam the caller may view, answering like an unknown exam otherwise', async () => {
    const me = await t.newCaller('copy-settings');
    const other = await t.newCaller('copy-settings-other');
    const mine = await newExam(t, me);
    const hidden = await newExam(t, other);
    const quiz = await newQuiz(t, me);
    const base = { title: 'Copy', quiz, start: START, end: END };
    const unknown = await refused(t, () => t.rpc('POST', 'exam', { ...base, copy_settings: 'exm_nothing' }, { as: me }), 403, 'NOT_FOUND', 'copy_settings');
    const invisible = await refused(t, () => t.rpc('POST', 'exam', { ...base, copy_settings: hidden }, { as: me }), 403, 'NOT_FOUND', 'copy_settings');
    expect(invisible.error!.replace(hidden, 'X')).toBe(unknown.error!.replace('exm_nothing', 'X'));
    const copy = await newExam(t, me, { ...base, copy_settings: mine, keep_certificate_settings: 'true' });
    expect(await row(copy)).toMatchObject({ title: 'Copy', ownerId: me.user.id });
  });

  it('follows the organization rules of Quiz sets', async () => {
    const owner = await t.newCaller('org-owner');
    const member = await t.newCaller('org-member');
    const org = await newOrganization(t, 'Exams Org', owner);
    const otherOrg = await newOrganization(t, 'Not mine', null);
    await addMember(t, org, member);
    const mine = await newExam(t, owner, { organization: org });
    expect((await row(mine))!.organizationId).toBe(org);
    // A plain member's exams always belong to its organization, whatever was asked.
    const theirs = await newExam(t, member, { organization: 'none' });
    expect((await row(theirs))!.organizationId).toBe(org);
    const quiz = await newQuiz(t, owner);
    // An organization the caller may not view is unknown; one it is a plain member of is not its own.
    await refused(t, () => t.rpc('POST', 'exam', { title: 'E', quiz, start: START, end: END, organization: otherOrg }, { as: owner }), 403, 'NOT_FOUND', 'organization');
    await addMember(t, otherOrg, owner);
    await refused(t, () => t.rpc('POST', 'exam', { title: 'E', quiz, start: START, end: END, organization: otherOrg }, { as: owner }), 403, 'NOT_OWN_ORGANIZATION', 'organization');
  });
});

describe('GET exams', () => {
  it('pages the exams the caller may view, searches, and filters by active', async () => {
    const me = await t.newCaller('lister');
    const quiz = await newQuiz(t, me);
    const ids: string[] = [];
    // Starts one day apart: the list runs from the latest start.
    for (let day = 1; day <= 5; day++) ids.push(await newExam(t, me, { quiz, title: `Listed ${day}`, start: `2030-01-0${day} 00:00:00`, end: '2030-02-01 00:00:00' }));
    const off = await newExam(t, me, { quiz, title: 'Later one', id: 'later-ext', start: '2031-01-01 00:00:00', end: '2031-02-01 00:00:00' });
    await newExam(t, await t.newCaller('lister-other'), { title: 'Listed foreign' });
    clock.fix(at('2030-01-03 12:00:00'));

    const first = await ok(t, 'GET', 'exams', {}, me);
    expect(first.exams).toHaveLength(6);
    expect(first.exams[0]).toEqual({ exam: off, id: 'later-ext', title: 'Later one', active: false });
    expect(first.exams.map((e: { exam: string }) => e.exam)).toEqual([off, ...[...ids].reverse()]);
    expect(first.exams.map((e: { active: boolean }) => e.active)).toEqual([false, false, false, true, true, true]);

    expect((await ok(t, 'GET', 'exams', { limit: 2, page: 2 }, me)).exams.map((e: { exam: string }) => e.exam)).toEqual([ids[3], ids[2]]);
    expect((await ok(t, 'GET', 'exams', { search: 'listed' }, me)).exams).toHaveLength(5);
    expect((await ok(t, 'GET', 'exams', { search: 'later-ext' }, me)).exams.map((e: { exam: string }) => e.exam)).toEqual([off]);
    // Search mode ignores the page.
    expect((await ok(t, 'GET', 'exams', { search: 'Listed', limit: 2, page: 3 }, me)).exams).toHaveLength(2);
    expect((await ok(t, 'GET', 'exams', { active: 'true' }, me)).exams.map((e: { exam: string }) => e.exam)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await ok(t, 'GET', 'exams', { active: 'false' }, me)).exams.map((e: { exam: string }) => e.exam)).toEqual([off, ids[4], ids[3]]);
  });

  it('refuses bad paging and a bad active', async () => {
    const me = await t.newCaller('lister-bad');
    await refused(t, () => t.rpc('GET', 'exams', { limit: 0 }, { as: me }), 403, 'INVALID_ARGUMENT', 'limit');
    await refused(t, () => t.rpc('GET', 'exams', { page: 'x' }, { as: me }), 403, 'INVALID_ARGUMENT', 'page');
    await refused(t, () => t.rpc('GET', 'exams', { active: 'perhaps' }, { as: me }), 403, 'INVALID_ARGUMENT', 'active');
  });
});

describe('who may see and change an exam', () => {
  it('answers a caller who may not view an exam exactly as for an id of nothing, and one who may view but not change with PERMISSION_DENIED', async () => {
    const owner = await t.newCaller('vis-owner');
    const outsider = await t.newCaller('vis-outsider');
    const viewer = await t.newCaller('vis-viewer');
    const exam = await newExam(t, owner);
    await examRule(t, exam, viewer, 'view');
    for (const [method, endpoint, args] of [
      ['GET', 'exam', {}],
      ['PATCH', 'exam', { title: 'X' }],
      ['DELETE', 'exam', {}],
      ['GET', 'exam:status', {}],
      ['GET', 'exam:round', {}],
      ['POST', 'exam:round', {}],
      ['GET', 'exam:skills', {}],
      ['GET', 'exam:branding', {}],
      ['DELETE', 'exam:branding', {}],
      ['GET', 'exam:users', {}],
      ['POST', 'exam:users', { users: outsider.user.id }],
      ['POST', 'exam:summary', { summary: 'S' }],
    ] as const) {
      const hidden = await refused(t, () => t.rpc(method, endpoint, { exam, ...args }, { as: outsider }), 403, 'NOT_FOUND', 'exam');
      const nothing = await refused(t, () => t.rpc(method, endpoint, { exam: 'exm_nothing', ...args }, { as: outsider }), 403, 'NOT_FOUND', 'exam');
      expect(hidden.error!.replace(exam, 'X'), `${method} ${endpoint}`).toBe(nothing.error!.replace('exm_nothing', 'X'));
    }
    expect((await ok(t, 'GET', 'exam', { exam }, viewer)).exam).toBe(exam);
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, title: 'X' }, { as: viewer }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('GET', 'exam:users', { exam }, { as: viewer }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('DELETE', 'exam', { exam }, { as: viewer }), 403, 'PERMISSION_DENIED');
    expect((await ok(t, 'GET', 'exams', {}, outsider)).exams).toEqual([]);
  });
});

describe('PATCH exam', () => {
  it('changes only what is given; empty id and description remove them; description keeps basic HTML only', async () => {
    const me = await t.newCaller('patch');
    const exam = await newExam(t, me, { id: 'ext' });
    const body = await ok(t, 'PATCH', 'exam', {
      exam,
      title: 'Renamed',
      description: '<p onclick="steal()">Read <b>this</b> <a href="javascript:alert(1)">link</a></p><script>alert(1)</script><img src=x onerror=alert(1)>',
    }, me);
    expect(body).toEqual({ exam, success: true });
    const changed = await ok(t, 'GET', 'exam', { exam }, me);
    expect(changed).toMatchObject({ title: 'Renamed', id: 'ext', description: '<p>Read <b>this</b> <a>link</a></p>' });
    await ok(t, 'PATCH', 'exam', { exam, id: '', description: '' }, me);
    const cleared = await ok(t, 'GET', 'exam', { exam }, me);
    expect(cleared.id).toBeNull();
    expect('description' in cleared).toBe(false);
  });

  it('takes only the contract\'s arguments: enabled is GraphQL\'s, and PATCH exam leaves the exam\'s switch alone', async () => {
    const me = await t.newCaller('patch-enabled');
    const exam = await newExam(t, me);
    const active = async () => (await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } })).active;
    expect(await ok(t, 'PATCH', 'exam', { exam, enabled: 'false', title: 'Switched?' }, me)).toEqual({ exam, success: true });
    expect(await active()).toBe(true);
    expect((await ok(t, 'GET', 'exam', { exam }, me)).title).toBe('Switched?');
    const r = await t.gql(`mutation($input: UpdateExamInput!) { updateExam(input: $input) { id enabled } }`, { input: { exam, enabled: false } }, { as: me });
    expect(r.body).toEqual({ data: { updateExam: { id: exam, enabled: false } } });
    expect(await active()).toBe(false);
  });

  it('keeps the deadline within the period; none or empty removes it', async () => {
    const me = await t.newCaller('patch-deadline');
    const exam = await newExam(t, me);
    await ok(t, 'PATCH', 'exam', { exam, deadline: '2030-01-20 12:00:00' }, me);
    expect((await ok(t, 'GET', 'exam', { exam }, me)).deadline).toBe('2030-01-20 12:00:00');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, deadline: '2030-02-20 12:00:00' }, { as: me }), 403, 'INVALID_ARGUMENT', 'deadline');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, deadline: '2029-12-20 12:00:00' }, { as: me }), 403, 'INVALID_ARGUMENT', 'deadline');
    // Moving the end before the deadline would leave it outside the period.
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, end: '2030-01-10 00:00:00' }, { as: me }), 403, 'INVALID_ARGUMENT', 'end');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, start: '2030-02-10 00:00:00' }, { as: me }), 403, 'INVALID_ARGUMENT', 'start');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, deadline: 'soon' }, { as: me }), 403, 'INVALID_ARGUMENT', 'deadline');
    await ok(t, 'PATCH', 'exam', { exam, deadline: 'none' }, me);
    expect((await ok(t, 'GET', 'exam', { exam }, me)).deadline).toBeNull();
    await ok(t, 'PATCH', 'exam', { exam, deadline: '2030-01-21 00:00:00' }, me);
    await ok(t, 'PATCH', 'exam', { exam, deadline: '' }, me);
    expect((await ok(t, 'GET', 'exam', { exam }, me)).deadline).toBeNull();
  });

  it('changes start only until the first result arrives, then refuses naming start', async () => {
    const me = await t.newCaller('patch-start');
    const exam = await newExam(t, me);
    await ok(t, 'PATCH', 'exam', { exam, start: '2030-01-02 08:00:00', end: '2030-03-01 00:00:00' }, me);
    expect(await ok(t, 'GET', 'exam', { exam }, me)).toMatchObject({ start: '2030-01-02 08:00:00', end: '2030-03-01 00:00:00' });
    await newPlay(t, exam, me);
    const r = await refused(t, () => t.rpc('PATCH', 'exam', { exam, start: '2030-01-03 08:00:00' }, { as: me }), 403, 'START_FROZEN');
    expect(r.error).toContain("'start'");
    // The same start and the end still change.
    await ok(t, 'PATCH', 'exam', { exam, start: '2030-01-02 08:00:00', end: '2030-03-02 00:00:00' }, me);
  });

  it('refuses bad values, changing nothing', async () => {
    const me = await t.newCaller('patch-bad');
    const exam = await newExam(t, me);
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, title: '' }, { as: me }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, title: 'x'.repeat(256) }, { as: me }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, id: 'x'.repeat(65) }, { as: me }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, language: 'zz' }, { as: me }), 403, 'INVALID_ARGUMENT', 'language');
    await refused(t, () => t.rpc('PATCH', 'exam', { title: 'x' }, { as: me }), 403, 'MISSING_ARGUMENT', 'exam');
  });

  it('moves the organization only by the owner or an administrator; none removes it', async () => {
    const owner = await t.newCaller('move-owner');
    const modifier = await t.newCaller('move-modifier');
    const org = await newOrganization(t, 'Move Org', owner);
    const exam = await newExam(t, owner);
    await examRule(t, exam, modifier, 'modify');
    await refused(t, () => t.rpc('PATCH', 'exam', { exam, organization: org }, { as: modifier }), 403, 'PERMISSION_DENIED');
    await ok(t, 'PATCH', 'exam', { exam, organization: org }, owner);
    expect((await row(exam))!.organizationId).toBe(org);
    await ok(t, 'PATCH', 'exam', { exam, organization: 'none' }, t.admin);
    expect((await row(exam))!.organizationId).toBeNull();
    await ok(t, 'PATCH', 'exam', { exam, title: 'By the modifier' }, modifier);
  });
});

describe('DELETE exam', () => {
  it('removes an exam without results with its examinees, branding, summaries, rules and tags', async () => {
    const me = await t.newCaller('delete-clean');
    const examinee = await t.newCaller('delete-examinee', { createdBy: me });
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:users', { exam, users: examinee.user.id }, me);
    await ok(t, 'POST', 'exam:branding', { exam, image: 'https://example.com/logo.png', color: 'red' }, me);
    await ok(t, 'POST', 'exam:summary', { exam, summary: 'Went well' }, me);
    await examRule(t, exam, examinee, 'view');
    expect(await ok(t, 'DELETE', 'exam', { exam }, me)).toEqual({ exam, success: true });
    expect(await row(exam)).toBeNull();
    const p = t.db.prisma;
    expect(await p.examUser.count({ where: { examId: exam } })).toBe(0);
    expect(await p.examBranding.count({ where: { examId: exam } })).toBe(0);
    expect(await p.examSummary.count({ where: { examId: exam } })).toBe(0);
    expect(await p.permissionRule.count({ where: { contentType: 'exam', contentId: exam } })).toBe(0);
    await refused(t, () => t.rpc('GET', 'exam', { exam }, { as: me }), 403, 'NOT_FOUND', 'exam');
  });

  it('archives an exam with results: gone for every reader, results kept', async () => {
    const me = await t.newCaller('delete-archive');
    const exam = await newExam(t, me);
    const play = await newPlay(t, exam, me, { status: 'finished' });
    await ok(t, 'DELETE', 'exam', { exam }, me);
    expect(await row(exam)).toMatchObject({ archived: true });
    expect(await t.db.prisma.play.findUnique({ where: { id: play.id } })).not.toBeNull();
    for (const as of [me, t.admin]) await refused(t, () => t.rpc('GET', 'exam', { exam }, { as }), 403, 'NOT_FOUND', 'exam');
    expect((await ok(t, 'GET', 'exams', {}, me)).exams).toEqual([]);
    await refused(t, () => t.rpc('DELETE', 'exam', { exam }, { as: me }), 403, 'NOT_FOUND', 'exam');
  });
});

describe('GET exam:status', () => {
  it('reports the status with its counts, in the designed fields and types', async () => {
    const me = await t.newCaller('status');
    const [a, b, c] = [await t.newCaller('status-a', { createdBy: me }), await t.newCaller('status-b', { createdBy: me }), await t.newCaller('status-c', { createdBy: me })];
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:users', { exam, users: [a, b, c].map((u) => u.user.id).join(',') }, me);
    await newPlay(t, exam, a, { status: 'finished' });
    await newPlay(t, exam, b, { status: 'paused' });
    await newPlay(t, exam, c, { status: 'finished', archived: true });
    clock.fix(at('2030-01-15 00:00:00'));
    const body = await ok(t, 'GET', 'exam:status', { exam }, me);
    expect(body).toEqual({
      exam, status: 'ACTIVE', active: true, start: START, end: END, deadline: null, paused: false, round: 1, users: 3, started: 2, finished: 1, archived: 1,
    });
    expect(Object.keys(body)).toEqual(['exam', 'status', 'active', 'start', 'end', 'deadline', 'paused', 'round', 'users', 'started', 'finished', 'archived']);
  });

  it('walks the rows of the status table that the exam record itself decides, with a fixed clock', async () => {
    const me = await t.newCaller('status-table');
    const exam = await newExam(t, me);
    await ok(t, 'PATCH', 'exam', { exam, deadline: '2030-01-20 00:00:00' }, me);
    const statusAt = async (moment: string) => {
      clock.fix(at(moment));
      const s = await ok(t, 'GET', 'exam:status', { exam }, me);
      return [s.status, s.active, s.paused];
    };
    expect(await statusAt('2029-12-31 23:59:59')).toEqual(['INACTIVE', false, false]);
    expect(await statusAt(START)).toEqual(['ACTIVE', true, false]);
    expect(await statusAt('2030-01-20 00:00:00')).toEqual(['ACTIVE', true, false]);
    expect(await statusAt('2030-01-20 00:00:01')).toEqual(['PAUSED', true, true]);
    expect(await statusAt('2030-01-31 19:59:59')).toEqual(['PAUSED', true, true]);
    expect(await statusAt(END)).toEqual(['EXPIRED', false, true]);
    // Switched off: INACTIVE inside the period, EXPIRED after it.
    await t.db.prisma.exam.update({ where: { id: exam }, data: { active: false } });
    expect(await statusAt('2030-01-10 00:00:00')).toEqual(['INACTIVE', false, false]);
    expect(await statusAt('2030-02-10 00:00:00')).toEqual(['EXPIRED', false, true]);
  });
});

describe('exam:round', () => {
  it('reads the current round and closes it, keeping the results with their round', async () => {
    const me = await t.newCaller('rounds');
    const exam = await newExam(t, me);
    await newPlay(t, exam, me, { round: 1 });
    await newPlay(t, exam, me, { round: 1, archived: true });
    const first = await ok(t, 'GET', 'exam:round', { exam }, me);
    expect(first).toEqual({ exam, round: 1, start: START, frozen: false, results: 1, rounds: [] });
    expect(Object.keys(first)).toEqual(['exam', 'round', 'start', 'frozen', 'results', 'rounds']);

    clock.fix(at('2030-01-10 10:00:00'));
    const closed = await ok(t, 'POST', 'exam:round', { exam }, me);
    expect(closed).toEqual({ exam, round: 2, start: '2030-01-10 10:00:00', closed: 1 });
    await newPlay(t, exam, me, { round: 2 });
    await newPlay(t, exam, me, { round: 2 });
    expect(await ok(t, 'GET', 'exam:round', { exam }, me)).toEqual({
      exam, round: 2, start: '2030-01-10 10:00:00', frozen: false, results: 2, rounds: [{ round: 1, start: START, end: '2030-01-10 10:00:00', results: 1 }],
    });
    expect((await ok(t, 'GET', 'exam:status', { exam }, me)).round).toBe(2);
  });

  it('needs modify to close a round', async () => {
    const owner = await t.newCaller('rounds-owner');
    const viewer = await t.newCaller('rounds-viewer');
    const exam = await newExam(t, owner);
    await examRule(t, exam, viewer, 'view');
    expect((await ok(t, 'GET', 'exam:round', { exam }, viewer)).round).toBe(1);
    await refused(t, () => t.rpc('POST', 'exam:round', { exam }, { as: viewer }), 403, 'PERMISSION_DENIED');
  });
});

describe('GET exam:skills', () => {
  it('lists the skills of the questions of the Quiz set once each', async () => {
    const me = await t.newCaller('skills');
    const quiz = await newQuiz(t, me);
    const p = t.db.prisma;
    const skill = (identifier: string, title: string, description?: string) =>
      p.skill.create({ data: { id: newId('Skill'), ownerId: me.user.id, identifier, title, description } });
    const [algebra, geometry] = [await skill('alg', 'Algebra', 'Equations'), await skill('geo', 'Geometry')];
    for (const [n, skills] of [[1, [algebra, geometry]], [2, [algebra]]] as const) {
      const q = await p.question.create({ data: { id: newId('Question'), externalId: `q${n}`, scope: `quiz:${quiz}`, ownerId: me.user.id, type: 'generic', content: 'Q', answers: ['a'] } });
      await p.questionSkill.createMany({ data: skills.map((s) => ({ questionId: q.id, skillId: s.id })) });
      await ok(t, 'POST', 'quiz:questions', { quiz, questions: q.id }, me);
    }
    const exam = await newExam(t, me, { quiz });
    expect(await ok(t, 'GET', 'exam:skills', { exam }, me)).toEqual({
      exam,
      skills: [{ identifier: 'alg', title: 'Algebra', description: 'Equations' }, { identifier: 'geo', title: 'Geometry' }],
    });
  });
});

describe('what exams change elsewhere', () => {
  it('a Quiz set used by an exam is archived on DELETE quiz, and the exam keeps it', async () => {
    const me = await t.newCaller('quiz-in-use');
    const quiz = await newQuiz(t, me);
    const exam = await newExam(t, me, { quiz });
    expect(await ok(t, 'DELETE', 'quiz', { quiz }, me)).toEqual({ quiz, success: true });
    expect(await t.db.prisma.quizSet.findUnique({ where: { id: quiz } })).toMatchObject({ archived: true });
    expect((await ok(t, 'GET', 'exam', { exam }, me)).quiz).toBe(quiz);
  });

  it('deleting a user removes its exams with their results', async () => {
    const manager = await t.newCaller('exam-owner-manager');
    const owner = await t.newCaller('exam-owner-deleted', { createdBy: manager });
    const exam = await newExam(t, owner);
    await newPlay(t, exam, owner);
    expect((await t.rpc('DELETE', 'user', { user: owner.user.id }, { as: manager })).status).toBe(200);
    expect(await row(exam)).toBeNull();
    expect(await t.db.prisma.play.count({ where: { examId: exam } })).toBe(0);
  });

  it('answers every operation of the Exams section and exam:round, none with 501', async () => {
    const me = await t.newCaller('no-501');
    const exam = await newExam(t, me);
    const exams = operations.filter((o) => o.section === 'Exams');
    expect(exams.map((o) => `${o.method} ${o.endpoint}`)).toEqual(expect.arrayContaining(['GET exam:round', 'POST exam:round', 'GET exam:status', 'POST exam:summary']));
    for (const o of exams) {
      expect(routes[`${o.method} ${o.endpoint}`], `${o.method} ${o.endpoint}`).toBeDefined();
      const r = await t.rpc(o.method, o.endpoint, { exam }, { as: me });
      expect(r.status, `${o.method} ${o.endpoint}`).not.toBe(501);
      expect(r.status, `${o.method} ${o.endpoint}`).toBeLessThan(500);
    }
  });
});
