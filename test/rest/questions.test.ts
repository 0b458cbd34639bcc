import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, BASE_URL, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError, refusedUnchanged } from '../helpers/expect.ts';
import { seed } from '../helpers/seed.ts';
import { checkAnswer, type Response } from '../../src/services/questions/answer-checker.ts';
import { toCheckable } from '../../src/services/questions/checkable.ts';

/**
 * The Questions endpoints of the contract through HTTP: create-or-update by external id in a folder
 * or a Quiz set (also under concurrent identical calls), the validation of every documented field
 * (403 naming it, nothing written), who sees and changes what, external ids, export links, and
 * that what storage accepted is what the answer checker scores.
 */

let t: TestApp;
/** Owns the organization `org` and a Quiz set. */
let author: Caller;
/** Member of `org` with content level view. */
let viewer: Caller;
/** Plain member of `org` (content level none). */
let member: Caller;
/** Knows nobody. */
let stranger: Caller;
let orgId: string;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

beforeAll(async () => {
  t = await createTestApp();
  author = await t.newCaller('author');
  viewer = await t.newCaller('viewer');
  member = await t.newCaller('member');
  stranger = await t.newCaller('stranger');
  const school = await seed(t).as(author).organization({ title: 'School' });
  orgId = school.id;
  await school.members([author], { permissionOrganization: 'admin' });
  // The author does not manage the viewer: the administrator adds it.
  await seed(t).admin.addMembers(orgId, [viewer], { permissionOrganization: 'teacher', permissionContent: 'view' });
});
afterAll(async () => t?.close());

let seq = 0;
const nextId = () => `q-${++seq}`;

/** The smallest valid POST question. */
const valid = { id: 'valid', type: 'generic', content: 'c', answer: 'a' };

const post = (args: Record<string, unknown>, as: Caller = author, encoding?: 'json' | 'form' | 'multipart') =>
  t.rpc('POST', 'question', args, { as, encoding });

/** A POST question that must succeed; returns the stored row. */
async function create(args: Record<string, unknown>, as: Caller = author) {
  const r = await post({ id: nextId(), type: 'generic', content: 'What?', answer: 'This', ...args }, as, 'json');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(Object.keys(r.body)).toEqual(['question']);
  expect(r.body.question).toMatch(/^qst_[0-9a-z]{14}$/);
  return t.db.prisma.question.findUniqueOrThrow({ where: { id: r.body.question } });
}

async function snapshot() {
  const p = t.db.prisma;
  return {
    questions: await p.question.findMany({ orderBy: { id: 'asc' } }),
    media: await p.questionMedia.count(),
    files: await p.storedFile.count(),
    items: await p.quizItem.count(),
    exports: await p.questionExport.count(),
    audit: await p.auditEvent.count(),
  };
}

const refused = refusedUnchanged(snapshot);

/** A personal Quiz set of `owner`. */
const makeQuiz = async (owner: Caller) => seed(t).as(owner).quizSet({ title: 'Quiz' });

/** The administrator grants the rule: the Quiz set's owner does not manage these users. */
const grantQuiz = (quiz: string, user: Caller, level: 'view' | 'modify' | 'report') => seed(t).admin.grant('quiz', quiz, user, level);

describe('POST question', () => {
  it('creates a question in /API of the caller and answers only its identification string', async () => {
    const r = await post({ id: 'first', type: 'generic', content: 'Capital of France?', answer: 'Paris&&&paris' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ question: expect.stringMatching(/^qst_/) });
    const row = await t.db.prisma.question.findUniqueOrThrow({ where: { id: r.body.question } });
    expect(row).toMatchObject({
      externalId: 'first',
      scope: `folder:${author.user.id}:/API`,
      path: '/API',
      ownerId: author.user.id,
      organizationId: null,
      type: 'generic',
      content: 'Capital of France?',
      answers: ['Paris', 'paris'],
      options: [],
      difficulty: 0,
      active: true,
    });
    expect(row.data).toEqual({ questionFormat: 'NORMAL' });
  });

  it('updates, never duplicates: the same external id in the same folder is the same question, replaced as given', async () => {
    const row = await create({ id: 'same', content: 'One', subject: 'Maths', difficulty: 3 });
    const again = await post({ id: 'same', type: 'text', content: 'Two', answer: ['a', 'b'] }, author, 'json');
    expect(again.body).toEqual({ question: row.id });
    const updated = await t.db.prisma.question.findUniqueOrThrow({ where: { id: row.id } });
    // Fields left out take their defaults again: the call states the whole question.
    expect(updated).toMatchObject({ type: 'text', content: 'Two', answers: ['a', 'b'], difficulty: 0, data: { questionFormat: 'NORMAL' } });
    expect(await t.db.prisma.question.count({ where: { externalId: 'same' } })).toBe(1);
    const audit = await t.db.prisma.auditEvent.findMany({ where: { subject: row.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['question.create', 'question.update']);
  });

  it('keeps one question under 20 concurrent identical calls', async () => {
    const args = { id: 'race', type: 'numerical', content: '1/2?', answer: '0.5', path: '/Race' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(args, author)));
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ids = new Set(answers.map((r) => r.body.question));
    expect(ids.size).toBe(1);
    expect(await t.db.prisma.question.count({ where: { externalId: 'race' } })).toBe(1);
    const [id] = [...ids];
    const actions = (await t.db.prisma.auditEvent.findMany({ where: { subject: id } })).map((a) => a.action);
    expect(actions.filter((a) => a === 'question.create')).toHaveLength(1);
    expect(actions).toHaveLength(20);
  }, 120_000);

  it('stores folders apart: the same id in another path is another question; paths are normalized', async () => {
    const a = await create({ id: 'twin', path: '/Math/Algebra/' });
    const b = await create({ id: 'twin', path: '/History' });
    expect(a.id).not.toBe(b.id);
    expect(a.path).toBe('/Math/Algebra');
    expect(a.scope).toBe(`folder:${author.user.id}:/Math/Algebra`);
    await refused(() => post({ id: 'x', type: 'generic', content: 'c', answer: 'a', path: 'API' }), 403, 'INVALID_ARGUMENT', 'path');
    await refused(() => post({ id: 'x', type: 'generic', content: 'c', answer: 'a', path: '/a//b' }), 403, 'INVALID_ARGUMENT', 'path');
  });

  it('ignores unknown fields and accepts form, JSON and multipart bodies', async () => {
    const form = await post({ id: 'form-1', type: 'generic', content: 'c', answer: 'a', colour: 'blue', foo_bar: '1' }, author, 'form');
    expect(form.status).toBe(200);
    const multi = await post({ id: 'multi-1', type: 'generic', content: 'c', answer: 'a' }, author, 'multipart');
    expect(multi.status).toBe(200);
    const row = await t.db.prisma.question.findUniqueOrThrow({ where: { id: form.body.question } });
    expect(row.data).toEqual({ questionFormat: 'NORMAL' });
  });

  it('stores every documented field, normalized', async () => {
    const row = await create({
      type: 'numerical',
      content: 'Half of {n}?',
      answer: '1/2&&&[0.4;0.6]',
      answer_order: '+',
      answer_hide: '-',
      answer_indefinite: '',
      answer_require: '1',
      question_format: 'latex',
      subject: 'Maths',
      category: 'Fractions',
      main_category: 'Arithmetic',
      difficulty: '4',
      ai: '',
      label: 'exam&&&easy',
      source: 'Book',
      note: 'Shown',
      private_note: 'Hidden',
      hint: 'Divide&&&By two',
      explanation: 'Because',
      solution: 'Step 1&&&Step 2',
      hint_penalty: 'each:10',
      solution_penalty: 'ONCE:50%',
      points: '2.5',
      parameters: '{n; INT; 1; 10}&&&{x; FLOAT; -1.5; 2}',
      decimals: '3',
      tolerance: 'relative:5%',
    });
    expect(row).toMatchObject({ type: 'numerical', answers: ['1/2', '[0.4;0.6]'], difficulty: 4 });
    expect(row.data).toEqual({
      answerOrder: true,
      answerRequire: 1,
      questionFormat: 'LATEX',
      subject: 'Maths',
      category: 'Fractions',
      mainCategory: 'Arithmetic',
      ai: true,
      label: ['exam', 'easy'],
      source: 'Book',
      note: 'Shown',
      privateNote: 'Hidden',
      hint: ['Divide', 'By two'],
      explanation: 'Because',
      solution: ['Step 1', 'Step 2'],
      hintPenalty: { mode: 'EACH', percent: 10 },
      solutionPenalty: { mode: 'ONCE', percent: 50 },
      points: 2.5,
      parameters: [
        { name: 'n', type: 'INT', min: 1, max: 10 },
        { name: 'x', type: 'FLOAT', min: -1.5, max: 2 },
      ],
      decimals: 3,
      tolerance: { type: 'RELATIVE', value: 0.05, synced: false },
    });
  });

  it('stores the type-specific fields and their defaults', async () => {
    expect((await create({ type: 'numerical', answer: '2' })).data).toMatchObject({ decimals: 2 });
    expect((await create({ type: 'date/time', answer: '1848-03-15' })).data).toMatchObject({ datetimePrecision: 'DAY' });
    expect((await create({ type: 'date/time', answer: '1848;1849', datetime_range: '+', datetime_precision: 'year' })).data).toMatchObject({
      datetimePrecision: 'YEAR',
      datetimeRange: true,
    });
    expect((await create({ type: 'file', answer: 'report', file_types: '.PDF, docx&&&pdf' })).data).toMatchObject({ fileCount: 1, fileTypes: ['pdf', 'docx'] });
    expect((await create({ type: 'file', answer: 'report', file_count: 25 })).data).toMatchObject({ fileCount: 25 });
    expect(
      (await create({ type: 'free-text', answer: 'essay', answer_format: 'CODE:python', freetext_characters: 500, freetext_words: '80', freetext_rules: 'cell|cells>>>50%&&&nucleus' })).data,
    ).toMatchObject({ answerFormat: 'code:python', freetextCharacters: 500, freetextWords: 80, freetextRules: 'cell|cells>>>50%&&&nucleus' });
    expect((await create({ type: 'multiple-choice', answer: ['a', 'b'], options: 'c&&&d', maximum_choices: 3, grouping: 7, options_fix: 'LAST:1' })).data).toMatchObject({
      maximumChoices: 3,
      grouping: 7,
      optionsFix: 'last:1',
    });
    expect((await create({ type: 'choice', answer: 'a', options: ['b', 'c'], options_order: 'OPTION:2&&&answer:1&&&OPTION_NONE:1' })).data).toMatchObject({
      optionsOrder: ['OPTION:2', 'ANSWER:1', 'OPTION_NONE:1'],
    });
    expect((await create({ type: 'true/false', answer: 'Sky is blue', options: 'Fire is cold', truefalse_third_options: 'Aliens exist', truefalse_third_options_label: 'Unknown' })).data).toMatchObject({
      truefalseThirdOption: true,
      truefalseThirdStatements: ['Aliens exist'],
      truefalseThirdOptionsLabel: 'Unknown',
    });
    expect((await create({ type: 'true/false', answer: 'Sky is blue', truefalse_third_options: '+' })).data).toMatchObject({ truefalseThirdOption: true });
    expect((await create({ type: 'true/false', answer: 'Sky is blue', truefalse_third_options_label: 'Maybe' })).data).toMatchObject({ truefalseThirdOption: true });
    expect((await create({ type: 'true/false', answer: 'Sky is blue', truefalse_third_options: '-' })).data).not.toHaveProperty('truefalseThirdOption');
    // '-' is "no" for any type, like a flag.
    expect((await create({ type: 'generic', truefalse_third_options: '-', datetime_range: '-' })).data).toEqual({ questionFormat: 'NORMAL' });
    expect((await create({ type: 'generic', answer: 'a&&&b', answer_label: 'First&&&Second' })).data).toMatchObject({ answerOrder: true, answerLabel: ['First', 'Second'] });
    expect((await create({ type: 'hotspot', answer: 'zone', hotspot_zones: '[{"x":1,"y":2,"r":3}]' })).data).toMatchObject({ hotspotZones: [{ x: 1, y: 2, r: 3 }] });
    expect((await create({ type: 'numerical', answer: '[1;2]', numerical_range: '+', tolerance: 'QUOTIENT2:1:SYNCED' })).data).toMatchObject({
      numericalRange: true,
      tolerance: { type: 'QUOTIENT2', value: 1, synced: true },
    });
  });

  it('takes answers and options as lists, pairs with >>>, matrices and sets', async () => {
    expect((await create({ type: 'pairing', answer: 'Paris>>>France&&&Rome>>>Italy', options: 'Spain' })).answers).toEqual(['Paris>>>France', 'Rome>>>Italy']);
    expect((await create({ type: 'grouping', answer: ['fruit>>>apple', 'veg>>>leek'] })).answers).toEqual(['fruit>>>apple', 'veg>>>leek']);
    expect((await create({ type: 'matrix', answer: '[1;2|3;4]', answer_require: 3 })).answers).toEqual(['[1;2|3;4]']);
    expect((await create({ type: 'matrix:expression', answer: '[x;2x|x^2;1]' })).answers).toEqual(['[x;2x|x^2;1]']);
    expect((await create({ type: 'matrix:generic', answer: '[a;b]' })).answers).toEqual(['[a;b]']);
    expect((await create({ type: 'set', answer: '[1;2;3]', answer_require: 3 })).answers).toEqual(['[1;2;3]']);
    expect((await create({ type: 'set:text', answer: '{red;green}' })).answers).toEqual(['{red;green}']);
    expect((await create({ type: 'expression', answer: '2x+1' })).answers).toEqual(['2x+1']);
    expect((await create({ type: 'order', answer: [1, 2, 3] })).answers).toEqual(['1', '2', '3']);
    expect((await create({ type: 'reading', answer: '-' })).type).toBe('reading');
  });

  const invalid: Array<[string, Record<string, unknown>, string, string?]> = [
    ['id', { id: '' }, 'id'],
    ['id too long', { id: 'x'.repeat(65) }, 'id'],
    ['type', { type: 'essay' }, 'type'],
    ['content', { content: '' }, 'content'],
    ['answer empty', { answer: '' }, 'answer'],
    ['answer empty item', { answer: 'a&&&&&&b' }, 'answer'],
    ['answer_order', { answer_order: 'yes' }, 'answer_order'],
    ['answer_hide', { answer_hide: 'x' }, 'answer_hide'],
    ['answer_indefinite', { answer_indefinite: '1' }, 'answer_indefinite'],
    ['answer_label count', { answer: 'a&&&b', answer_label: 'only one' }, 'answer_label'],
    ['answer_label type', { type: 'choice', answer_label: 'L' }, 'answer_label', 'ARGUMENT_CONFLICT'],
    ['answer_require zero', { answer_require: '0' }, 'answer_require'],
    ['answer_require above answers', { answer: 'a&&&b', answer_require: 3 }, 'answer_require'],
    ['answer_require choice', { type: 'choice', answer_require: 1 }, 'answer_require', 'ARGUMENT_CONFLICT'],
    ['answer_require free-text', { type: 'free-text', answer_require: 1 }, 'answer_require', 'ARGUMENT_CONFLICT'],
    ['answer_format type', { answer_format: 'code' }, 'answer_format', 'ARGUMENT_CONFLICT'],
    ['answer_format value', { type: 'free-text', answer_format: 'html' }, 'answer_format'],
    ['question_format', { question_format: 'HTML' }, 'question_format'],
    ['subject too long', { subject: 'x'.repeat(256) }, 'subject'],
    ['difficulty', { difficulty: 6 }, 'difficulty'],
    ['difficulty text', { difficulty: 'hard' }, 'difficulty'],
    ['options type', { options: 'b' }, 'options', 'ARGUMENT_CONFLICT'],
    ['options_fix', { type: 'choice', options: 'b', options_fix: 'middle' }, 'options_fix'],
    ['options_fix N', { type: 'choice', options: 'b', options_fix: 'first:3' }, 'options_fix'],
    ['options_order missing', { type: 'choice', options: 'b&&&c', options_order: 'ANSWER:1&&&OPTION:1' }, 'options_order'],
    ['options_order twice', { type: 'choice', options: 'b', options_order: 'ANSWER:1&&&OPTION:1&&&OPTION_NONE:1' }, 'options_order'],
    ['options_order range', { type: 'choice', options: 'b', options_order: 'ANSWER:1&&&OPTION:2' }, 'options_order'],
    ['options_order syntax', { type: 'choice', options: 'b', options_order: 'ANSWER-1&&&OPTION:1' }, 'options_order'],
    ['hint_penalty', { hint_penalty: 'ALWAYS:10' }, 'hint_penalty'],
    ['solution_penalty', { solution_penalty: 'EACH:150' }, 'solution_penalty'],
    ['points', { points: '-1' }, 'points'],
    ['parameters syntax', { parameters: 'n; INT; 1; 10' }, 'parameters'],
    ['parameters type', { parameters: '{n; TEXT; 1; 10}' }, 'parameters'],
    ['parameters order', { parameters: '{n; INT; 10; 1}' }, 'parameters'],
    ['parameters INT', { parameters: '{n; INT; 1.5; 10}' }, 'parameters'],
    ['parameters twice', { parameters: '{n; INT; 1; 2}&&&{n; FLOAT; 1; 2}' }, 'parameters'],
    ['decimals type', { decimals: 2 }, 'decimals', 'ARGUMENT_CONFLICT'],
    ['decimals range', { type: 'numerical', answer: '1', decimals: 11 }, 'decimals'],
    ['tolerance syntax', { type: 'numerical', answer: '1', tolerance: 'ABOUT:1' }, 'tolerance'],
    ['tolerance SYNCED', { type: 'numerical', answer: '1', tolerance: 'ABSOLUTE:1:SYNCED' }, 'tolerance'],
    ['tolerance type', { type: 'text', tolerance: 'ABSOLUTE:1' }, 'tolerance', 'ARGUMENT_CONFLICT'],
    ['datetime_precision type', { datetime_precision: 'DAY' }, 'datetime_precision', 'ARGUMENT_CONFLICT'],
    ['datetime_precision value', { type: 'date/time', answer: '2020', datetime_precision: 'HOUR' }, 'datetime_precision'],
    ['datetime_range type', { datetime_range: '+' }, 'datetime_range', 'ARGUMENT_CONFLICT'],
    ['maximum_choices type', { type: 'choice', options: 'b', maximum_choices: 1 }, 'maximum_choices', 'ARGUMENT_CONFLICT'],
    ['maximum_choices range', { type: 'multiple-choice', options: 'b', maximum_choices: 3 }, 'maximum_choices'],
    ['grouping type', { grouping: 1 }, 'grouping', 'ARGUMENT_CONFLICT'],
    ['grouping value', { type: 'choice', grouping: 'one' }, 'grouping'],
    ['truefalse_third_options type', { truefalse_third_options: '+' }, 'truefalse_third_options', 'ARGUMENT_CONFLICT'],
    ['truefalse_third_options_label type', { truefalse_third_options_label: 'Maybe' }, 'truefalse_third_options_label', 'ARGUMENT_CONFLICT'],
    ['freetext_characters type', { freetext_characters: 10 }, 'freetext_characters', 'ARGUMENT_CONFLICT'],
    ['freetext_words', { type: 'free-text', freetext_words: 0 }, 'freetext_words'],
    ['freetext_rules', { type: 'free-text', freetext_rules: 'a>>>x' }, 'freetext_rules'],
    ['file_count type', { file_count: 1 }, 'file_count', 'ARGUMENT_CONFLICT'],
    ['file_count range', { type: 'file', file_count: 26 }, 'file_count'],
    ['file_count zero', { type: 'file', file_count: 0 }, 'file_count'],
    ['file_types', { type: 'file', file_types: 'pdf, not an extension' }, 'file_types'],
    ['file_types type', { file_types: 'pdf' }, 'file_types', 'ARGUMENT_CONFLICT'],
    ['hotspot_zones type', { hotspot_zones: '[{"x":1}]' }, 'hotspot_zones', 'ARGUMENT_CONFLICT'],
    ['numerical answer', { type: 'numerical', answer: 'about five' }, 'answer'],
    ['numerical_range answer', { type: 'numerical', answer: '5', numerical_range: '+' }, 'answer'],
    ['date answer', { type: 'date/time', answer: '2023-02-29' }, 'answer'],
    ['date range answer', { type: 'date/time', answer: '2020;2010', datetime_range: '+' }, 'answer'],
    ['expression answer', { type: 'expression', answer: '2x+' }, 'answer'],
    ['choice answers', { type: 'choice', answer: 'a&&&b' }, 'answer'],
    ['order answers', { type: 'order', answer: 'a' }, 'answer'],
    ['pairing answer', { type: 'pairing', answer: 'a>>>b&&&c' }, 'answer'],
    ['grouping answer', { type: 'grouping', answer: 'a>>>b>>>c' }, 'answer'],
    ['matrix syntax', { type: 'matrix', answer: '[1;2|3]' }, 'answer'],
    ['matrix numbers', { type: 'matrix', answer: '[1;x]' }, 'answer'],
    ['matrix:expression cells', { type: 'matrix:expression', answer: '[x;)]' }, 'answer'],
    ['set numbers', { type: 'set', answer: '[1;a]' }, 'answer'],
    ['set syntax', { type: 'set:text', answer: '[a;;b]' }, 'answer'],
    ['duplicate option', { type: 'multiple-choice', answer: 'a', options: 'b&&&a' }, 'options'],
    ['organization', { organization: 'org_doesnotexist' }, 'organization', 'NOT_FOUND'],
    ['quiz', { quiz: 'qz_doesnotexist' }, 'quiz', 'NOT_FOUND'],
    ['tags', { tags: 'never registered' }, 'tags', 'NOT_FOUND'],
  ];
  it.each(invalid)('refuses an invalid %s with 403 naming the field, writing nothing', async (_name, change, argument, code = 'INVALID_ARGUMENT') => {
    await refused(() => post({ ...valid, ...change }, author, 'json'), 403, code, argument);
  });

  it('names a missing required field', async () => {
    for (const field of ['id', 'type', 'content', 'answer']) {
      const args: Record<string, unknown> = { ...valid };
      delete args[field];
      await refused(() => post(args), 403, 'MISSING_ARGUMENT', field);
    }
  });

  it('resolves tags registered beforehand by title, external id or identification string', async () => {
    const tag = { id: await seed(t).as(author).tag({ title: 'Algebra', externalId: 'alg' }) };
    const other = { id: await seed(t).as(stranger).tag({ title: 'Secret' }) };
    expect((await create({ tags: 'Algebra&&&alg' })).data).toMatchObject({ tags: [tag.id] });
    expect((await create({ tags: [tag.id] })).data).toMatchObject({ tags: [tag.id] });
    // A tag of someone else the caller may not view is unknown to it.
    await refused(() => post({ ...valid, tags: other.id }), 403, 'NOT_FOUND', 'tags');
  });
});

describe('organization of a question', () => {
  it('places the question in an organization of the caller, and only the owner moves or removes it', async () => {
    const row = await create({ organization: orgId });
    expect(row.organizationId).toBe(orgId);
    // Left out on update: unchanged.
    expect((await create({ id: row.externalId })).organizationId).toBe(orgId);
    expect((await create({ id: row.externalId, organization: 'none' })).organizationId).toBeNull();
    expect((await create({ id: row.externalId, organization: orgId })).organizationId).toBe(orgId);
    expect((await create({ id: row.externalId, organization: '' })).organizationId).toBeNull();
    // An organization the caller may not view is unknown to it.
    await refused(() => post({ ...valid, id: nextId(), organization: orgId }, stranger), 403, 'NOT_FOUND', 'organization');
  });

  it('puts the questions of an organizational member in its organization whatever it asks', async () => {
    const plainOrg = (await seed(t).as(author).organization({ title: 'Club' })).id;
    await seed(t).admin.addMembers(plainOrg, [member]);
    expect((await create({}, member)).organizationId).toBe(plainOrg);
  });
});

describe('GET question', () => {
  it('answers question, id and active from the caller’s folders; path or quiz resolves an id used in several places', async () => {
    const a = await create({ id: 'shared-id', path: '/One' });
    const b = await create({ id: 'shared-id', path: '/Two' });
    const r = await t.rpc('GET', 'question', { id: 'shared-id', path: '/Two' }, { as: author });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ question: b.id, id: 'shared-id', active: true });
    expect((await t.rpc('GET', 'question', { id: 'shared-id', path: '/One/' }, { as: author })).body.question).toBe(a.id);
    const ambiguous = await t.rpc('GET', 'question', { id: 'shared-id' }, { as: author });
    expectError(ambiguous, 403, 'AMBIGUOUS_ID', 'path');
    expect(ambiguous.error).toContain('/One, /Two');
    const single = await create({ id: 'only-once', path: '/Deep/Folder' });
    expect((await t.rpc('GET', 'question', { id: 'only-once' }, { as: author })).body).toEqual({ question: single.id, id: 'only-once', active: true });
    // External ids are the caller's own: another user does not find them.
    expectError(await t.rpc('GET', 'question', { id: 'only-once' }, { as: stranger }), 403, 'NOT_FOUND', 'id');
    expectError(await t.rpc('GET', 'question', {}, { as: author }), 403, 'MISSING_ARGUMENT', 'id');
  });
});

describe('questions in a Quiz set', () => {
  it('creates and updates within the Quiz set scope, adds the question to the Quiz set, and needs modify on it', async () => {
    const quiz = await makeQuiz(author);
    const r = await post({ ...valid, id: 'in-quiz', quiz: quiz.id }, author, 'json');
    expect(r.status).toBe(200);
    const row = await t.db.prisma.question.findUniqueOrThrow({ where: { id: r.body.question } });
    expect(row.scope).toBe(`quiz:${quiz.id}`);
    expect(await t.db.prisma.quizItem.findMany({ where: { quizId: quiz.id } })).toEqual([expect.objectContaining({ questionId: row.id, groupId: null, position: 1 })]);
    // The same id in the caller's folder is another question.
    const folder = await create({ id: 'in-quiz' });
    expect(folder.id).not.toBe(row.id);
    // Updating keeps one item.
    expect((await post({ ...valid, id: 'in-quiz', quiz: quiz.id, content: 'changed' }, author, 'json')).body.question).toBe(row.id);
    expect(await t.db.prisma.quizItem.count({ where: { quizId: quiz.id } })).toBe(1);
    expect((await t.rpc('GET', 'question', { id: 'in-quiz', quiz: quiz.id }, { as: author })).body).toEqual({ question: row.id, id: 'in-quiz', active: true });

    await refused(() => post({ ...valid, id: 'in-quiz', quiz: quiz.id }, stranger), 403, 'NOT_FOUND');
    // A granted modify rule on the Quiz set lets another user write its questions.
    await grantQuiz(quiz.id, stranger, 'view');
    await refused(() => post({ ...valid, id: 'in-quiz', quiz: quiz.id }, stranger), 403, 'PERMISSION_DENIED');
    expect((await t.rpc('GET', 'question', { id: 'in-quiz', quiz: quiz.id }, { as: stranger })).body.question).toBe(row.id);
    await grantQuiz(quiz.id, stranger, 'modify');
    expect((await post({ ...valid, id: 'in-quiz', quiz: quiz.id, content: 'by editor' }, stranger, 'json')).body.question).toBe(row.id);
    expect((await t.db.prisma.question.findUniqueOrThrow({ where: { id: row.id } })).ownerId).toBe(author.user.id);
  });
});

describe('a question kept in a Quiz set, by its documented id alone', () => {
  it('GET, question:export and DELETE find it by id without quiz or path; an id used in several places is refused naming them', async () => {
    const keeper = await t.newCaller('quiz-keeper');
    const quiz = await makeQuiz(keeper);
    const made = await post({ ...valid, id: 'kept-in-quiz', quiz: quiz.id }, keeper, 'json');
    expect(made.status).toBe(200);
    const got = await t.rpc('GET', 'question', { id: 'kept-in-quiz' }, { as: keeper });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ question: made.body.question, id: 'kept-in-quiz', active: true });
    expect(Object.keys(got.body)).toEqual(['question', 'id', 'active']);
    const exported = await t.rpc('POST', 'question:export', { id: 'kept-in-quiz' }, { as: keeper });
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ id: 'kept-in-quiz', question: made.body.question });

    // Someone who may not act on that Quiz set does not find it.
    expectError(await t.rpc('GET', 'question', { id: 'kept-in-quiz' }, { as: stranger }), 403, 'NOT_FOUND', 'id');

    // The same id in a folder and in a second Quiz set: ambiguous, each narrowing picks one.
    const folder = await create({ id: 'kept-in-quiz', path: '/Mine' }, keeper);
    const second = await makeQuiz(keeper);
    const other = await post({ ...valid, id: 'kept-in-quiz', quiz: second.id }, keeper, 'json');
    const ambiguous = await t.rpc('GET', 'question', { id: 'kept-in-quiz' }, { as: keeper });
    expectError(ambiguous, 403, 'AMBIGUOUS_ID', 'quiz');
    expect(ambiguous.error).toContain('/Mine');
    expect(ambiguous.error).toContain(quiz.id);
    expect(ambiguous.error).toContain(second.id);
    await refused(() => t.rpc('DELETE', 'question', { id: 'kept-in-quiz' }, { as: keeper }), 403, 'AMBIGUOUS_ID', 'quiz');
    expect((await t.rpc('GET', 'question', { id: 'kept-in-quiz', path: '/Mine' }, { as: keeper })).body.question).toBe(folder.id);
    expect((await t.rpc('GET', 'question', { id: 'kept-in-quiz', quiz: second.id }, { as: keeper })).body.question).toBe(other.body.question);

    // Deleted from the second Quiz set and the folder, the id is the first Quiz set's again.
    expect((await t.rpc('DELETE', 'question', { id: 'kept-in-quiz', quiz: second.id }, { as: keeper })).status).toBe(200);
    expect((await t.rpc('DELETE', 'question', { id: 'kept-in-quiz', path: '/Mine' }, { as: keeper })).status).toBe(200);
    expect((await t.rpc('DELETE', 'question', { id: 'kept-in-quiz' }, { as: keeper })).status).toBe(200);
    expect(await t.db.prisma.question.findUnique({ where: { id: made.body.question } })).toBeNull();
  });
});

describe('GET questions', () => {
  it('lists own questions, those of organizations with a content level, and those in viewable Quiz sets', async () => {
    const lister = await t.newCaller('lister');
    const own = await create({ id: 'own-1', content: 'Own question' }, lister);
    const orgQuestion = await create({ id: 'org-1', organization: orgId });
    const quiz = await makeQuiz(author);
    const inQuiz = await create({ id: 'quiz-1', quiz: quiz.id });
    await grantQuiz(quiz.id, lister, 'view');

    const mine = await t.rpc('GET', 'questions', { limit: 1000 }, { as: lister });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      questions: [
        { question: own.id, id: 'own-1' },
        { question: inQuiz.id, id: 'quiz-1' },
      ],
    });
    const ids = async (as: Caller) => ((await t.rpc('GET', 'questions', { limit: 1000 }, { as })).body.questions as { question: string }[]).map((q) => q.question);
    expect(await ids(viewer)).toContain(orgQuestion.id);
    expect(await ids(viewer)).not.toContain(own.id);
    expect(await ids(stranger)).not.toContain(orgQuestion.id);
    expect(await ids(t.admin)).toEqual(expect.arrayContaining([own.id, orgQuestion.id, inQuiz.id]));
  });

  it('pages with limit and page, and searches the external id and the text', async () => {
    const pager = await t.newCaller('qpager');
    for (let i = 1; i <= 18; i++) await create({ id: `page-${String(i).padStart(2, '0')}`, content: i === 7 ? 'The seventh' : 'Other' }, pager);
    const first = await t.rpc('GET', 'questions', {}, { as: pager });
    expect(first.body.questions).toHaveLength(16);
    const second = await t.rpc('GET', 'questions', { limit: 5, page: 2 }, { as: pager });
    expect(second.body.questions.map((q: { id: string }) => q.id)).toEqual(['page-06', 'page-07', 'page-08', 'page-09', 'page-10']);
    expect((await t.rpc('GET', 'questions', { search: 'SEVENTH' }, { as: pager })).body.questions.map((q: { id: string }) => q.id)).toEqual(['page-07']);
    expect((await t.rpc('GET', 'questions', { search: 'page-1', limit: 2, page: 3 }, { as: pager })).body.questions.map((q: { id: string }) => q.id)).toEqual([
      'page-10',
      'page-11',
    ]);
    expectError(await t.rpc('GET', 'questions', { limit: 0 }, { as: pager }), 403, 'INVALID_ARGUMENT', 'limit');
  });
});

describe('question:id', () => {
  it('reads and sets the external id; an id taken in the same scope is refused', async () => {
    // In the organization, whose members (viewer) may view it.
    const row = await create({ id: 'old-id', path: '/Ids', organization: orgId });
    await create({ id: 'taken-id', path: '/Ids' });
    const elsewhere = await create({ id: 'free-here', path: '/Other' });
    const read = await t.rpc('GET', 'question:id', { question: row.id }, { as: author });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ question: row.id, id: 'old-id' });

    await refused(() => t.rpc('POST', 'question:id', { question: row.id, id: 'taken-id' }, { as: author }), 403, 'ID_TAKEN', 'id');
    const set = await t.rpc('POST', 'question:id', { question: row.id, id: 'free-here' }, { as: author });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ question: row.id, id: 'free-here', success: true });
    expect((await t.rpc('GET', 'question', { id: 'free-here', path: '/Ids' }, { as: author })).body.question).toBe(row.id);
    expect(elsewhere.externalId).toBe('free-here');

    await refused(() => t.rpc('POST', 'question:id', { question: row.id, id: '' }, { as: author }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(() => t.rpc('POST', 'question:id', { question: row.id, id: 'x'.repeat(65) }, { as: author }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(() => t.rpc('POST', 'question:id', { question: row.id, id: 'mine' }, { as: viewer }), 403, 'PERMISSION_DENIED');
    // To a caller who may not view it, the question is unknown.
    expectError(await t.rpc('GET', 'question:id', { question: row.id }, { as: stranger }), 403, 'NOT_FOUND', 'question');
    expectError(await t.rpc('POST', 'question:id', { question: row.id, id: 'mine' }, { as: stranger }), 403, 'NOT_FOUND', 'question');
    expectError(await t.rpc('GET', 'question:id', { question: 'qst_missing' }, { as: author }), 403, 'NOT_FOUND', 'question');
  });
});

describe('DELETE question', () => {
  it('deletes permanently, with its Quiz set items and stored files', async () => {
    const quiz = await makeQuiz(author);
    const row = await create({ id: 'doomed', quiz: quiz.id, attachment: `notes.txt=${Buffer.from('hello').toString('base64')}` });
    const fileIds = (await t.db.prisma.questionMedia.findMany({ where: { questionId: row.id } })).map((m) => m.fileId);
    expect(fileIds).toHaveLength(1);
    await refused(() => t.rpc('DELETE', 'question', { id: 'doomed', quiz: quiz.id }, { as: stranger }), 403, 'NOT_FOUND');
    const r = await t.rpc('DELETE', 'question', { id: 'doomed', quiz: quiz.id }, { as: author });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ question: row.id, id: 'doomed', success: true });
    expect(await t.db.prisma.question.findUnique({ where: { id: row.id } })).toBeNull();
    expect(await t.db.prisma.quizItem.count({ where: { questionId: row.id } })).toBe(0);
    expect(await t.db.prisma.storedFile.count({ where: { id: { in: fileIds } } })).toBe(0);
    expectError(await t.rpc('DELETE', 'question', { id: 'doomed', quiz: quiz.id }, { as: author }), 403, 'NOT_FOUND', 'id');
  });
});

describe('question:export', () => {
  it('hands out a link to a JSON export, the same while valid, readable without credentials', async () => {
    const row = await create({ id: 'exported', type: 'numerical', answer: '3/4', tolerance: 'ABSOLUTE:0.1', subject: 'Maths', hint: 'h1&&&h2', path: '/Export' });
    const r = await t.rpc('POST', 'question:export', { id: 'exported', path: '/Export' }, { as: author });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: 'exported', question: row.id, url: expect.stringMatching(new RegExp(`^${BASE_URL}/files/[a-z0-9]{40}$`)), valid: expect.stringMatching(DATE) });
    const days = (Date.parse(r.body.valid) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000;
    expect(days).toBe(7);
    const again = await t.rpc('POST', 'question:export', { id: 'exported', path: '/Export' }, { as: author });
    expect(again.body).toEqual(r.body);
    expect(await t.db.prisma.questionExport.count({ where: { questionId: row.id } })).toBe(1);

    const file = await t.app.fetch(new Request(r.body.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="question-qst_[a-z0-9]+\.json"$/);
    const json = await file.json();
    expect(json).toMatchObject({
      question: row.id,
      id: 'exported',
      type: 'numerical',
      content: 'What?',
      answer: ['3/4'],
      path: '/Export',
      tolerance: 'ABSOLUTE:0.1',
      decimals: 2,
      subject: 'Maths',
      hint: ['h1', 'h2'],
      question_format: 'NORMAL',
    });

    // The export is in the fields of POST question: posting it elsewhere copies the question.
    const copy = await post({ ...json, path: '/Copies' }, author, 'json');
    expect(copy.status).toBe(200);
    const copied = await t.db.prisma.question.findUniqueOrThrow({ where: { id: copy.body.question } });
    expect(copied).toMatchObject({ externalId: 'exported', path: '/Copies', type: row.type, content: row.content, answers: row.answers, data: row.data });

    // A write drops the link: it held the old text.
    await create({ id: 'exported', type: 'numerical', answer: '1', path: '/Export' });
    expect((await t.app.fetch(new Request(r.body.url))).status).toBe(404);
    const fresh = await t.rpc('POST', 'question:export', { id: 'exported', path: '/Export' }, { as: author });
    expect(fresh.body.url).not.toBe(r.body.url);

    // An expired link answers 410 and is not handed out again.
    await t.db.prisma.questionExport.updateMany({ where: { questionId: row.id }, data: { validUntil: new Date(Date.now() - 1000) } });
    expect((await t.app.fetch(new Request(fresh.body.url))).status).toBe(410);
    expect((await t.rpc('POST', 'question:export', { id: 'exported', path: '/Export' }, { as: author })).body.url).not.toBe(fresh.body.url);
    // The expired link is gone with its file.
    expect(await t.db.prisma.questionExport.count({ where: { questionId: row.id } })).toBe(1);
    expect(await t.db.prisma.storedFile.count({ where: { filename: `question-${row.id}.json` } })).toBe(1);
    expect((await t.app.fetch(new Request(`${BASE_URL}/files/${'a'.repeat(40)}`))).status).toBe(404);
  });

  it('needs report on the question', async () => {
    const quiz = await makeQuiz(author);
    await create({ id: 'report-me', quiz: quiz.id });
    await grantQuiz(quiz.id, stranger, 'view');
    await refused(() => t.rpc('POST', 'question:export', { id: 'report-me', quiz: quiz.id }, { as: stranger }), 403, 'PERMISSION_DENIED');
    await grantQuiz(quiz.id, stranger, 'report');
    expect((await t.rpc('POST', 'question:export', { id: 'report-me', quiz: quiz.id }, { as: stranger })).status).toBe(200);
  });
});

describe('storage and the answer checker agree', () => {
  const cases: Array<[string, Record<string, unknown>, Response, Response]> = [
    ['generic', { type: 'generic', answer: 'Paris' }, 'Paris', 'paris'],
    ['text', { type: 'text', answer: 'New York' }, 'new-york!', 'York'],
    ['numerical', { type: 'numerical', answer: '3/4', tolerance: 'ABSOLUTE:0.01' }, '0.755', '0.8'],
    ['date/time', { type: 'date/time', answer: '1848-03-15', datetime_precision: 'MONTH' }, '1848-03-01', '1849-03-15'],
    ['expression', { type: 'expression', answer: '2(x+1)' }, '2x+2', 'x+2'],
    ['choice', { type: 'choice', answer: 'Blue', options: 'Red&&&Green' }, 'Blue', 'Red'],
    ['multiple-choice', { type: 'multiple-choice', answer: 'A&&&B', options: 'C', answer_require: 1 }, ['A'], ['C']],
    ['order', { type: 'order', answer: 'one&&&two&&&three' }, ['one', 'two', 'three'], ['two', 'one', 'three']],
    ['pairing', { type: 'pairing', answer: 'Paris>>>France&&&Rome>>>Italy' }, { Paris: 'France', Rome: 'Italy' }, { Paris: 'Italy', Rome: 'France' }],
    ['grouping', { type: 'grouping', answer: 'fruit>>>apple&&&veg>>>leek' }, ['fruit>>>apple', 'veg>>>leek'], ['veg>>>apple']],
    ['true/false', { type: 'true/false', answer: 'Sky is blue', options: 'Fire is cold', truefalse_third_options: 'Aliens exist' }, [true, false, 'unknown'], [true, true, 'unknown']],
    ['matrix', { type: 'matrix', answer: '[1;2|3;4]' }, '[1;2|3;4]', '[1;2|3;5]'],
    ['set:text', { type: 'set:text', answer: '[red;green]' }, ['green', 'red'], ['red', 'blue']],
    ['numerical with labels', { type: 'numerical', answer: '1&&&2', answer_label: 'x&&&y' }, ['1', '2'], ['2', '1']],
  ];
  it.each(cases)('%s: a right response scores 1 and a wrong one less', async (_name, fields, right, wrong) => {
    const row = await create({ ...fields, points: 2 });
    const checkable = toCheckable(row);
    expect(checkAnswer(checkable, right)).toMatchObject({ score: 1, correct: true, points: 2, pointsMaximum: 2 });
    const bad = checkAnswer(checkable, wrong);
    expect(bad.correct).toBe(false);
    expect(bad.score).toBeLessThan(1);
  });

  it('free-text is semi-automatic with the stored keyword rules', async () => {
    const row = await create({ type: 'free-text', answer: 'essay', freetext_rules: 'cell>>>50%&&&nucleus>>>50%' });
    expect(checkAnswer(toCheckable(row), 'The cell has a nucleus.')).toMatchObject({ score: 1, correct: null, grading: 'semi-automatic' });
  });
});
