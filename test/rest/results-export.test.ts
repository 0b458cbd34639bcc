import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { ok, newQuestion } from '../helpers/quiz-seed.ts';
import { enterValue, grantExam, newExam, setFeature } from '../helpers/exam-settings-seed.ts';
import { seed } from '../helpers/seed.ts';
import { newId } from '../../src/ids.ts';
import { runDue } from '../../src/jobs/run.ts';
import { asSystem } from '../../src/jobs/system.ts';
import { removeResultsExport } from '../../src/services/plays/results-export.ts';

/** POST `exam:results:export` and the download of its link, on the database the run uses. */

let t: TestApp;
let me: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('exporter');
});
afterAll(async () => t?.close());

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * An examinee of the exam, created by `me` (so `me` may see it and adds it) unless `by` says
 * otherwise (then the administrator adds it).
 */
async function examinee(exam: string, username: string, names: { first: string; last: string }, by: Caller | null = me): Promise<Caller> {
  const c = await t.newCaller(username, by ? { createdBy: by } : {});
  const user = await t.db.prisma.user.update({ where: { id: c.user.id }, data: { firstName: names.first, lastName: names.last, fullName: `${names.first} ${names.last}` } });
  await seed(t).as(by ?? t.admin).examinees(exam, [c]);
  return { ...c, user };
}

interface PlaySeed {
  round?: number;
  attempt?: number;
  status?: string;
  archived?: boolean;
  points?: [number, number];
  answers?: { question: string; response: unknown; points: number; max?: number }[];
  /** The questions the play asked; by default the answered ones. */
  questions?: string[];
  grade?: string;
  successful?: boolean | null;
}

/** A result written directly: its timestamps are fixed in the past and its points, grade and status chosen, which the player cannot do. */
async function play(exam: string, user: Caller, seed: PlaySeed = {}) {
  const row = await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } });
  const status = seed.status ?? 'finished';
  const answers = seed.answers ?? [];
  return t.db.prisma.play.create({
    data: {
      id: newId('Play'),
      examId: exam,
      quizId: row.quizId,
      userId: user.user.id,
      round: seed.round ?? row.round,
      attempt: seed.attempt ?? 1,
      status,
      archived: seed.archived ?? false,
      evaluated: status === 'finished',
      timeStart: new Date('2026-01-02T10:00:00Z'),
      timeEnd: status === 'finished' ? new Date('2026-01-02T10:30:00Z') : null,
      questionsTotal: answers.length,
      questionsCorrect: answers.filter((a) => a.points === (a.max ?? 1)).length,
      pointsTotal: seed.points?.[0] ?? 0,
      pointsCorrect: seed.points?.[1] ?? 0,
      grade: seed.grade ?? null,
      successful: seed.successful ?? null,
      questionIds: seed.questions ?? answers.map((a) => a.question),
      answers: { create: answers.map((a, i) => ({ questionId: a.question, index: i + 1, response: a.response as object, points: a.points, pointsMaximum: a.max ?? 1, evaluated: true })) },
    },
  });
}

/** Puts questions into the exam's Quiz set, in this order. */
async function questionsOf(exam: string, ids: string[]): Promise<string[]> {
  const row = await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } });
  const out: string[] = [];
  for (const id of ids) out.push(await newQuestion(t, me, id));
  await seed(t).as(me).assign(row.quizId, out);
  return out;
}

async function exportOf(args: Record<string, unknown>, as: Caller = me) {
  const body = await ok(t, 'POST', 'exam:results:export', args, as);
  return body as { exam: string; format: string; url: string; valid: string };
}

async function download(url: string, method = 'GET') {
  const response = await t.app.fetch(new Request(url, { method }));
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
    error: response.headers.get('service-api-error'),
    code: response.headers.get('service-api-error-code'),
  };
}

/** CSV text as rows of fields: the BOM, semicolons, quotes doubled inside quoted fields, CRLF lines. */
function parseCsv(bytes: Buffer): string[][] {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field), rows.push(row), (row = []), (field = ''), i++;
    } else field += c;
  }
  return rows;
}

async function readXlsx(bytes: Buffer): Promise<(string | number | null)[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const rows: (string | number | null)[][] = [];
  workbook.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(values.map((v) => (v === undefined ? null : (v as string | number))));
  });
  return rows;
}

/** The table of an export, whatever its format. */
async function table(args: Record<string, unknown>, as: Caller = me) {
  const link = await exportOf(args, as);
  const file = await download(link.url);
  expect(file.status, file.bytes.toString()).toBe(200);
  const rows = link.format === 'csv' ? parseCsv(file.bytes) : await readXlsx(file.bytes);
  return { link, file, header: rows[0]!.map(String), rows: rows.slice(1) };
}

/** A cell by its column name. */
const col = (header: string[], row: unknown[], name: string) => {
  const i = header.indexOf(name);
  expect(i, `column ${name} in ${header.join(', ')}`).toBeGreaterThanOrEqual(0);
  return row[i] ?? null;
};

describe('the call', () => {
  it('answers exam, format, an absolute url and valid one hour ahead; CSV has a BOM, semicolons and the default columns', async () => {
    const exam = await newExam(t, me);
    const zoe = await examinee(exam, 'exp-zoe', { first: 'Zoe', last: 'Adams' });
    const adam = await examinee(exam, 'exp-adam', { first: 'Adam', last: 'Young' });
    const nina = await examinee(exam, 'exp-nina', { first: 'Nina', last: 'Nobody' });
    await play(exam, zoe, { points: [4, 3], grade: '4', successful: true });
    await play(exam, adam, { attempt: 1, points: [4, 1], successful: false });
    await play(exam, adam, { attempt: 2, status: 'open' });
    await play(exam, nina, { archived: true });

    const before = Date.now();
    const link = await exportOf({ exam, format: 'csv' });
    expect(Object.keys(link)).toEqual(['exam', 'format', 'url', 'valid']);
    expect(link.exam).toBe(exam);
    expect(link.format).toBe('csv');
    expect(link.url).toMatch(new RegExp(`^${BASE_URL}/exports/[a-z0-9]{48}$`));
    expect(link.valid).toMatch(DATETIME);
    const valid = new Date(`${link.valid.replace(' ', 'T')}Z`).getTime();
    expect(valid).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000 - 1000);
    expect(valid).toBeLessThanOrEqual(Date.now() + 3600_000);

    const file = await download(link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="results-${exam}.csv"`);
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    const [header, ...rows] = parseCsv(file.bytes);
    expect(header).toEqual(['User', 'Name', 'Email', 'Attempt', 'Status', 'Started', 'Finished', 'Valid', 'Successful', 'Grade']);
    // The exam users page order (full name); an examinee whose result is archived is not in the report.
    expect(rows).toEqual([
      [adam.user.id, 'Adam Young', 'exp-adam@example.com', '1', 'finished', '2026-01-02 10:00:00', '2026-01-02 10:30:00', 'yes', 'no', ''],
      [adam.user.id, 'Adam Young', 'exp-adam@example.com', '2', 'in progress', '2026-01-02 10:00:00', '', 'no', '', ''],
      [zoe.user.id, 'Zoe Adams', 'exp-zoe@example.com', '1', 'finished', '2026-01-02 10:00:00', '2026-01-02 10:30:00', 'yes', 'yes', '4'],
    ]);
  });

  it('an archived result leaves the export with its examinee (DELETE quiz:results:play), and comes back when the examinee is added again', async () => {
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam, archive: true }, me);
    const kept = await examinee(exam, 'arc-kept', { first: 'Kim', last: 'Kept' });
    const idle = await examinee(exam, 'arc-idle', { first: 'Ian', last: 'Idle' });
    const result = await play(exam, kept, { points: [4, 4], successful: true });
    const users = async () => (await table({ exam, format: 'csv' })).rows.map((r) => [r[0], r[4]]);
    expect(await users()).toEqual([[idle.user.id, 'not started'], [kept.user.id, 'finished']]);

    expect(await ok(t, 'DELETE', 'quiz:results:play', { play: result.id }, me)).toMatchObject({ play: result.id });
    // Gone from the report and from the examinee's results; an examinee who never started stays.
    expect(await users()).toEqual([[idle.user.id, 'not started']]);
    expect((await ok(t, 'GET', 'exam:results:user', { exam, user: kept.user.id }, me)).results).toEqual([]);

    // Added again: the result is restored, and the row with it.
    await ok(t, 'POST', 'exam:users', { exam, users: kept.user.id }, me);
    expect(await users()).toEqual([[idle.user.id, 'not started'], [kept.user.id, 'finished']]);
    expect((await ok(t, 'GET', 'exam:results:user', { exam, user: kept.user.id }, me)).results.map((r: any) => r.play)).toEqual([result.id]);
  });

  it("defaults to the exam's export_format (xlsx) and export_sort; sort=name orders by family name", async () => {
    const exam = await newExam(t, me);
    await examinee(exam, 'srt-zoe', { first: 'Zoe', last: 'Adams' });
    await examinee(exam, 'srt-adam', { first: 'Adam', last: 'Young' });
    const byDefault = await table({ exam });
    expect(byDefault.link.format).toBe('xlsx');
    expect(byDefault.file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(byDefault.file.headers.get('content-disposition')).toBe(`attachment; filename="results-${exam}.xlsx"`);
    expect(byDefault.rows.map((r) => r[1])).toEqual(['Adam Young', 'Zoe Adams']);
    expect((await table({ exam, sort: 'name' })).rows.map((r) => r[1])).toEqual(['Zoe Adams', 'Adam Young']);

    await ok(t, 'POST', 'exam:settings', { exam, export_format: 'csv', export_sort: 'name' }, me);
    const configured = await table({ exam });
    expect(configured.link.format).toBe('csv');
    expect(configured.rows.map((r) => r[1])).toEqual(['Zoe Adams', 'Adam Young']);
    const overridden = await table({ exam, format: 'xlsx', sort: 'default' });
    expect(overridden.link.format).toBe('xlsx');
    expect(overridden.rows.map((r) => r[1])).toEqual(['Adam Young', 'Zoe Adams']);
  });

  it('exports only the examinees visible to the caller; an administrator sees them all', async () => {
    const exam = await newExam(t, me);
    const mine = await examinee(exam, 'vis-mine', { first: 'Mine', last: 'Own' });
    const other = await examinee(exam, 'vis-other', { first: 'Other', last: 'Person' }, null);
    await play(exam, mine);
    await play(exam, other);
    expect((await table({ exam, format: 'csv' })).rows.map((r) => r[0])).toEqual([mine.user.id]);
    const all = await table({ exam, format: 'csv' }, t.admin);
    expect(all.rows.map((r) => r[0])).toEqual([mine.user.id, other.user.id]);
    expect(all.file.bytes.toString()).toContain('Other Person');
  });

  it('needs report permission: no view answers like an unknown exam, view alone is denied', async () => {
    const exam = await newExam(t, me);
    const stranger = await t.newCaller('exp-stranger');
    const unknown = await t.rpc('POST', 'exam:results:export', { exam: 'exm_nothing' }, { as: stranger });
    expectError(unknown, 403, 'NOT_FOUND', 'exam');
    const hidden = await t.rpc('POST', 'exam:results:export', { exam }, { as: stranger });
    expectError(hidden, 403, 'NOT_FOUND', 'exam');
    expect(hidden.error).toBe(unknown.error!.replace('exm_nothing', exam));

    await grantExam(t, exam, stranger, 'view');
    expectError(await t.rpc('POST', 'exam:results:export', { exam }, { as: stranger }), 403, 'PERMISSION_DENIED');
    await t.db.prisma.permissionRule.updateMany({ where: { contentId: exam, userId: stranger.user.id }, data: { level: 'report' } });
    const granted = await exportOf({ exam }, stranger);
    expect((await download(granted.url)).status).toBe(200);
    expect(await t.db.prisma.resultsExport.count({ where: { examId: exam } })).toBe(1);

    expectError(await t.rpc('POST', 'exam:results:export', { exam }, { as: null }), 401, 'MISSING_CREDENTIALS');
    expectError(await t.rpc('GET', 'exam:results:export', { exam }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('refuses every broken input rule with the error headers, and stores no link', async () => {
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Group', type: 'select', options: ['A', 'B'], filtering: { A: 'Group A' } }, { label: 'Class', type: 'select', options: ['1', '2'] }, { label: 'Code' }]) }, me);
    await ok(t, 'POST', 'exam:round', { exam }, me);
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'MISSING_ARGUMENT', 'exam'],
      [{ exam, format: 'pdf' }, 'INVALID_ARGUMENT', 'format'],
      [{ exam, preset: 'all' }, 'INVALID_ARGUMENT', 'preset'],
      [{ exam, sort: 'time' }, 'INVALID_ARGUMENT', 'sort'],
      [{ exam, round: 'one' }, 'INVALID_ARGUMENT', 'round'],
      [{ exam, round: 0 }, 'INVALID_ARGUMENT', 'round'],
      [{ exam, round: 7 }, 'INVALID_ARGUMENT', 'round'],
      [{ exam, round: 2 }, 'INVALID_ARGUMENT', 'round'],
      [{ exam, filters: '{not json' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '["A"]' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Group": 5}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Group": []}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Group": {"A": 1}}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Nope": "A"}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Code": "A"}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Class": "1"}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Group": "B"}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, filters: '{"Group": ["A", "B"]}' }, 'INVALID_ARGUMENT', 'filters'],
      [{ exam, round: 1, filters: '{"Group": "A"}' }, 'ARGUMENT_CONFLICT', 'filters'],
      [{ exam, language: 'fr' }, 'INVALID_ARGUMENT', 'language'],
      [{ exam, language: 'x' }, 'INVALID_ARGUMENT', 'language'],
    ];
    for (const [args, code, argument] of cases) {
      const r = await t.rpc('POST', 'exam:results:export', args, { as: me });
      expectError(r, 403, code, argument);
    }
    // The answers preset: only for anonymous surveys.
    const r = await t.rpc('POST', 'exam:results:export', { exam, preset: 'answers' }, { as: me });
    expectError(r, 403, 'NOT_ANONYMOUS_SURVEY');
    const survey = await newExam(t, me, { type: 'survey' });
    expectError(await t.rpc('POST', 'exam:results:export', { exam: survey, preset: 'answers' }, { as: me }), 403, 'NOT_ANONYMOUS_SURVEY');
    expect(await t.db.prisma.resultsExport.count({ where: { examId: { in: [exam, survey] } } })).toBe(0);
  });

  it('takes its arguments as JSON too (filters as an object)', async () => {
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Group', type: 'select', options: ['A', 'B'], filtering: { A: 'Group A', B: 'Group B' } }]) }, me);
    const r = await t.rpc('POST', 'exam:results:export', { exam, format: 'csv', filters: { Group: ['A'] } }, { as: me, encoding: 'json' });
    expect(r.status).toBe(200);
    expect(r.body.format).toBe('csv');
  });
});

describe('the columns follow the export settings', () => {
  it('stats, skills, answers, points, suspicion, custom fields, gender and journey, read back from XLSX', async () => {
    const exam = await newExam(t, me);
    const [q1, q2] = await questionsOf(exam, ['Q-one', 'Q-two']);
    const skill = await seed(t).as(me).skill({ identifier: 'alg', title: 'Algebra' });
    await seed(t).as(me).attachSkill(q1!, skill);
    await ok(t, 'POST', 'exam:fields', { exam, phone: 'Mobile', fields: JSON.stringify([{ label: 'Code' }, { label: 'Group', type: 'select', options: ['A', 'B'] }]) }, me);
    await setFeature(t, me, 'privileged_fields', true);
    await ok(t, 'POST', 'exam:settings', { exam, export_stats: true, export_answers: true, export_points: true, export_suspicion: true, export_gender: true, export_journey: true }, me);
    const eva = await examinee(exam, 'col-eva', { first: 'Eva', last: 'Kiss' });
    await t.db.prisma.user.update({ where: { id: eva.user.id }, data: { gender: 'female', phone: '+36 1 234 5678' } });
    await enterValue(t, exam, 'Code', eva, '=HYPERLINK("x")');
    await enterValue(t, exam, 'Group', eva, 'B');
    await play(exam, eva, { points: [3, 2], answers: [{ question: q1!, response: ['x', 'y'], points: 1 }, { question: q2!, response: 'no', points: 1, max: 2 }] });

    const { header, rows } = await table({ exam, format: 'xlsx' });
    expect(header).toEqual([
      'User', 'Name', 'Email', 'Mobile', 'Gender', 'Code', 'Group',
      'Attempt', 'Status', 'Started', 'Finished', 'Valid', 'Successful', 'Grade',
      'Questions', 'Correct answers', 'Points available', 'Points scored', 'Result (%)', 'Duration (s)',
      'Skill (%): Algebra', 'Answer: Q-one', 'Answer: Q-two', 'Points: Q-one', 'Points: Q-two', 'Suspicion',
    ]);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.slice(0, 7)).toEqual([eva.user.id, 'Eva Kiss', 'col-eva@example.com', '+36 1 234 5678', 'female', '=HYPERLINK("x")', 'B']);
    // Numbers stay numbers in the workbook; text that looks like a formula stays text.
    expect(col(header, row, 'Attempt')).toBe(1);
    expect(col(header, row, 'Questions')).toBe(2);
    expect(col(header, row, 'Correct answers')).toBe(1);
    expect(col(header, row, 'Points available')).toBe(3);
    expect(col(header, row, 'Points scored')).toBe(2);
    expect(col(header, row, 'Result (%)')).toBe(66.67);
    expect(col(header, row, 'Duration (s)')).toBe(1800);
    expect(col(header, row, 'Skill (%): Algebra')).toBe(100);
    expect(col(header, row, 'Answer: Q-one')).toBe('x, y');
    expect(col(header, row, 'Answer: Q-two')).toBe('no');
    expect(col(header, row, 'Points: Q-one')).toBe(1);
    expect(col(header, row, 'Points: Q-two')).toBe(1);
    expect(col(header, row, 'Suspicion')).toBeNull();

    // Both questions now train the skill. A skill's unanswered question counts 0 of its maximum
    // (1, the question's default), as in the play's totals: Ben 1 of 1 + 2, Eva 1 + 1 of 1 + 2.
    const ben = await examinee(exam, 'col-ben', { first: 'Ben', last: 'Nagy' });
    await seed(t).as(me).attachSkill(q2!, skill);
    await play(exam, ben, { points: [3, 2], questions: [q1!, q2!], answers: [{ question: q2!, response: 'yes', points: 1, max: 2 }] });
    const both = await table({ exam, format: 'xlsx' });
    const skillOf = (name: string) => col(both.header, both.rows.find((r) => r[1] === name)!, 'Skill (%): Algebra');
    expect(skillOf('Ben Nagy')).toBe(33.33);
    expect(skillOf('Eva Kiss')).toBe(66.67);
    await t.db.prisma.examUser.delete({ where: { examId_userId: { examId: exam, userId: ben.user.id } } });
    await t.db.prisma.play.deleteMany({ where: { userId: ben.user.id } });

    // The same in CSV: a text a spreadsheet would take for a formula gets an apostrophe.
    const csv = await table({ exam, format: 'csv' });
    expect(csv.header).toEqual(header);
    expect(col(csv.header, csv.rows[0]!, 'Code')).toBe(`'=HYPERLINK("x")`);
    expect(col(csv.header, csv.rows[0]!, 'Result (%)')).toBe('66.67');

    // Custom fields and skills can be switched off; finished only drops examinees without a finished result.
    await examinee(exam, 'col-late', { first: 'Late', last: 'Comer' });
    expect((await table({ exam, format: 'csv' })).rows).toHaveLength(2);
    await ok(t, 'POST', 'exam:settings', { exam, export_custom_fields: false, export_skills: false, export_finished_only: true, export_answers: false, export_points: false, export_stats: false, export_gender: false, export_suspicion: false, export_journey: false }, me);
    const plain = await table({ exam, format: 'csv' });
    expect(plain.header).toEqual(['User', 'Name', 'Email', 'Mobile', 'Attempt', 'Status', 'Started', 'Finished', 'Valid', 'Successful', 'Grade']);
    expect(plain.rows.map((r) => r[0])).toEqual([eva.user.id]);
  });

  it('a Journey column only when the exam starts a published journey: each examinee\'s place in it', async () => {
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam, export_journey: true }, me);
    const [done, stuck, outside] = [
      await examinee(exam, 'jrn-done', { first: 'Dora', last: 'Done' }),
      await examinee(exam, 'jrn-stuck', { first: 'Stan', last: 'Stuck' }),
      await examinee(exam, 'jrn-out', { first: 'Otto', last: 'Out' }),
    ];
    expect((await table({ exam, format: 'csv' })).header).not.toContain('Journey');
    const nodes = [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: null } }];
    await seed(t).as(me).journeyDraft(exam, nodes);
    expect((await table({ exam, format: 'csv' })).header).not.toContain('Journey');
    const journey = await seed(t).as(me).journey(exam, nodes);
    // Places in the journey written directly: no play here reaches an error of the start step.
    await t.db.prisma.journeyUser.createMany({
      data: [
        { journeyId: journey, userId: done.user.id, status: 'completed', outcome: 'passed', run: 1, timeStart: new Date() },
        { journeyId: journey, userId: stuck.user.id, status: 'error', error: 'content-locked', run: 1, node: 'start', timeStart: new Date() },
      ],
    });
    const { header, rows } = await table({ exam, format: 'csv' });
    expect(header.at(-1)).toBe('Journey');
    const journeyOf = (who: Caller) => rows.find((r) => r[0] === who.user.id)!.at(-1);
    expect(journeyOf(done)).toBe('completed: passed');
    expect(journeyOf(stuck)).toBe('error: content-locked');
    expect(journeyOf(outside)).toBe('');
  });

  it("speaks the caller's language, or the one asked for", async () => {
    const exam = await newExam(t, me);
    await examinee(exam, 'lang-a', { first: 'Anna', last: 'A' });
    expect((await table({ exam, format: 'csv', language: 'hu' })).header.slice(0, 4)).toEqual(['Felhasználó', 'Név', 'E-mail', 'Próbálkozás']);
    const german = await table({ exam, format: 'csv', language: 'de' });
    expect(german.rows[0]![4]).toBe('nicht begonnen');
    await t.db.prisma.user.update({ where: { id: me.user.id }, data: { language: 'de' } });
    try {
      expect((await table({ exam, format: 'csv' })).header[0]).toBe('Benutzer');
      const english = await t.rpc('POST', 'exam:results:export', { exam, format: 'csv' }, { as: me, headers: { 'service-language': 'en' } });
      expect(parseCsv((await download(english.body.url)).bytes)[0]![0]).toBe('User');
    } finally {
      await t.db.prisma.user.update({ where: { id: me.user.id }, data: { language: 'en' } });
    }
  });

  it('a survey exports its answers with the examinees; an anonymous survey can export answers alone', async () => {
    const survey = await newExam(t, me, { type: 'survey' });
    const [q1] = await questionsOf(survey, ['S-one']);
    const ann = await examinee(survey, 'srv-ann', { first: 'Ann', last: 'Survey' });
    const bob = await examinee(survey, 'srv-bob', { first: 'Bob', last: 'Survey' });
    await play(survey, ann, { answers: [{ question: q1!, response: 'blue', points: 0 }] });
    await play(survey, bob, { answers: [{ question: q1!, response: 'red; green', points: 0 }] });
    const named = await table({ exam: survey, format: 'csv' });
    expect(named.header).toEqual(['User', 'Name', 'Email', 'Answer: S-one']);
    expect(named.rows).toEqual([
      [ann.user.id, 'Ann Survey', 'srv-ann@example.com', 'blue'],
      [bob.user.id, 'Bob Survey', 'srv-bob@example.com', 'red; green'],
    ]);

    await ok(t, 'POST', 'exam:fields', { exam: survey, name: false, email: false, phone: false }, me);
    const answers = await table({ exam: survey, preset: 'answers', format: 'csv' });
    expect(answers.header).toEqual(['Answer: S-one']);
    expect(answers.rows.map((r) => r[0]).sort()).toEqual(['blue', 'red; green']);
    expect(answers.file.bytes.toString()).not.toContain('Survey');
    expect(answers.file.bytes.toString()).not.toContain(ann.user.id);
    const xlsx = await table({ exam: survey, preset: 'answers', format: 'xlsx' });
    expect(xlsx.header).toEqual(['Answer: S-one']);
    expect(xlsx.rows).toHaveLength(2);
  });
});

describe('many examinees', () => {
  it('reads them in batches, in order, each once, also when names repeat across batches', async () => {
    const exam = await newExam(t, me);
    const names = ['Ann Same', 'Bob Same', 'Cid Same'];
    const users = Array.from({ length: 1203 }, (_, i) => {
      const [first, last] = names[i % 3]!.split(' ');
      return { id: newId('User'), username: `many-${i}`, email: `many-${i}@example.com`, passwordHash: '-', firstName: first!, lastName: last!, fullName: names[i % 3]!, displayName: first!, createdById: me.user.id };
    });
    // 1203 accounts and examinees in bulk: through the services they would take most of the file's
    // time (exam:users takes 1000 a call and costs seconds here), and the export reads them the same.
    await t.db.prisma.user.createMany({ data: users });
    await t.db.prisma.examUser.createMany({ data: users.map((u) => ({ examId: exam, userId: u.id })) });
    const { rows } = await table({ exam, format: 'csv' });
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r[0])).size).toBe(1203);
    const expected = [...users].sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : a.id < b.id ? -1 : 1)).map((u) => u.id);
    expect(rows.map((r) => r[0])).toEqual(expected);
  });
});

describe('rounds and filters', () => {
  it('exports the current round by default, or a closed round asked for', async () => {
    const exam = await newExam(t, me);
    const kim = await examinee(exam, 'rnd-kim', { first: 'Kim', last: 'Round' });
    await play(exam, kim, { grade: 'first' });
    await ok(t, 'POST', 'exam:round', { exam }, me);
    await play(exam, kim, { round: 2, grade: 'second', attempt: 1 });
    const current = await table({ exam, format: 'csv' });
    expect(current.rows.map((r) => col(current.header, r, 'Grade'))).toEqual(['second']);
    const first = await table({ exam, format: 'csv', round: 1 });
    expect(first.rows.map((r) => col(first.header, r, 'Grade'))).toEqual(['first']);
    expect(first.file.headers.get('content-disposition')).toBe(`attachment; filename="results-${exam}-round-1.csv"`);
  });

  it('filters keep the examinees whose select field holds one of the options', async () => {
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Group', type: 'select', options: ['A', 'B', 'C'], filtering: { A: 'Group A', B: 'Group B', C: 'Group C' } }, { label: 'Site', type: 'select', options: ['North', 'South'], filtering: { North: 'N', South: 'S' } }]) }, me);
    const people = [
      ['flt-a-n', 'A', 'North'],
      ['flt-b-n', 'B', 'North'],
      ['flt-b-s', 'B', 'South'],
      ['flt-c-s', 'C', 'South'],
    ] as const;
    for (const [name, group, site] of people) {
      const c = await examinee(exam, name, { first: name, last: 'F' });
      await enterValue(t, exam, 'Group', c, group);
      await enterValue(t, exam, 'Site', c, site);
      await play(exam, c);
    }
    const names = async (filters: unknown) => (await table({ exam, format: 'csv', filters: JSON.stringify(filters) })).rows.map((r) => r[1]);
    expect(await names({ Group: 'B' })).toEqual(['flt-b-n F', 'flt-b-s F']);
    expect(await names({ Group: ['A', 'C'] })).toEqual(['flt-a-n F', 'flt-c-s F']);
    expect(await names({ Group: 'B', Site: 'South' })).toEqual(['flt-b-s F']);
    expect(await names({})).toHaveLength(4);
  });
});

describe('the link', () => {
  it('gives its file once: of two simultaneous downloads one gets it, the other 410 with the error headers', async () => {
    const exam = await newExam(t, me);
    for (let i = 0; i < 30; i++) await examinee(exam, `once-${i}`, { first: `Once${i}`, last: 'X' });
    const link = await exportOf({ exam, format: 'xlsx' });
    // A HEAD (a link scanner) does not use it up.
    expect((await download(link.url, 'HEAD')).status).toBe(200);
    const both = await Promise.all([download(link.url), download(link.url)]);
    expect(both.map((d) => d.status).sort()).toEqual([200, 410]);
    const gone = both.find((d) => d.status === 410)!;
    expect(gone.code).toBe('LINK_USED');
    expect(gone.error).toBeTruthy();
    expect(JSON.parse(gone.bytes.toString())).toMatchObject({ error: { status: 410, code: 'LINK_USED' } });
    expect(await readXlsx(both.find((d) => d.status === 200)!.bytes)).toHaveLength(31);
    const again = await download(link.url);
    expect([again.status, again.code]).toEqual([410, 'LINK_USED']);
  });

  it('expires after its hour; an unknown token answers 404', async () => {
    const exam = await newExam(t, me);
    const link = await exportOf({ exam });
    const token = link.url.split('/').pop()!;
    await t.db.prisma.resultsExport.updateMany({ where: { examId: exam }, data: { validUntil: new Date(Date.now() - 1000) } });
    const expired = await download(link.url);
    expect([expired.status, expired.code]).toEqual([410, 'LINK_EXPIRED']);
    expect(expired.error).toBeTruthy();
    const unknown = await download(`${BASE_URL}/exports/${token.replace(/./g, 'a')}`);
    expect([unknown.status, unknown.code]).toEqual([404, 'NOT_FOUND']);
    expect(unknown.error).toBeTruthy();
  });

  it("is refused once the caller lost report permission, and stays unused", async () => {
    const exam = await newExam(t, me);
    const helper = await t.newCaller('exp-reporter');
    await grantExam(t, exam, helper, 'report');
    const link = await exportOf({ exam }, helper);
    await t.db.prisma.permissionRule.deleteMany({ where: { contentId: exam, userId: helper.user.id } });
    const refused = await download(link.url);
    expect([refused.status, refused.code]).toEqual([410, 'LINK_REVOKED']);
    expect((await t.db.prisma.resultsExport.findFirstOrThrow({ where: { examId: exam } })).usedAt).toBeNull();
    await grantExam(t, exam, helper, 'report');
    expect((await download(link.url)).status).toBe(200);
  });

  it('is stored as a digest and removed by a job at the end of its validity', async () => {
    const exam = await newExam(t, me);
    const link = await exportOf({ exam });
    const token = link.url.split('/').pop()!;
    const row = await t.db.prisma.resultsExport.findFirstOrThrow({ where: { examId: exam } });
    expect(row.tokenHash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { task: 'exams.remove-results-export', dedupeKey: row.id } });
    expect(job.runAt).toEqual(row.validUntil);
    const system = asSystem(t.platform);
    expect(await runDue(system, [removeResultsExport])).toEqual([]);
    await t.db.prisma.resultsExport.update({ where: { id: row.id }, data: { validUntil: new Date(Date.now() - 1000) } });
    await t.db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    expect((await runDue(system, [removeResultsExport])).map((o) => o.status)).toEqual(['completed']);
    expect(await t.db.prisma.resultsExport.count({ where: { id: row.id } })).toBe(0);
    expect((await download(link.url)).status).toBe(404);
  });

  it('streams over a real socket too', async () => {
    const exam = await newExam(t, me);
    const lee = await examinee(exam, 'node-lee', { first: 'Lee', last: 'Node' });
    await play(exam, lee);
    // The same app listening (the file's last test: it is closed with the test app).
    const base = await t.app.listen(0, '127.0.0.1');
    const link = await exportOf({ exam, format: 'csv' });
    const url = link.url.replace(BASE_URL, base);
    const [a, b] = await Promise.all([fetch(url), fetch(url)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 410]);
    const good = a.status === 200 ? a : b;
    const bad = a.status === 200 ? b : a;
    expect(bad.headers.get('service-api-error-code')).toBe('LINK_USED');
    await bad.arrayBuffer();
    const rows = parseCsv(Buffer.from(await good.arrayBuffer()));
    expect(rows[1]![1]).toBe('Lee Node');
  });
});
