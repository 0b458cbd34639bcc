import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import {
  AttachSkillDocument,
  CreateSkillDocument,
  DeleteQuestionDocument,
  DeleteSkillDocument,
  DetachSkillDocument,
  ExportQuestionDocument,
  QuestionNodeDocument,
  QuestionPageDocument,
  QuestionsDocument,
  SetQuestionExternalIdDocument,
  SkillsDocument,
  UpdateSkillDocument,
  UpsertQuestionDocument,
} from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused, send } from './client.ts';

/**
 * Questions and skills through GraphQL: upsertQuestion runs the same service and rules as POST
 * question (contract fields as a JSON object), the Question type shows every stored field, and
 * skills, which the contract only reads, are created and attached here.
 */

let t: TestApp;
let author: Caller;
let stranger: Caller;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  author = await t.newCaller('gqlauthor');
  stranger = await t.newCaller('gqlstranger');
  const guild = await seed(t).as(author).organization({ title: 'Guild' });
  await guild.members([author], { permissionOrganization: 'admin' });
  orgId = guild.id;
});
afterAll(async () => t?.close());

let seq = 0;
async function upsert(fields: Record<string, unknown>, as: Caller = author) {
  return (await ok(t, UpsertQuestionDocument, { fields: { id: `g-${++seq}`, type: 'generic', content: 'Q?', answer: 'A', ...fields } }, { as })).upsertQuestion;
}

describe('upsertQuestion', () => {
  it('creates a question from contract fields and shows every stored field', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const q = await upsert({
      id: 'full',
      type: 'numerical',
      content: 'Half of {n}?',
      answer: ['1/2'],
      path: '/GraphQL',
      organization: orgId,
      question_format: 'LATEX',
      subject: 'Maths',
      category: 'Fractions',
      main_category: 'Arithmetic',
      difficulty: 2,
      source: 'Book',
      note: 'Note',
      privateNote: 'Private',
      explanation: 'Why',
      hint: ['h1', 'h2'],
      solution: 'Step&&&Done',
      label: 'l1',
      ai: true,
      points: 3,
      decimals: 1,
      tolerance: 'RELATIVE:5%',
      hint_penalty: 'EACH:10',
      solution_penalty: 'ONCE:25.5',
      parameters: '{n; INT; 1; 9}',
      answer_require: 1,
      image: `half.png=${png.toString('base64')}`,
      graph: 'g.png=https://example.com/g.png',
    });
    expect(q).toEqual({
      id: expect.stringMatching(/^qst_/),
      externalId: 'full',
      path: '/GraphQL',
      quizId: null,
      type: 'numerical',
      content: 'Half of {n}?',
      answers: ['1/2'],
      options: [],
      difficulty: 2,
      active: true,
      questionFormat: 'LATEX',
      subject: 'Maths',
      category: 'Fractions',
      mainCategory: 'Arithmetic',
      source: 'Book',
      note: 'Note',
      privateNote: 'Private',
      explanation: 'Why',
      hints: ['h1', 'h2'],
      solution: ['Step', 'Done'],
      labels: ['l1'],
      tagIds: [],
      ai: true,
      points: 3,
      decimals: 1,
      tolerance: 'RELATIVE:0.05',
      datetimePrecision: null,
      hintPenalty: { mode: 'EACH', percent: 10 },
      solutionPenalty: { mode: 'ONCE', percent: 25.5 },
      parameters: [{ name: 'n', type: 'INT', min: 1, max: 9 }],
      data: expect.objectContaining({ answerRequire: 1, questionFormat: 'LATEX', tolerance: { type: 'RELATIVE', value: 0.05, synced: false } }),
      media: [
        { field: 'graph', filename: 'g.png', contentType: null, size: null, sha256: null, url: 'https://example.com/g.png' },
        { field: 'image', filename: 'half.png', contentType: 'image/png', size: png.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), url: null },
      ],
      skills: [],
      owner: { id: author.user.id },
      organization: { id: orgId },
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    // The contract sees the same question.
    expect((await t.rpc('GET', 'question', { id: 'full', path: '/GraphQL' }, { as: author })).body).toEqual({ question: q.id, id: 'full', active: true });
    // Upserting again updates the same question.
    expect((await upsert({ id: 'full', path: '/GraphQL', content: 'Changed' })).id).toBe(q.id);
  });

  it('refuses invalid fields with the service error, naming the field, and writes nothing', async () => {
    const before = await t.db.prisma.question.count();
    expectCode(await refused(t, UpsertQuestionDocument, { fields: { id: 'bad', type: 'numerical', content: 'c', answer: 'x' } }, { as: author }), 'INVALID_ARGUMENT', 'answer');
    expectCode(await refused(t, UpsertQuestionDocument, { fields: { id: 'bad', type: 'generic', content: 'c', answer: 'a', file_count: 2 } }, { as: author }), 'ARGUMENT_CONFLICT', 'fileCount');
    expectCode(await refused(t, UpsertQuestionDocument, { fields: { type: 'generic', content: 'c', answer: 'a' } }, { as: author }), 'MISSING_ARGUMENT', 'id');
    expectCode(
      await refused(t, UpsertQuestionDocument, { fields: { id: 'bad', type: 'generic', content: 'c', answer: 'a', image: 'x.png=aGVsbG8=' } }, { as: author }),
      'INVALID_FILE_TYPE',
      'image',
    );
    expect(await t.db.prisma.question.count()).toBe(before);
  });
});

describe('reading questions', () => {
  it('pages the questions the caller may view and reads one by id or node', async () => {
    const reader = await t.newCaller('gqlreader');
    const a = await upsert({ id: 'r-1', content: 'alpha' }, reader);
    const b = await upsert({ id: 'r-2', content: 'beta' }, reader);
    const page = await ok(t, QuestionsDocument, { first: 1 }, { as: reader });
    expect(page.questions.edges.map((e) => e.node)).toEqual([{ id: a.id, externalId: 'r-1', type: 'generic', path: '/API' }]);
    expect(page.questions.pageInfo.hasNextPage).toBe(true);
    const next = await ok(t, QuestionsDocument, { first: 5, after: page.questions.pageInfo.endCursor }, { as: reader });
    expect(next.questions.edges.map((e) => e.node.id)).toEqual([b.id]);
    expect((await ok(t, QuestionsDocument, { search: 'BETA' }, { as: reader })).questions.edges.map((e) => e.node.id)).toEqual([b.id]);
    expect((await ok(t, QuestionsDocument, {}, { as: stranger })).questions.edges.map((e) => e.node.id)).not.toContain(a.id);

    expect((await ok(t, QuestionPageDocument, { id: a.id }, { as: reader })).question?.content).toBe('alpha');
    expectCode(await refused(t, QuestionPageDocument, { id: a.id }, { as: stranger }), 'NOT_FOUND', 'id');
    expectCode(await refused(t, QuestionPageDocument, { id: 'qst_missing' }, { as: reader }), 'NOT_FOUND', 'id');
    expect((await ok(t, QuestionNodeDocument, { id: a.id }, { as: reader })).node).toEqual({ id: a.id, externalId: 'r-1' });
    expect((await ok(t, QuestionNodeDocument, { id: a.id }, { as: stranger })).node).toBeNull();
  });
});

describe('setQuestionExternalId, exportQuestion, deleteQuestion', () => {
  it('works by identification string with the rules of the contract', async () => {
    const q = await upsert({ id: 'gx-1', path: '/X' });
    await upsert({ id: 'gx-2', path: '/X' });
    expect((await ok(t, SetQuestionExternalIdDocument, { question: q.id, id: 'gx-3' }, { as: author })).setQuestionExternalId).toEqual({ id: q.id, externalId: 'gx-3' });
    expectCode(await refused(t, SetQuestionExternalIdDocument, { question: q.id, id: 'gx-2' }, { as: author }), 'ID_TAKEN', 'id');
    expectCode(await refused(t, SetQuestionExternalIdDocument, { question: q.id, id: 'mine' }, { as: stranger }), 'NOT_FOUND', 'question');

    const link = (await ok(t, ExportQuestionDocument, { question: q.id }, { as: author })).exportQuestion;
    expect(link).toEqual({ question: { id: q.id, externalId: 'gx-3' }, url: expect.stringMatching(new RegExp(`^${BASE_URL}/files/[a-z0-9]{40}$`)), valid: expect.stringMatching(ISO) });
    expect(link.valid).toMatch(/T23:59:59\.999Z$/);
    expect((await ok(t, ExportQuestionDocument, { question: q.id }, { as: author })).exportQuestion.url).toBe(link.url);
    // The contract hands out the same link, with its day.
    const rest = await t.rpc('POST', 'question:export', { id: 'gx-3', path: '/X' }, { as: author });
    expect(rest.body).toEqual({ question: q.id, id: 'gx-3', url: link.url, valid: link.valid.slice(0, 10) });
    expectCode(await refused(t, ExportQuestionDocument, { question: q.id }, { as: stranger }), 'NOT_FOUND', 'question');

    expectCode(await refused(t, DeleteQuestionDocument, { question: q.id }, { as: stranger }), 'NOT_FOUND', 'question');
    expect((await ok(t, DeleteQuestionDocument, { question: q.id }, { as: author })).deleteQuestion).toBe(q.id);
    expect(await t.db.prisma.question.findUnique({ where: { id: q.id } })).toBeNull();
    expect((await t.app.fetch(new Request(link.url))).status).toBe(404);
  });
});

describe('skills', () => {
  it('creates, changes, attaches, detaches and deletes skills of the caller', async () => {
    const skill = (await ok(t, CreateSkillDocument, { input: { identifier: 'fractions', title: 'Fractions', description: 'Parts of a whole' } }, { as: author })).createSkill;
    expect(skill).toEqual({ id: expect.stringMatching(/^skl_/), identifier: 'fractions', title: 'Fractions', description: 'Parts of a whole', createdAt: expect.stringMatching(ISO) });
    expectCode(await refused(t, CreateSkillDocument, { input: { identifier: 'fractions', title: 'Again' } }, { as: author }), 'IDENTIFIER_TAKEN', 'identifier');
    expectCode(await refused(t, CreateSkillDocument, { input: { identifier: 'has space', title: 'x' } }, { as: author }), 'INVALID_ARGUMENT', 'identifier');
    // Identifiers are per owner.
    const theirs = (await ok(t, CreateSkillDocument, { input: { identifier: 'fractions', title: 'Theirs' } }, { as: stranger })).createSkill;

    const updated = (await ok(t, UpdateSkillDocument, { input: { skill: skill.id, title: 'Fractions 101', description: null } }, { as: author })).updateSkill;
    expect(updated).toMatchObject({ title: 'Fractions 101', description: null, identifier: 'fractions' });
    // Another user's skill is unknown to the caller.
    expectCode(await refused(t, UpdateSkillDocument, { input: { skill: skill.id, title: 'Mine' } }, { as: stranger }), 'NOT_FOUND', 'skill');

    const q = await upsert({ id: 'skilled' });
    const attached = (await ok(t, AttachSkillDocument, { question: q.id, skill: skill.id }, { as: author })).attachSkill;
    expect(attached).toEqual({ id: q.id, skills: [{ id: skill.id, identifier: 'fractions' }] });
    await ok(t, AttachSkillDocument, { question: q.id, skill: skill.id }, { as: author });
    expect(await t.db.prisma.questionSkill.count({ where: { questionId: q.id } })).toBe(1);
    expectCode(await refused(t, AttachSkillDocument, { question: q.id, skill: theirs.id }, { as: author }), 'NOT_FOUND', 'skill');
    expectCode(await refused(t, AttachSkillDocument, { question: q.id, skill: theirs.id }, { as: stranger }), 'NOT_FOUND');
    expectCode(await refused(t, AttachSkillDocument, { question: q.id, skill: 'skl_missing' }, { as: author }), 'NOT_FOUND', 'skill');
    expect((await ok(t, QuestionPageDocument, { id: q.id }, { as: author })).question?.skills).toEqual([{ id: skill.id, identifier: 'fractions', title: 'Fractions 101' }]);

    expect((await ok(t, SkillsDocument, {}, { as: author })).skills.map((s) => s.id)).toEqual([skill.id]);
    expect((await ok(t, QuestionNodeDocument, { id: skill.id }, { as: author })).node).toEqual({ id: skill.id, identifier: 'fractions' });
    expect((await ok(t, QuestionNodeDocument, { id: skill.id }, { as: stranger })).node).toBeNull();

    expect((await ok(t, DetachSkillDocument, { question: q.id, skill: skill.id }, { as: author })).detachSkill.skills).toEqual([]);
    await ok(t, AttachSkillDocument, { question: q.id, skill: skill.id }, { as: author });
    expect((await ok(t, DeleteSkillDocument, { skill: skill.id }, { as: author })).deleteSkill).toBe(skill.id);
    expect(await t.db.prisma.questionSkill.count({ where: { questionId: q.id } })).toBe(0);
    const gone = await send(t, DeleteSkillDocument, { skill: skill.id }, { as: author });
    expectCode(gone.errors![0]!, 'NOT_FOUND', 'skill');
  });
});
