import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { seedClassCast, type ClassCast } from '../helpers/class-seed.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { routes } from '../../src/rest/routes.ts';
import { schema } from '../../src/graphql/schema.ts';

/**
 * The GraphQL counterparts of REST operations the dashboards could not reach (or reached only in
 * part): each new field or mutation is called beside its REST operation on data seeded through
 * the API, and must give the same data and the same effect, refuse the same callers with the same
 * code, and refuse the same bad input.
 */

let t: TestApp;
let owner: Caller;
let reporter: Caller;
let viewer: Caller;
let outsider: Caller;
let cast: ClassCast;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('cpowner');
  // Users the owner created: it may name them in permission rules.
  reporter = await t.newCaller('cpreporter', { createdBy: owner });
  viewer = await t.newCaller('cpviewer', { createdBy: owner });
  outsider = await t.newCaller('cpoutsider');
  cast = await seedClassCast(t);
});
afterAll(async () => t?.close());

interface GqlError {
  message: string;
  extensions: { code: string; argument?: string };
}

async function gqlOk(query: string, variables: Record<string, unknown>, as: Caller) {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}

async function gqlError(query: string, variables: Record<string, unknown>, as: Caller): Promise<GqlError> {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors?.length, JSON.stringify(r.body)).toBe(1);
  return r.body.errors![0];
}

/** The two faces refuse alike: the same code, and the same argument at fault where there is one. */
function sameRefusal(rest: RpcResult, gql: GqlError, code: string, argument?: string) {
  const both = JSON.stringify({ rest: rest.body, gql });
  expect(rest.status, both).toBe(403);
  expect(rest.code, both).toBe(code);
  expect(gql.extensions.code, both).toBe(code);
  expect(rest.body.error.argument).toBe(argument);
  expect(gql.extensions.argument).toBe(argument);
}

/** A datetime `ms` from now as the contract writes it (UTC). */
const ids = (callers: Caller[]) => callers.map((c) => c.user.id);
const contractTime = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19).replace('T', ' ');
const HOUR = 3600_000;

let seq = 0;
/** A question of the owner's folder through POST question; returns its identification string. */
async function question(args: Record<string, unknown> = {}): Promise<string> {
  return (await ok(t, 'POST', 'question', { id: `cp-${++seq}`, type: 'generic', content: 'Capital of France?', answer: 'Paris', ...args }, owner, 'json')).question;
}

/** A Quiz set of the owner holding `questions`, with `settings`. */
async function quizOf(questions: string[], settings: Record<string, unknown> = {}): Promise<string> {
  const quiz = (await ok(t, 'POST', 'quiz', { title: 'Counterparts' }, owner)).quiz as string;
  await ok(t, 'POST', 'quiz:questions', { quiz, questions: questions.join(',') }, owner);
  if (Object.keys(settings).length) await ok(t, 'POST', 'quiz:settings', { quiz, ...settings }, owner);
  return quiz;
}

const START = `mutation($input: StartPlayInput!) { startPlay(input: $input) { id questions { question { id } } } }`;
const ANSWER = `mutation($input: AnswerQuestionInput!) { answerQuestion(input: $input) { question } }`;
const FINISH = `mutation($input: FinishPlayInput!) { finishPlay(input: $input) { id } }`;

/** `as` plays: answers the questions in `responses` (by question) and finishes. */
async function play(as: Caller, target: { exam: string } | { quiz: string }, responses: Record<string, string> = {}): Promise<string> {
  const id = (await gqlOk(START, { input: target }, as)).startPlay.id as string;
  for (const [q, response] of Object.entries(responses)) await gqlOk(ANSWER, { input: { play: id, question: q, response } }, as);
  await gqlOk(FINISH, { input: { play: id } }, as);
  return id;
}

/** The REST operations this file holds to their GraphQL counterparts: `Type.field` of the schema. */
const COUNTERPARTS: Record<string, string[]> = {
  'GET test:app': ['Query.testApp'],
  'POST test:app': ['Query.testApp'],
  'GET quiz:results:play': ['Play.resultQuestions'],
  'DELETE quiz:results:play': ['Mutation.removeResult'],
  'POST exam:results:export': ['Mutation.requestResultsExport'],
  'GET exam:certificates:user': ['Query.examCertificateStatus'],
  'POST classes:members': ['Mutation.addClassesMembers'],
  'POST user:classes': ['Mutation.addUserClasses'],
  'DELETE user:classes': ['Mutation.removeUserClasses'],
  'POST organizations:members': ['AddOrganizationMembersInput.departmentFallback', 'Mutation.addOrganizationMembers'],
  'GET question': ['Query.questionByExternalId'],
};

it('each REST operation of the table is implemented, and each counterpart is in the schema', () => {
  for (const [operation, fields] of Object.entries(COUNTERPARTS)) {
    expect(routes[operation], operation).toBeTypeOf('function');
    for (const path of fields) {
      const [typeName, field] = path.split('.') as [string, string];
      const type = schema.getType(typeName) as { getFields?: () => Record<string, { description?: string | null }> } | undefined;
      const found = type?.getFields?.()[field];
      expect(found, `${operation}: ${path}`).toBeDefined();
      expect(found!.description, `${path} has a description`).toBeTruthy();
    }
  }
});

describe('testApp (REST test:app)', () => {
  it('answers the application, user, language and version of the call as GET test:app does', async () => {
    const rest = await ok(t, 'GET', 'test:app', {}, owner);
    const gql = (await gqlOk(`{ testApp { app user language version status } }`, {}, owner)).testApp;
    expect(gql).toEqual(rest);
    expect(gql.app).toBe(owner.app);
    expect(gql.user).toBe(owner.user.id);
    // Without credentials neither face answers.
    expect((await t.rpc('GET', 'test:app', {}, { as: null })).status).toBe(401);
    expect((await t.gql(`{ testApp { app } }`, {}, { as: null })).status).toBe(401);
  });
});

describe('Play.resultQuestions (REST GET quiz:results:play questions)', () => {
  it('lists every question of the play with its external id and maximum, unanswered ones included', async () => {
    const q1 = await question({ points: 2 });
    const q2 = await question();
    const q3 = await question({ points: 3 });
    const quiz = await quizOf([q1, q2, q3]);
    await ok(t, 'POST', 'quiz:permission', { quiz, user: viewer.user.id, permission: 'view' }, owner);
    const id = await play(viewer, { quiz }, { [q1]: 'Paris', [q2]: 'Rome' });

    const rest = await ok(t, 'GET', 'quiz:results:play', { play: id }, viewer);
    const query = `query($id: ID!) { node(id: $id) { ... on Play { resultQuestions { index question externalId timeAnswer pointsMaximum points } } } }`;
    const gql = (await gqlOk(query, { id }, viewer)).node.resultQuestions;
    expect(gql).toEqual(
      rest.questions.map((q: any) => ({ index: q.index, question: q.question, externalId: q.id, timeAnswer: q.time_answer ?? null, pointsMaximum: q.points_maximum, points: q.points })),
    );
    // The unanswered question keeps its own maximum (3), not the default.
    expect(gql[2]).toMatchObject({ question: q3, timeAnswer: null, pointsMaximum: 3, points: 0 });
    // A list of plays loads the questions of all of them together: a second play costs no statement more.
    const list = `{ myPlays(first: 10) { edges { node { resultQuestions { externalId pointsMaximum points } } } } }`;
    const one = await countStatements(t, () => gqlOk(list, {}, viewer));
    await play(viewer, { quiz }, { [q3]: 'Paris' });
    const two = await countStatements(t, () => gqlOk(list, {}, viewer));
    expect(two.result.myPlays.edges).toHaveLength(2);
    expect(two.count, two.statements.join('\n')).toBe(one.count);
    // Neither face shows the play to someone who may not read it.
    expect((await t.rpc('GET', 'quiz:results:play', { play: id }, { as: outsider })).code).toBe('NOT_FOUND');
    expect((await gqlOk(query, { id }, outsider)).node).toBeNull();
  });
});

const REMOVE = `mutation($play: ID!) { removeResult(play: $play) { play archived forgotten } }`;
const forget = (play: string, as: Caller) => t.rpc('DELETE', 'quiz:results:play', { play }, { as });

describe('removeResult (REST DELETE quiz:results:play)', () => {
  it('forgets a practice result as REST does: administrators only, the result kept without its user', async () => {
    const q = await question();
    const quiz = await quizOf([q]);
    await ok(t, 'POST', 'quiz:permission', { quiz, user: viewer.user.id, permission: 'view' }, owner);
    const first = await play(viewer, { quiz }, { [q]: 'Paris' });
    const second = await play(viewer, { quiz }, { [q]: 'Paris' });

    // The owner reads the results but is no administrator; an outsider may not see them at all.
    sameRefusal(await forget(first, owner), await gqlError(REMOVE, { play: second }, owner), 'PERMISSION_DENIED');
    sameRefusal(await forget(first, outsider), await gqlError(REMOVE, { play: second }, outsider), 'NOT_FOUND', 'play');
    sameRefusal(await forget('', t.admin), await gqlError(REMOVE, { play: '' }, t.admin), 'INVALID_ARGUMENT', 'play');
    expect((await ok(t, 'GET', 'quiz:results:user', { quiz, user: viewer.user.id }, owner)).results).toHaveLength(2);

    expect(await ok(t, 'DELETE', 'quiz:results:play', { play: first }, t.admin)).toEqual({ play: first, forgotten: true, success: true });
    expect((await gqlOk(REMOVE, { play: second }, t.admin)).removeResult).toEqual({ play: second, archived: false, forgotten: true });
    // The same effect: both kept, belonging to nobody, gone from the user's results.
    for (const id of [first, second]) expect((await ok(t, 'GET', 'quiz:results:play', { play: id }, owner)).user).toBeNull();
    expect((await ok(t, 'GET', 'quiz:results:user', { quiz, user: viewer.user.id }, owner)).results).toEqual([]);
  });
});

/** Examinees the owner created (so it may add them to exams). */
async function examinees(n: number): Promise<Caller[]> {
  const out: Caller[] = [];
  for (let i = 0; i < n; i++) out.push(await t.newCaller(`cpexaminee${++seq}`, { createdBy: owner }));
  return out;
}

/** An exam running now on a pass/fail Quiz set with certificates on, its examinees, report for `reporter` and view for `viewer`. */
async function runningExam(users: Caller[], settings: Record<string, unknown> = {}): Promise<{ exam: string; question: string }> {
  const q = await question();
  const quiz = await quizOf([q], { grading: 'gp_passfail' });
  const exam = (await ok(t, 'POST', 'exam', { title: 'Counterpart exam', quiz, start: contractTime(-HOUR), end: contractTime(HOUR) }, owner)).exam as string;
  await ok(t, 'POST', 'exam:users', { exam, users: users.map((u) => u.user.id).join(',') }, owner);
  if (Object.keys(settings).length) await ok(t, 'POST', 'exam:settings', { exam, ...settings }, owner);
  await gqlOk(`mutation($input: UpdateExamCertificateSettingsInput!) { updateExamCertificateSettings(input: $input) { id } }`, { input: { exam, enabled: true } }, owner);
  await ok(t, 'POST', 'exam:permission', { exam, user: reporter.user.id, permission: 'report' }, owner);
  await ok(t, 'POST', 'exam:permission', { exam, user: viewer.user.id, permission: 'view' }, owner);
  return { exam, question: q };
}

describe('exam results: removeResult, requestResultsExport, examCertificateStatus', () => {
  let exam: string;
  let passed: Caller;
  let failed: Caller;
  let plays: { passed: string; failed: string };

  beforeAll(async () => {
    const users = await examinees(2);
    [passed, failed] = [users[0]!, users[1]!];
    const setup = await runningExam([passed, failed], { archive: true });
    exam = setup.exam;
    plays = {
      passed: await play(passed, { exam }, { [setup.question]: 'Paris' }),
      failed: await play(failed, { exam }, { [setup.question]: 'Berlin' }),
    };
  });

  const STATUS = `query($exam: ID!, $user: ID!) { examCertificateStatus(exam: $exam, user: $user) { play { id } user archived eligible certified certificate { serial expires } } }`;
  const details = (user: string, as: Caller) => t.rpc('GET', 'exam:certificates:user', { exam, user }, { as });

  it('examCertificateStatus reads what GET exam:certificates:user does', async () => {
    for (const user of [passed, failed]) {
      const rest = await ok(t, 'GET', 'exam:certificates:user', { exam, user: user.user.id }, reporter);
      const gql = (await gqlOk(STATUS, { exam, user: user.user.id }, reporter)).examCertificateStatus;
      expect({ play: gql.play.id, user: gql.user, archived: gql.archived, eligible: gql.eligible, certified: gql.certified }).toEqual({
        play: rest.play,
        user: rest.user,
        archived: rest.archived,
        eligible: rest.eligible,
        certified: rest.certified,
      });
      expect(gql.certificate?.serial ?? undefined).toBe(rest.serial);
      // The user itself reads its own.
      expect((await gqlOk(STATUS, { exam, user: user.user.id }, user)).examCertificateStatus.play.id).toBe(rest.play);
    }
    expect((await gqlOk(STATUS, { exam, user: passed.user.id }, reporter)).examCertificateStatus).toMatchObject({ play: { id: plays.passed }, eligible: true, certified: true });
    expect((await gqlOk(STATUS, { exam, user: failed.user.id }, reporter)).examCertificateStatus).toMatchObject({ play: { id: plays.failed }, eligible: false, certified: false, certificate: null });

    sameRefusal(await details(passed.user.id, viewer), await gqlError(STATUS, { exam, user: passed.user.id }, viewer), 'PERMISSION_DENIED');
    sameRefusal(await details(passed.user.id, outsider), await gqlError(STATUS, { exam, user: passed.user.id }, outsider), 'NOT_FOUND', 'exam');
    sameRefusal(await details(outsider.user.id, reporter), await gqlError(STATUS, { exam, user: outsider.user.id }, reporter), 'NOT_FOUND', 'user');
    sameRefusal(await details('', reporter), await gqlError(STATUS, { exam, user: '' }, reporter), 'INVALID_ARGUMENT', 'user');
  });

  const EXPORT = `mutation($input: RequestResultsExportInput!) { requestResultsExport(input: $input) { exam { id } format url valid } }`;
  const exportRest = (args: Record<string, unknown>, as: Caller) => t.rpc('POST', 'exam:results:export', { exam, ...args }, { as });
  const download = async (url: string) => {
    const r = await t.app.fetch(new Request(url));
    expect(r.status).toBe(200);
    return r.text();
  };

  it('requestResultsExport gives a link to the same file as POST exam:results:export', async () => {
    const links = () => t.db.prisma.resultsExport.count({ where: { examId: exam } });
    sameRefusal(await exportRest({}, viewer), await gqlError(EXPORT, { input: { exam } }, viewer), 'PERMISSION_DENIED');
    sameRefusal(await exportRest({}, outsider), await gqlError(EXPORT, { input: { exam } }, outsider), 'NOT_FOUND', 'exam');
    sameRefusal(await exportRest({ format: 'pdf' }, reporter), await gqlError(EXPORT, { input: { exam, format: 'pdf' } }, reporter), 'INVALID_ARGUMENT', 'format');
    sameRefusal(
      await exportRest({ round: 1, filters: JSON.stringify({ Team: 'A' }) }, reporter),
      await gqlError(EXPORT, { input: { exam, round: 1, filters: { Team: 'A' } } }, reporter),
      'ARGUMENT_CONFLICT',
      'filters',
    );
    expect(await links()).toBe(0);

    // The owner exports: it manages the examinees, so the rows list them (a reporter's list only users it may read).
    const rest = await ok(t, 'POST', 'exam:results:export', { exam, format: 'csv', sort: 'name' }, owner);
    const gql = (await gqlOk(EXPORT, { input: { exam, format: 'csv', sort: 'name' } }, owner)).requestResultsExport;
    expect(await links()).toBe(2);
    expect(gql.exam.id).toBe(rest.exam);
    expect(gql.format).toBe(rest.format);
    expect(gql.url).toMatch(new RegExp(`^${BASE_URL}/exports/`));
    expect(gql.url).not.toBe(rest.url);
    // Both valid for the hour to come (REST writes seconds, GraphQL ISO 8601).
    expect(Math.abs(new Date(gql.valid).getTime() - new Date(`${rest.valid.replace(' ', 'T')}Z`).getTime())).toBeLessThan(5000);
    const [restFile, gqlFile] = [await download(rest.url), await download(gql.url)];
    expect(gqlFile).toBe(restFile);
    expect(restFile.trim().split('\n')).toHaveLength(3);
    for (const user of [passed, failed]) expect(restFile).toContain(user.user.id);
  });

  it('removeResult archives an exam result as REST does: control on the exam, the current result only', async () => {
    const results = async (user: Caller) => (await ok(t, 'GET', 'exam:results:user', { exam, user: user.user.id }, reporter)).results;
    // Report is not control; an outsider learns nothing of the result.
    sameRefusal(await forget(plays.passed, reporter), await gqlError(REMOVE, { play: plays.failed }, reporter), 'PERMISSION_DENIED');
    sameRefusal(await forget(plays.passed, outsider), await gqlError(REMOVE, { play: plays.failed }, outsider), 'NOT_FOUND', 'play');
    expect(await results(passed)).toHaveLength(1);
    expect(await results(failed)).toHaveLength(1);

    expect(await ok(t, 'DELETE', 'quiz:results:play', { play: plays.passed }, owner)).toEqual({ play: plays.passed, archived: true, success: true });
    expect((await gqlOk(REMOVE, { play: plays.failed }, owner)).removeResult).toEqual({ play: plays.failed, archived: true, forgotten: false });
    for (const [user, id] of [[passed, plays.passed], [failed, plays.failed]] as const) {
      expect(await results(user)).toEqual([]);
      expect((await ok(t, 'GET', 'quiz:results:play', { play: id }, owner)).valid).toBe(false);
    }
    // An archived result is no longer the current one: both faces refuse a second archive alike.
    sameRefusal(await forget(plays.passed, owner), await gqlError(REMOVE, { play: plays.failed }, owner), 'NOT_CURRENT_RESULT');
  });

  it('removeResult refuses, as REST does, where the exam does not archive results', async () => {
    const [user] = await examinees(1);
    const other = await runningExam([user!]);
    const id = await play(user!, { exam: other.exam }, { [other.question]: 'Paris' });
    sameRefusal(await forget(id, owner), await gqlError(REMOVE, { play: id }, owner), 'ARCHIVE_DISABLED');
    expect((await ok(t, 'GET', 'quiz:results:play', { play: id }, owner)).valid).toBe(true);
  });
});

describe('bulk class memberships (REST POST classes:members, POST and DELETE user:classes)', () => {
  const CREATE = `mutation($input: CreateClassInput!) { createClass(input: $input) { id } }`;
  const ADD_MANY = `mutation($classes: [ID!]!, $users: [ID!]!, $expires: DateTime, $expiresInDays: Int) {
    addClassesMembers(classes: $classes, users: $users, expires: $expires, expiresInDays: $expiresInDays) { classes { id } users { id } } }`;
  const ADD_USER = `mutation($user: ID!, $classes: [ID!]!, $expiresInDays: Int) { addUserClasses(user: $user, classes: $classes, expiresInDays: $expiresInDays) { classes { id } users { id } } }`;
  const REMOVE_USER = `mutation($user: ID!, $classes: [ID!]!) { removeUserClasses(user: $user, classes: $classes) { classes { id } users { id } } }`;

  const newClass = async () => (await gqlOk(CREATE, { input: { title: `Bulk ${++seq}`, organization: cast.orgId } }, cast.director)).createClass.id as string;
  const members = async (cls: string) => (await ok(t, 'GET', 'class:members', { class: cls }, cast.director)).members;
  const expiries = async (cls: string) => (await t.db.prisma.classMember.findMany({ where: { classId: cls }, orderBy: { userId: 'asc' } })).map((m) => [m.userId, m.expiresAt?.getTime() ?? null]);

  it('addClassesMembers adds every user to every class as POST classes:members does', async () => {
    const [c1, c2, c3, c4] = [await newClass(), await newClass(), await newClass(), await newClass()];
    const { director, plain, ann, bob } = cast;
    const users = ids([ann, bob]);
    const rest = (classes: string[], args: Record<string, unknown>, as: Caller) => t.rpc('POST', 'classes:members', { classes: classes.join(','), users: users.join(','), ...args }, { as });

    // A member of the organization who is no teacher of these classes does not see them.
    sameRefusal(await rest([c1, c2], {}, plain), await gqlError(ADD_MANY, { classes: [c3, c4], users }, plain), 'NOT_FOUND', 'classes');
    sameRefusal(await rest([c1, c2], { expires: '2020-01-01 00:00:00' }, director), await gqlError(ADD_MANY, { classes: [c3, c4], users, expires: '2020-01-01T00:00:00Z' }, director), 'INVALID_ARGUMENT', 'expires');
    sameRefusal(await rest([c1, 'cls_nothing'], {}, director), await gqlError(ADD_MANY, { classes: [c3, 'cls_nothing'], users }, director), 'NOT_FOUND', 'classes');
    const conflict = await gqlError(ADD_MANY, { classes: [c3, c4], users, expires: '2099-01-01T00:00:00Z', expiresInDays: 3 }, director);
    expect(conflict.extensions).toMatchObject({ code: 'ARGUMENT_CONFLICT', argument: 'expiresInDays' });
    for (const c of [c1, c2, c3, c4]) expect(await members(c)).toEqual([]);

    const restBody = (await rest([c1, c2], { expires: 30 }, director)).body;
    expect(restBody).toEqual({ classes: [c1, c2], users, success: true });
    const gql = (await gqlOk(ADD_MANY, { classes: [c3, c4], users, expiresInDays: 30 }, director)).addClassesMembers;
    expect(gql).toEqual({ classes: [{ id: c3 }, { id: c4 }], users: users.map((id) => ({ id })) });
    for (const [restClass, gqlClass] of [[c1, c3], [c2, c4]] as const) {
      expect(await members(gqlClass)).toEqual(await members(restClass));
      // The same expiry, 30 days on (the calls ran moments apart).
      const [a, b] = [await expiries(restClass), await expiries(gqlClass)];
      expect(b.map(([u]) => u)).toEqual(a.map(([u]) => u));
      b.forEach(([, ms], i) => expect(Math.abs((ms as number) - (a[i]![1] as number))).toBeLessThan(60_000));
    }
    expect((await members(c3)).map((m: any) => m.active)).toEqual([true, true]);
  });

  it('addUserClasses and removeUserClasses change a user\'s classes as POST and DELETE user:classes do', async () => {
    const [c1, c2] = [await newClass(), await newClass()];
    const { director, plain, stranger, ann, bob } = cast;
    const rest = (method: string, user: Caller, classes: string, as: Caller) => t.rpc(method, 'user:classes', { user: user.user.id, classes }, { as });

    // A user the caller may not see is unknown to it, on both faces.
    sameRefusal(await rest('POST', ann, `${c1},${c2}`, plain), await gqlError(ADD_USER, { user: bob.user.id, classes: [c1, c2] }, plain), 'NOT_FOUND', 'user');
    sameRefusal(await rest('POST', ann, '', director), await gqlError(ADD_USER, { user: bob.user.id, classes: [] }, director), 'INVALID_ARGUMENT', 'classes');
    sameRefusal(await rest('DELETE', stranger, c1, director), await gqlError(REMOVE_USER, { user: stranger.user.id, classes: [c1] }, director), 'NOT_FOUND', 'user');
    expect(await members(c1)).toEqual([]);

    expect((await rest('POST', ann, `${c1},${c2}`, director)).body).toEqual({ classes: [c1, c2], users: [ann.user.id], success: true });
    expect((await gqlOk(ADD_USER, { user: bob.user.id, classes: [c1, c2] }, director)).addUserClasses).toEqual({ classes: [{ id: c1 }, { id: c2 }], users: [{ id: bob.user.id }] });
    const both = await members(c1);
    expect(both.map((m: any) => m.user).sort()).toEqual([ann.user.id, bob.user.id].sort());
    expect(both.every((m: any) => m.active)).toBe(true);
    const classesOf = async (user: Caller) => (await ok(t, 'GET', 'user:classes', { user: user.user.id }, director)).classes.map((c: any) => [c.class, c.active]);
    expect(await classesOf(bob)).toEqual(await classesOf(ann));

    expect((await rest('DELETE', ann, c1, director)).body).toEqual({ classes: [c1], users: [ann.user.id], success: true });
    expect((await gqlOk(REMOVE_USER, { user: bob.user.id, classes: [c1] }, director)).removeUserClasses).toEqual({ classes: [{ id: c1 }], users: [{ id: bob.user.id }] });
    expect(await members(c1)).toEqual([]);
    expect(await classesOf(bob)).toEqual(await classesOf(ann));
    const left = (await classesOf(bob)).map(([c]: [string]) => c);
    expect(left).toContain(c2);
    expect(left).not.toContain(c1);
  });
});

describe('addOrganizationMembers with departmentFallback (REST POST organizations:members)', () => {
  const ADD = `mutation($input: AddOrganizationMembersInput!) { addOrganizationMembers(input: $input) { organization { id } user { id } } }`;

  it('gives the department\'s levels where it exists and the permission elsewhere, as REST does', async () => {
    const org = async (department: boolean) => {
      const id = (await ok(t, 'POST', 'organization', { title: `Org ${++seq}` }, owner)).organization as string;
      if (department) await ok(t, 'POST', 'organization:department', { organization: id, title: 'Sales', permission_organization: 'teacher', permission_content: 'view' }, owner);
      return id;
    };
    const [a1, b1, a2, b2] = [await org(true), await org(false), await org(true), await org(false)];
    const [m1, m2] = await examinees(2);
    const users = ids([m1!, m2!]);
    const levels = { department: 'Sales', permission_organization: 'supervisor', permission_content: 'report' };
    const rest = (organizations: string[], args: Record<string, unknown>, as: Caller) =>
      t.rpc('POST', 'organizations:members', { organizations: organizations.join(','), users: users.join(','), ...args }, { as });
    const input = (organizations: string[], extra: Record<string, unknown> = {}) => ({
      organizations,
      users,
      department: 'Sales',
      permission: { organization: 'supervisor', content: 'report' },
      departmentFallback: true,
      ...extra,
    });
    const membersOf = async (o: string) => (await ok(t, 'GET', 'organization:members', { organization: o }, owner)).members;

    sameRefusal(await rest([a1, b1], levels, outsider), await gqlError(ADD, { input: input([a2, b2]) }, outsider), 'NOT_FOUND', 'organizations');
    sameRefusal(
      await rest([a1, b1], { ...levels, users: `${users[0]},usr_nothing` }, owner),
      await gqlError(ADD, { input: input([a2, b2], { users: [users[0], 'usr_nothing'] }) }, owner),
      'NOT_FOUND',
      'users',
    );
    // Without the fallback GraphQL keeps the rules of POST organization:members.
    expect((await gqlError(ADD, { input: input([a2, b2], { departmentFallback: false }) }, owner)).extensions).toMatchObject({ code: 'ARGUMENT_CONFLICT', argument: 'department' });
    for (const o of [a1, b1, a2, b2]) expect(await membersOf(o)).toEqual([]);

    const restBody = (await rest([a1, b1], levels, owner)).body;
    expect(restBody.success).toBe(true);
    const gql = (await gqlOk(ADD, { input: input([a2, b2]) }, owner)).addOrganizationMembers;
    expect(gql).toHaveLength(4);
    for (const [restOrg, gqlOrg] of [[a1, a2], [b1, b2]] as const) expect(await membersOf(gqlOrg)).toEqual(await membersOf(restOrg));
    // Department Sales gives its own levels; the organization without it the permission given.
    expect((await membersOf(a2))[0]).toMatchObject({ department: 'Sales', permission: { organization: 'teacher', content: 'view' } });
    expect((await membersOf(b2))[0]).toMatchObject({ department: null, permission: { organization: 'supervisor', content: 'report' } });
  });
});

describe('questionByExternalId (REST GET question)', () => {
  const QUERY = `query($id: String!, $quiz: ID, $path: String) { questionByExternalId(id: $id, quiz: $quiz, path: $path) { id externalId active } }`;
  const asRest = (q: { id: string; externalId: string; active: boolean }) => ({ question: q.id, id: q.externalId, active: q.active });

  it('finds a question by external id in a folder or a Quiz set as GET question does, and refuses alike', async () => {
    const externalId = `shared-${++seq}`;
    const inFolder = await question({ id: externalId });
    const quiz = (await ok(t, 'POST', 'quiz', { title: 'Lookup' }, owner)).quiz as string;
    const inQuiz = (await ok(t, 'POST', 'question', { id: externalId, quiz, type: 'generic', content: 'In a Quiz set', answer: 'a' }, owner, 'json')).question;
    expect(inQuiz).not.toBe(inFolder);

    for (const where of [{ path: '/API' }, { quiz }]) {
      const rest = await ok(t, 'GET', 'question', { id: externalId, ...where }, owner);
      const gql = (await gqlOk(QUERY, { id: externalId, ...where }, owner)).questionByExternalId;
      expect(asRest(gql)).toEqual(rest);
    }
    expect((await gqlOk(QUERY, { id: externalId, quiz }, owner)).questionByExternalId.id).toBe(inQuiz);
    const get = (args: Record<string, unknown>, as: Caller) => t.rpc('GET', 'question', args, { as });
    sameRefusal(await get({ id: externalId }, owner), await gqlError(QUERY, { id: externalId }, owner), 'AMBIGUOUS_ID', 'quiz');
    sameRefusal(await get({ id: externalId, quiz }, outsider), await gqlError(QUERY, { id: externalId, quiz }, outsider), 'NOT_FOUND', 'quiz');
    sameRefusal(await get({ id: externalId }, outsider), await gqlError(QUERY, { id: externalId }, outsider), 'NOT_FOUND', 'id');
    sameRefusal(await get({ id: '' }, owner), await gqlError(QUERY, { id: '' }, owner), 'INVALID_ARGUMENT', 'id');
  });
});
