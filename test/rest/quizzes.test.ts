import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/organizations.ts';
import { addMember, grant, newOrganization, newQuestion, newQuiz, ok, refused } from '../helpers/quiz-seed.ts';
import { seed } from '../helpers/seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const row = (id: string) => t.db.prisma.quizSet.findUniqueOrThrow({ where: { id } });

describe('POST quiz and GET quiz', () => {
  it('creates a Quiz set owned by the caller with the documented defaults', async () => {
    const me = await t.newCaller('create-defaults');
    const quiz = await newQuiz(t, me, { title: 'Basics' });
    const body = await ok(t, 'GET', 'quiz', { quiz }, me);
    // description is left out when not set; id is null.
    expect(body).toEqual({ quiz, id: null, title: 'Basics', language: 'en', mode: 'TEST', type: 'set' });
    expect(Object.keys(body)).toEqual(['quiz', 'id', 'title', 'language', 'mode', 'type']);
    expect(await row(quiz)).toMatchObject({ ownerId: me.user.id, organizationId: null, shuffle: null, grading: null, archived: false });
  });

  it('takes id, language, description, mode and type', async () => {
    const me = await t.newCaller('create-full');
    const quiz = await newQuiz(t, me, { title: 'Prüfung', id: 'ext-1', language: 'de', description: 'Final test', mode: 'TURNS', type: 'exam' });
    expect(await ok(t, 'GET', 'quiz', { quiz }, me)).toEqual({
      quiz, id: 'ext-1', title: 'Prüfung', language: 'de', description: 'Final test', mode: 'TURNS', type: 'exam',
    });
    for (const type of ['final', 'private']) expect((await ok(t, 'GET', 'quiz', { quiz: await newQuiz(t, me, { type }) }, me)).type).toBe(type);
    // The language defaults to the owner's.
    await t.db.prisma.user.update({ where: { id: me.user.id }, data: { language: 'hu' } });
    expect((await ok(t, 'GET', 'quiz', { quiz: await newQuiz(t, me) }, me)).language).toBe('hu');
  });

  it('refuses invalid arguments, naming them, and creates nothing', async () => {
    const me = await t.newCaller('create-invalid');
    const post = (args: Record<string, unknown>) => () => t.rpc('POST', 'quiz', args, { as: me });
    await refused(t, post({}), 403, 'MISSING_ARGUMENT', 'title');
    await refused(t, post({ title: 'x'.repeat(256) }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, post({ title: 'x', id: 'i'.repeat(65) }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(t, post({ title: 'x', id: '' }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(t, post({ title: 'x', description: 'd'.repeat(256) }), 403, 'INVALID_ARGUMENT', 'description');
    await refused(t, post({ title: 'x', mode: 'RANDOM' }), 403, 'INVALID_ARGUMENT', 'mode');
    await refused(t, post({ title: 'x', type: 'survey' }), 403, 'INVALID_ARGUMENT', 'type');
    await refused(t, post({ title: 'x', language: 'xx' }), 403, 'INVALID_ARGUMENT', 'language');
    // French is known but not active.
    await refused(t, post({ title: 'x', language: 'fr' }), 403, 'INVALID_ARGUMENT', 'language');
    await refused(t, post({ title: 'x', copy_settings: 'qz_nothing' }), 403, 'NOT_FOUND', 'copy_settings');
    await refused(t, post({ title: 'x', copy_questions: 'qz_nothing' }), 403, 'NOT_FOUND', 'copy_questions');
    const other = await t.newCaller('create-invalid-other');
    const foreign = await newQuiz(t, other);
    await refused(t, post({ title: 'x', copy_settings: foreign }), 403, 'NOT_FOUND');
    await refused(t, post({ title: 'x', copy_questions: foreign }), 403, 'NOT_FOUND');
  });

  it('copy_settings copies the settings of a Quiz set the caller may view (no round time for a TEST set)', async () => {
    const me = await t.newCaller('create-copy-settings');
    const other = await t.newCaller('create-copy-settings-other');
    const source = await newQuiz(t, other, { mode: 'TURNS' });
    await ok(t, 'POST', 'quiz:settings', { quiz: source, shuffle: 'true', timelimit: 600, roundtime: 30, grading: 'gp_passfail', grading_threshold: 70 }, other);
    await grant(t, source, me, 'view');
    const turns = await newQuiz(t, me, { mode: 'TURNS', copy_settings: source });
    expect(await ok(t, 'GET', 'quiz:settings', { quiz: turns }, me)).toEqual({
      quiz: turns, shuffle: true, timelimit: 600, roundtime: 30, grading: 'gp_passfail', grading_threshold: 70,
    });
    const test = await newQuiz(t, me, { copy_settings: source });
    expect(await ok(t, 'GET', 'quiz:settings', { quiz: test }, me)).toEqual({
      quiz: test, shuffle: true, timelimit: 600, roundtime: null, grading: 'gp_passfail', grading_threshold: 70,
    });
    expect((await row(test)).roundtime).toBeNull();
    // Only settings: no questions come with them.
    expect((await ok(t, 'GET', 'quiz:questions', { quiz: test }, me)).items).toEqual([]);
  });

  it('copy_questions copies the groups and items (same questions, new items); the source is unchanged', async () => {
    const me = await t.newCaller('create-copy-questions');
    const source = await newQuiz(t, me);
    const [q1, q2, q3] = [await newQuestion(t, me, 'cq1'), await newQuestion(t, me, 'cq2'), await newQuestion(t, me, 'cq3')];
    await ok(t, 'POST', 'quiz:questions', { quiz: source, questions: q1 }, me);
    await ok(t, 'POST', 'quiz:questions', { quiz: source, group: 'Part B', questions: `${q2},${q3}` }, me);
    const before = (await ok(t, 'GET', 'quiz:questions', { quiz: source }, me)).items;
    const copy = await newQuiz(t, me, { copy_questions: source });
    expect((await ok(t, 'GET', 'quiz:questions', { quiz: copy }, me)).items).toEqual(before);
    expect((await ok(t, 'GET', 'quiz:questions', { quiz: source }, me)).items).toEqual(before);
    const groups = await t.db.prisma.quizGroup.findMany({ where: { quizId: { in: [source, copy] } } });
    expect(groups).toHaveLength(2);
    expect(new Set(groups.map((g) => g.id)).size).toBe(2);
    // Settings are not copied with the questions.
    expect((await row(copy)).grading).toBeNull();
  });
});

describe('organization of a Quiz set', () => {
  it('is an organization of the owner (owned or administered); anything else is refused', async () => {
    const me = await t.newCaller('org-owner');
    const owned = await newOrganization(t, 'Owned', me);
    const administered = await newOrganization(t, 'Administered', null);
    await addMember(t, administered, me, { permOrganization: 'admin' });
    const foreign = await newOrganization(t, 'Foreign', null);
    const hidden = await newOrganization(t, 'Hidden', null);
    // A plain member sees the organization: it is told that it is not its own.
    await addMember(t, foreign, me);
    expect((await row(await newQuiz(t, me, { organization: owned }))).organizationId).toBe(owned);
    expect((await row(await newQuiz(t, me, { organization: administered }))).organizationId).toBe(administered);
    expect((await row(await newQuiz(t, me, { organization: 'none' }))).organizationId).toBeNull();
    await refused(t, () => t.rpc('POST', 'quiz', { title: 'x', organization: foreign }, { as: me }), 403, 'NOT_OWN_ORGANIZATION', 'organization');
    await refused(t, () => t.rpc('POST', 'quiz', { title: 'x', organization: 'org_nothing' }, { as: me }), 403, 'NOT_FOUND', 'organization');
    // One it may not view is unknown.
    await refused(t, () => t.rpc('POST', 'quiz', { title: 'x', organization: hidden }, { as: me }), 403, 'NOT_FOUND', 'organization');
    // Instance administrators may use any organization.
    expect((await row(await newQuiz(t, t.admin, { organization: foreign }))).organizationId).toBe(foreign);
  });

  it('is always their organization for organizational members', async () => {
    const member = await t.newCaller('org-member');
    const org = await newOrganization(t, 'Employer', null);
    await addMember(t, org, member);
    expect((await row(await newQuiz(t, member))).organizationId).toBe(org);
    expect((await row(await newQuiz(t, member, { organization: 'none' }))).organizationId).toBe(org);
  });

  it('PATCH moves it only by its owner or an administrator; none or empty removes it', async () => {
    const me = await t.newCaller('org-patch');
    const org = await newOrganization(t, 'Patch org', me);
    const quiz = await newQuiz(t, me);
    expect(await ok(t, 'PATCH', 'quiz', { quiz, organization: org }, me)).toEqual({ quiz, success: true });
    expect((await row(quiz)).organizationId).toBe(org);
    await ok(t, 'PATCH', 'quiz', { quiz, organization: '' }, me);
    expect((await row(quiz)).organizationId).toBeNull();
    const editor = await t.newCaller('org-patch-editor');
    await grant(t, quiz, editor, 'admin');
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz, organization: 'none' }, { as: editor }), 403, 'PERMISSION_DENIED');
    await ok(t, 'PATCH', 'quiz', { quiz, organization: org }, t.admin);
    await ok(t, 'PATCH', 'quiz', { quiz, organization: 'none' }, t.admin);
    expect((await row(quiz)).organizationId).toBeNull();
  });
});

describe('GET quizes', () => {
  it('lists the Quiz sets the caller may view, by title, with quiz, id and title', async () => {
    const me = await t.newCaller('list-me');
    const other = await t.newCaller('list-other');
    const own = await newQuiz(t, me, { title: 'B own', id: 'own-1' });
    const shared = await newQuiz(t, other, { title: 'A shared' });
    await grant(t, shared, me, 'view');
    const org = await newOrganization(t, 'List org', null);
    await addMember(t, org, me, { permContent: 'view' });
    const orgQuiz = await newQuiz(t, t.admin, { title: 'C organization', organization: org });
    const hidden = await newQuiz(t, other, { title: 'D hidden' });

    const body = await ok(t, 'GET', 'quizes', {}, me);
    expect(Object.keys(body)).toEqual(['quizes']);
    expect(body.quizes).toEqual([
      { quiz: shared, id: null, title: 'A shared' },
      { quiz: own, id: 'own-1', title: 'B own' },
      { quiz: orgQuiz, id: null, title: 'C organization' },
    ]);
    expect((await ok(t, 'GET', 'quizes', { limit: 1000 }, t.admin)).quizes.map((q: any) => q.quiz)).toEqual(expect.arrayContaining([own, shared, orgQuiz, hidden]));
    // Paging (L) and search.
    expect((await ok(t, 'GET', 'quizes', { limit: 1, page: 2 }, me)).quizes).toEqual([{ quiz: own, id: 'own-1', title: 'B own' }]);
    expect((await ok(t, 'GET', 'quizes', { search: 'organ', page: 5 }, me)).quizes.map((q: any) => q.quiz)).toEqual([orgQuiz]);
    expectError(await t.rpc('GET', 'quizes', { limit: 0 }, { as: me }), 403, 'INVALID_ARGUMENT', 'limit');
  });
});

describe('PATCH quiz', () => {
  it('changes title, id, language and description; empty id and description remove them', async () => {
    const me = await t.newCaller('patch-me');
    const quiz = await newQuiz(t, me, { id: 'p-1', description: 'Old' });
    expect(await ok(t, 'PATCH', 'quiz', { quiz, title: 'New title', language: 'hu', description: 'New' }, me)).toEqual({ quiz, success: true });
    expect(await ok(t, 'GET', 'quiz', { quiz }, me)).toEqual({ quiz, id: 'p-1', title: 'New title', language: 'hu', description: 'New', mode: 'TEST', type: 'set' });
    await ok(t, 'PATCH', 'quiz', { quiz, id: '', description: '' }, me);
    expect(await ok(t, 'GET', 'quiz', { quiz }, me)).toEqual({ quiz, id: null, title: 'New title', language: 'hu', mode: 'TEST', type: 'set' });
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz, title: '' }, { as: me }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz, id: 'x'.repeat(65) }, { as: me }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz, description: 'x'.repeat(256) }, { as: me }), 403, 'INVALID_ARGUMENT', 'description');
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz, language: 'fr' }, { as: me }), 403, 'INVALID_ARGUMENT', 'language');
    await refused(t, () => t.rpc('PATCH', 'quiz', { title: 'x' }, { as: me }), 403, 'MISSING_ARGUMENT', 'quiz');
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz: 'qz_nothing', title: 'x' }, { as: me }), 403, 'NOT_FOUND', 'quiz');
  });

  it('needs modify: view is not enough; modify through a rule or the organization is', async () => {
    const owner = await t.newCaller('patch-owner');
    const viewer = await t.newCaller('patch-viewer');
    const editor = await t.newCaller('patch-editor');
    const org = await newOrganization(t, 'Patch levels', owner);
    const quiz = await newQuiz(t, owner, { organization: org });
    await grant(t, quiz, viewer, 'view');
    await grant(t, quiz, editor, 'modify');
    expect((await ok(t, 'GET', 'quiz', { quiz }, viewer)).quiz).toBe(quiz);
    await refused(t, () => t.rpc('PATCH', 'quiz', { quiz, title: 'x' }, { as: viewer }), 403, 'PERMISSION_DENIED');
    await ok(t, 'PATCH', 'quiz', { quiz, title: 'By editor' }, editor);
    const colleague = await t.newCaller('patch-colleague');
    await addMember(t, org, colleague, { permContent: 'modify' });
    await ok(t, 'PATCH', 'quiz', { quiz, title: 'By colleague' }, colleague);
    expect((await row(quiz)).title).toBe('By colleague');
    const stranger = await t.newCaller('patch-stranger');
    expectError(await t.rpc('GET', 'quiz', { quiz }, { as: stranger }), 403, 'NOT_FOUND');
  });
});

describe('DELETE quiz', () => {
  it('needs admin; removes the Quiz set with its groups, items, rules and tags, keeping the questions', async () => {
    const owner = await t.newCaller('delete-owner');
    const editor = await t.newCaller('delete-editor');
    const quiz = await newQuiz(t, owner);
    const question = await newQuestion(t, owner, 'kept');
    await ok(t, 'POST', 'quiz:questions', { quiz, group: 'G', questions: question }, owner);
    await grant(t, quiz, editor, 'grant');
    const as = seed(t).as(owner);
    await as.attachTag('quiz', quiz, await as.tag({ title: 'T', color: '#000000' }));
    await refused(t, () => t.rpc('DELETE', 'quiz', { quiz }, { as: editor }), 403, 'PERMISSION_DENIED');

    expect(await ok(t, 'DELETE', 'quiz', { quiz }, owner)).toEqual({ quiz, success: true });
    expect(await t.db.prisma.quizSet.findUnique({ where: { id: quiz } })).toBeNull();
    expect(await t.db.prisma.quizGroup.count({ where: { quizId: quiz } })).toBe(0);
    expect(await t.db.prisma.quizItem.count({ where: { quizId: quiz } })).toBe(0);
    expect(await t.db.prisma.permissionRule.count({ where: { contentType: 'quiz', contentId: quiz } })).toBe(0);
    expect(await t.db.prisma.contentTag.count({ where: { contentType: 'quiz', contentId: quiz } })).toBe(0);
    expect(await t.db.prisma.question.findUnique({ where: { id: question } })).not.toBeNull();
    expectError(await t.rpc('GET', 'quiz', { quiz }, { as: owner }), 403, 'NOT_FOUND', 'quiz');
    expectError(await t.rpc('DELETE', 'quiz', { quiz }, { as: owner }), 403, 'NOT_FOUND', 'quiz');
  });

  it('is allowed to holders of admin on it', async () => {
    const owner = await t.newCaller('delete-owner2');
    const admin = await t.newCaller('delete-admin-rule');
    const quiz = await newQuiz(t, owner);
    await grant(t, quiz, admin, 'admin');
    await ok(t, 'DELETE', 'quiz', { quiz }, admin);
    expect(await t.db.prisma.quizSet.count({ where: { id: quiz } })).toBe(0);
  });
});

describe('quiz:questions', () => {
  it('assigns questions to the set and to groups (created when missing) and lists them in order', async () => {
    const me = await t.newCaller('items-me');
    const quiz = await newQuiz(t, me);
    const [a, b, c, d] = [await newQuestion(t, me, 'a'), await newQuestion(t, me, 'b'), await newQuestion(t, me, 'c'), await newQuestion(t, me, 'd')];
    expect(await ok(t, 'POST', 'quiz:questions', { quiz, questions: `${a}, ${b}` }, me)).toEqual({ quiz, questions: [a, b], success: true });
    expect(await ok(t, 'POST', 'quiz:questions', { quiz, group: 'Section 2', questions: c }, me)).toEqual({ quiz, group: 'Section 2', questions: [c], success: true });
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: d }, me);
    const body = await ok(t, 'GET', 'quiz:questions', { quiz }, me);
    expect(Object.keys(body)).toEqual(['items']);
    expect(body.items).toEqual([
      { question: a, id: 'a', active: true },
      { question: b, id: 'b', active: true },
      { group: 'Section 2', active: true },
      { question: c, id: 'c', group: 'Section 2', active: true },
      { question: d, id: 'd', active: true },
    ]);
    expect(Object.keys(body.items[3])).toEqual(['question', 'id', 'group', 'active']);

    // Assigning again changes nothing; assigning to a group moves a question there, last.
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: `${a},${a}` }, me);
    await ok(t, 'POST', 'quiz:questions', { quiz, group: 'Section 2', questions: a }, me);
    expect((await ok(t, 'GET', 'quiz:questions', { quiz }, me)).items).toEqual([
      { question: b, id: 'b', active: true },
      { group: 'Section 2', active: true },
      { question: c, id: 'c', group: 'Section 2', active: true },
      { question: a, id: 'a', group: 'Section 2', active: true },
      { question: d, id: 'd', active: true },
    ]);
    expect(await t.db.prisma.quizItem.count({ where: { quizId: quiz } })).toBe(4);
    expect(await t.db.prisma.quizGroup.count({ where: { quizId: quiz } })).toBe(1);
  });

  it('takes a JSON list too, and concurrent identical calls never duplicate', async () => {
    const me = await t.newCaller('items-json');
    const quiz = await newQuiz(t, me);
    const q = await newQuestion(t, me, 'json-q');
    await ok(t, 'POST', 'quiz:questions', { quiz, group: 'G', questions: [q] }, me, 'json');
    const results = await Promise.all(Array.from({ length: 5 }, () => t.rpc('POST', 'quiz:questions', { quiz, group: 'H', questions: q }, { as: me })));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await t.db.prisma.quizItem.count({ where: { quizId: quiz } })).toBe(1);
    expect((await t.db.prisma.quizGroup.findMany({ where: { quizId: quiz } })).map((g) => g.title).sort()).toEqual(['G', 'H']);
  });

  it('uses only questions the caller may view: own, of its organizations, in Quiz sets it may view', async () => {
    const me = await t.newCaller('items-use');
    const other = await t.newCaller('items-use-other');
    const quiz = await newQuiz(t, me);
    const foreign = await newQuestion(t, other, 'foreign');
    const org = await newOrganization(t, 'Question org', null);
    const orgQuestion = await newQuestion(t, other, 'org-q', org);
    // A question the caller may not view is unknown to it (NOT_FOUND naming questions).
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz, questions: foreign }, { as: me }), 403, 'NOT_FOUND', 'questions');
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz, questions: orgQuestion }, { as: me }), 403, 'NOT_FOUND', 'questions');
    await addMember(t, org, me, { permContent: 'view' });
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: orgQuestion }, me);
    // Questions of a Quiz set the caller may view, as copy_questions would take them.
    const shared = await newQuiz(t, other);
    const inShared = await newQuestion(t, other, 'in-shared');
    await ok(t, 'POST', 'quiz:questions', { quiz: shared, questions: inShared }, other);
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz, questions: inShared }, { as: me }), 403, 'NOT_FOUND', 'questions');
    await grant(t, shared, me, 'view');
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: inShared }, me);
    // An administrator uses any question.
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: foreign }, t.admin);
    expect((await ok(t, 'GET', 'quiz:questions', { quiz }, me)).items.map((i: any) => i.question)).toEqual([orgQuestion, inShared, foreign]);
  });

  it('refuses unknown questions, bad arguments and callers without modify, changing nothing', async () => {
    const me = await t.newCaller('items-refused');
    const quiz = await newQuiz(t, me);
    const q = await newQuestion(t, me, 'r');
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz }, { as: me }), 403, 'MISSING_ARGUMENT', 'questions');
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz, questions: `${q},qst_nothing` }, { as: me }), 403, 'NOT_FOUND', 'questions');
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz, questions: q, group: 'g'.repeat(256) }, { as: me }), 403, 'INVALID_ARGUMENT', 'group');
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz: 'qz_nothing', questions: q }, { as: me }), 403, 'NOT_FOUND', 'quiz');
    const viewer = await t.newCaller('items-viewer');
    await grant(t, quiz, viewer, 'view');
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: q }, me);
    expect((await ok(t, 'GET', 'quiz:questions', { quiz }, viewer)).items).toHaveLength(1);
    await refused(t, () => t.rpc('POST', 'quiz:questions', { quiz, questions: q, group: 'G' }, { as: viewer }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('DELETE', 'quiz:questions', { quiz, questions: q }, { as: viewer }), 403, 'PERMISSION_DENIED');
    expectError(await t.rpc('GET', 'quiz:questions', { quiz }, { as: await t.newCaller('items-stranger') }), 403, 'NOT_FOUND');
  });

  it('DELETE removes questions from the set, or only from the given group; groups left empty go too', async () => {
    const me = await t.newCaller('items-delete');
    const quiz = await newQuiz(t, me);
    const [a, b, c] = [await newQuestion(t, me, 'da'), await newQuestion(t, me, 'db'), await newQuestion(t, me, 'dc')];
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: a }, me);
    await ok(t, 'POST', 'quiz:questions', { quiz, group: 'G', questions: `${b},${c}` }, me);
    // With a group only its questions go: a stays.
    expect(await ok(t, 'DELETE', 'quiz:questions', { quiz, group: 'G', questions: `${a},${b}` }, me)).toEqual({ quiz, group: 'G', questions: [a, b], success: true });
    expect((await ok(t, 'GET', 'quiz:questions', { quiz }, me)).items).toEqual([
      { question: a, id: 'da', active: true },
      { group: 'G', active: true },
      { question: c, id: 'dc', group: 'G', active: true },
    ]);
    await ok(t, 'DELETE', 'quiz:questions', { quiz, questions: `${a},${c}` }, me);
    expect((await ok(t, 'GET', 'quiz:questions', { quiz }, me)).items).toEqual([]);
    expect(await t.db.prisma.quizGroup.count({ where: { quizId: quiz } })).toBe(0);
    // Questions not in the set are passed over.
    expect(await ok(t, 'DELETE', 'quiz:questions', { quiz, questions: a }, me)).toEqual({ quiz, questions: [a], success: true });
    await refused(t, () => t.rpc('DELETE', 'quiz:questions', { quiz, group: 'Nope', questions: a }, { as: me }), 403, 'NOT_FOUND', 'group');
    await refused(t, () => t.rpc('DELETE', 'quiz:questions', { quiz, questions: 'qst_nothing' }, { as: me }), 403, 'NOT_FOUND', 'questions');
  });
});

describe('GET quiz:skills', () => {
  it('lists the skills of the questions in the set once each, by title; description only if set', async () => {
    const me = await t.newCaller('skills-me');
    const quiz = await newQuiz(t, me);
    const [a, b, outside] = [await newQuestion(t, me, 'sa'), await newQuestion(t, me, 'sb'), await newQuestion(t, me, 'so')];
    const as = seed(t).as(me);
    const skill = (identifier: string, title: string, description?: string) => as.skill({ identifier, title, description });
    const algebra = await skill('alg', 'Algebra', 'Equations and such');
    const geometry = await skill('geo', 'Geometry');
    const unused = await skill('his', 'History');
    for (const [question, linked] of [[a, geometry], [a, algebra], [b, algebra], [outside, unused]] as const) await as.attachSkill(question, linked);
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: a }, me);
    await ok(t, 'POST', 'quiz:questions', { quiz, group: 'G', questions: b }, me);
    expect(await ok(t, 'GET', 'quiz:skills', { quiz }, me)).toEqual({
      quiz,
      skills: [
        { identifier: 'alg', title: 'Algebra', description: 'Equations and such' },
        { identifier: 'geo', title: 'Geometry' },
      ],
    });
    expect(await ok(t, 'GET', 'quiz:skills', { quiz: await newQuiz(t, me) }, me)).toMatchObject({ skills: [] });
    expectError(await t.rpc('GET', 'quiz:skills', { quiz }, { as: await t.newCaller('skills-stranger') }), 403, 'NOT_FOUND');
  });
});
