import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/organizations.ts';
import { addMember, newOrganization, newQuiz, ok, refused } from '../helpers/quiz-seed.ts';
import { newId } from '../../src/ids.ts';
import { newExam } from '../helpers/exam-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const SUMMARY_KEYS = ['preset', 'title', 'type', 'language', 'configurable', 'certificates', 'own', 'organization'];
const GLOBAL = ['gp_passfail', 'gp_passfail_en', 'gp_passfail_de', 'gp_passfail_hu', 'gp_hu_school', 'gp_hu_university', 'gp_letters_en', 'gp_noten_de'];

const passFail = [
  { threshold: 0, grade: 'fail', text: '*Failed*' },
  { threshold: 40, grade: 'pass', text: '*Passed*   Well done' },
];
const fiveGrades = [0, 20, 40, 60, 80].map((threshold) => ({ threshold }));
const letters = [
  { grade: 'C' },
  { threshold: 50, grade: 'B' },
  { threshold: 75.5, grade: 'A', text: 'Top' },
];

/** Creates a custom preset through the contract (grades as JSON text, as forms send them). */
async function newPreset(as: Caller, args: Record<string, unknown> = {}): Promise<string> {
  const body = await ok(t, 'POST', 'quiz:grading-preset', { title: 'Mine', type: 'custom', grades: JSON.stringify(letters), ...args }, as);
  expect(Object.keys(body)).toEqual(['preset']);
  expect(body.preset).toMatch(/^gp_[a-z0-9]+$/);
  return body.preset;
}

const presetRow = (id: string) => t.db.prisma.gradingPreset.findUniqueOrThrow({ where: { id } });
const useOn = (quiz: string, grading: string) => t.db.prisma.quizSet.update({ where: { id: quiz }, data: { grading } });

/** Written directly: no operation makes a preset of an organization. */
async function organizationPreset(organizationId: string, language: string | null = null): Promise<string> {
  const p = await t.db.prisma.gradingPreset.create({
    data: { id: newId('GradingPreset'), title: 'Company pass mark', type: 'go-nogo-custom', language, organizationId, grades: passFail },
  });
  return p.id;
}

describe('the global presets shipped with the service', () => {
  it('are read by anyone, with their grades, the first at threshold 0', async () => {
    const reader = await t.newCaller('shipped-reader');
    const school = await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_hu_school' }, reader);
    expect(Object.keys(school)).toEqual([...SUMMARY_KEYS, 'used', 'grades']);
    expect(school).toMatchObject({ preset: 'gp_hu_school', type: 'hungarian-school', language: 'hu', configurable: false, certificates: true, own: false, organization: null, used: false });
    expect(school.grades.map((g: any) => g.grade)).toEqual(['1', '2', '3', '4', '5']);
    expect(school.grades[0]).toEqual({ threshold: 0, grade: '1', text: '*Elégtelen (1)*' });

    const passfail = await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_passfail' }, reader);
    expect(passfail).toMatchObject({ type: 'go-nogo-custom', language: null, configurable: true, certificates: true });
    expect(passfail.grades).toEqual([
      { threshold: 0, grade: 'fail', text: '*Failed*' },
      { threshold: 50, grade: 'pass', text: '*Passed*' },
    ]);

    const letterGrades = await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_letters_en' }, reader);
    expect(letterGrades).toMatchObject({ type: 'custom', configurable: false, certificates: false, successful_all: false });
    expect(letterGrades.grades[0]).toEqual({ threshold: 0, grade: 'F' });
  });

  it('cannot be modified or removed, even by an administrator', async () => {
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: 'gp_passfail', title: 'Mine now' }), 403, 'PRESET_READ_ONLY');
    await refused(t, () => t.rpc('DELETE', 'quiz:grading-preset', { preset: 'gp_passfail' }), 403, 'PRESET_READ_ONLY');
  });
});

describe('GET quiz:grading-presets', () => {
  it('lists global, own and the caller organizations presets, never other users own ones', async () => {
    const me = await t.newCaller('list-me');
    const other = await t.newCaller('list-other');
    const mine = await newPreset(me, { title: 'Alpha', language: 'none' });
    const theirs = await newPreset(other);
    const org = await newOrganization(t, 'List org', null);
    await addMember(t, org, me);
    const orgPreset = await organizationPreset(org);
    const foreignOrg = await organizationPreset(await newOrganization(t, 'Foreign org', other));

    const body = await ok(t, 'GET', 'quiz:grading-presets', {}, me);
    expect(Object.keys(body)).toEqual(['presets']);
    const ids = body.presets.map((p: any) => p.preset);
    // Global presets first, then those of organizations, then own ones.
    expect(ids.slice(0, GLOBAL.length).sort()).toEqual([...GLOBAL].sort());
    expect(ids.slice(GLOBAL.length)).toEqual([orgPreset, mine]);
    expect(ids).not.toContain(theirs);
    expect(ids).not.toContain(foreignOrg);
    for (const p of body.presets) expect(Object.keys(p)).toEqual(SUMMARY_KEYS);
    expect(body.presets.find((p: any) => p.preset === mine)).toEqual({
      preset: mine, title: 'Alpha', type: 'custom', language: null, configurable: false, certificates: false, own: true, organization: null,
    });
    expect(body.presets.find((p: any) => p.preset === orgPreset)).toMatchObject({ own: false, organization: org, configurable: true });
    // The owner of an organization uses its presets too.
    const owner = await t.newCaller('list-org-owner');
    const owned = await newOrganization(t, 'Owned org', owner);
    const ownedPreset = await organizationPreset(owned);
    expect((await ok(t, 'GET', 'quiz:grading-presets', {}, owner)).presets.map((p: any) => p.preset)).toContain(ownedPreset);
  });

  it('filters by language (default: the language of the given Quiz set), always keeping presets without one, and marks the current one', async () => {
    const me = await t.newCaller('lang-me');
    const quiz = await newQuiz(t, me, { language: 'hu' });
    const body = await ok(t, 'GET', 'quiz:grading-presets', { quiz }, me);
    expect(Object.keys(body)).toEqual(['quiz', 'presets']);
    expect(body.quiz).toBe(quiz);
    expect(body.presets.map((p: any) => p.preset).sort()).toEqual(['gp_hu_school', 'gp_hu_university', 'gp_passfail', 'gp_passfail_hu']);
    for (const p of body.presets) {
      expect(Object.keys(p)).toEqual([...SUMMARY_KEYS, 'current']);
      expect(p.current).toBe(false);
    }

    await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_hu_school' }, me);
    const marked = await ok(t, 'GET', 'quiz:grading-presets', { quiz }, me);
    expect(marked.presets.filter((p: any) => p.current).map((p: any) => p.preset)).toEqual(['gp_hu_school']);

    const german = await ok(t, 'GET', 'quiz:grading-presets', { quiz, language: 'de' }, me);
    expect(german.presets.map((p: any) => p.preset).sort()).toEqual(['gp_noten_de', 'gp_passfail', 'gp_passfail_de']);
    const english = await ok(t, 'GET', 'quiz:grading-presets', { language: 'en' }, me);
    expect(english.presets.map((p: any) => p.preset).sort()).toEqual(['gp_letters_en', 'gp_passfail', 'gp_passfail_en']);
    expect(english.presets[0]).not.toHaveProperty('current');
  });

  it('for an exam: answers the exam, filters by its language and marks the preset it plays by (its own, or its Quiz set\'s under default)', async () => {
    const me = await t.newCaller('list-exam');
    const quiz = await newQuiz(t, me, { language: 'en' });
    await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_letters_en' }, me);
    const exam = await newExam(t, me, { quiz, language: 'de' });

    const body = await ok(t, 'GET', 'quiz:grading-presets', { exam }, me);
    expect(Object.keys(body)).toEqual(['exam', 'presets']);
    expect(body.exam).toBe(exam);
    // The exam's language (de), not its Quiz set's (en).
    expect(body.presets.map((p: any) => p.preset).sort()).toEqual(['gp_noten_de', 'gp_passfail', 'gp_passfail_de']);
    for (const p of body.presets) {
      expect(Object.keys(p)).toEqual([...SUMMARY_KEYS, 'current']);
      expect(typeof p.current).toBe('boolean');
    }
    // No grading of its own: the Quiz set's (not in this language's list, so nothing is current).
    expect(body.presets.filter((p: any) => p.current)).toEqual([]);
    const english = await ok(t, 'GET', 'quiz:grading-presets', { exam, language: 'en' }, me);
    expect(english.presets.filter((p: any) => p.current).map((p: any) => p.preset)).toEqual(['gp_letters_en']);

    await ok(t, 'POST', 'exam:settings', { exam, grading: 'gp_noten_de' }, me);
    const own = await ok(t, 'GET', 'quiz:grading-presets', { exam }, me);
    expect(own.presets.filter((p: any) => p.current).map((p: any) => p.preset)).toEqual(['gp_noten_de']);
    await ok(t, 'POST', 'exam:settings', { exam, grading: 'none' }, me);
    expect((await ok(t, 'GET', 'quiz:grading-presets', { exam }, me)).presets.filter((p: any) => p.current)).toEqual([]);

    // An exam the caller may not view is unknown.
    const stranger = await t.newCaller('list-exam-stranger');
    expectError(await t.rpc('GET', 'quiz:grading-presets', { exam }, { as: stranger }), 403, 'NOT_FOUND', 'exam');
  });

  it('takes a quiz or an exam, not both; exams are unknown; the Quiz set must be viewable', async () => {
    const me = await t.newCaller('list-args');
    const quiz = await newQuiz(t, me);
    expectError(await t.rpc('GET', 'quiz:grading-presets', { exam: 'exm_nothing' }, { as: me }), 403, 'NOT_FOUND', 'exam');
    expectError(await t.rpc('GET', 'quiz:grading-presets', { quiz, exam: 'exm_nothing' }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'exam');
    expectError(await t.rpc('GET', 'quiz:grading-presets', { quiz: 'qz_nothing' }, { as: me }), 403, 'NOT_FOUND', 'quiz');
    const stranger = await t.newCaller('list-stranger');
    expectError(await t.rpc('GET', 'quiz:grading-presets', { quiz }, { as: stranger }), 403, 'NOT_FOUND');
  });
});

describe('POST quiz:grading-preset', () => {
  it('creates an own custom preset: first threshold ignored and set to 0, language of the owner, successful_all false', async () => {
    const me = await t.newCaller('create-me');
    await t.db.prisma.user.update({ where: { id: me.user.id }, data: { language: 'de' } });
    const id = await newPreset(me, { title: 'Letters' });
    const body = await ok(t, 'GET', 'quiz:grading-preset', { preset: id }, me);
    expect(body).toEqual({
      preset: id,
      title: 'Letters',
      type: 'custom',
      language: 'de',
      configurable: false,
      certificates: false,
      own: true,
      organization: null,
      used: false,
      grades: [
        { threshold: 0, grade: 'C' },
        { threshold: 50, grade: 'B' },
        { threshold: 75.5, grade: 'A', text: 'Top' },
      ],
      successful_all: false,
    });
    const row = await presetRow(id);
    expect(row).toMatchObject({ ownerId: me.user.id, organizationId: null, global: false });
  });

  it('accepts grades as a JSON list, successful_all for custom presets, and names the fixed types grades itself', async () => {
    const me = await t.newCaller('create-json');
    const custom = await ok(t, 'POST', 'quiz:grading-preset', { title: 'All pass', type: 'custom', grades: letters, successful_all: true, language: 'en' }, me, 'json');
    const read = await ok(t, 'GET', 'quiz:grading-preset', { preset: custom.preset }, me);
    expect(read).toMatchObject({ successful_all: true, certificates: true, language: 'en' });

    const gonogo = await ok(t, 'POST', 'quiz:grading-preset', { title: 'Go', type: 'go-nogo-custom', grades: [{ threshold: 99, grade: 'x' }, { threshold: 60, grade: 'y', text: '**Yes**' }] }, me, 'json');
    const g = await ok(t, 'GET', 'quiz:grading-preset', { preset: gonogo.preset }, me);
    expect(g).toMatchObject({ configurable: true, certificates: true });
    expect(g.grades).toEqual([
      { threshold: 0, grade: 'fail' },
      { threshold: 60, grade: 'pass', text: '**Yes**' },
    ]);
    expect(g).not.toHaveProperty('successful_all');

    for (const type of ['hungarian-school', 'hungarian-university']) {
      const made = await ok(t, 'POST', 'quiz:grading-preset', { title: type, type, grades: JSON.stringify(fiveGrades) }, me);
      const h = await ok(t, 'GET', 'quiz:grading-preset', { preset: made.preset }, me);
      expect(h.grades.map((x: any) => x.grade)).toEqual(['1', '2', '3', '4', '5']);
      expect(h).toMatchObject({ type, configurable: false, certificates: true });
    }
  });

  it('refuses wrong item counts, thresholds and grades, naming the argument, and writes nothing', async () => {
    const me = await t.newCaller('create-bad');
    const base: Record<string, unknown> = { title: 'Bad', type: 'custom', grades: JSON.stringify(letters) };
    const post = (args: Record<string, unknown>) => () => {
      const merged = Object.entries({ ...base, ...args }).filter(([, v]) => v !== undefined);
      return t.rpc('POST', 'quiz:grading-preset', Object.fromEntries(merged), { as: me });
    };
    await refused(t, post({ title: undefined }), 403, 'MISSING_ARGUMENT', 'title');
    await refused(t, post({ title: 'x'.repeat(129) }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, post({ type: 'letters' }), 403, 'INVALID_ARGUMENT', 'type');
    await refused(t, post({ grades: undefined }), 403, 'MISSING_ARGUMENT', 'grades');
    await refused(t, post({ grades: '[{' }), 403, 'INVALID_ARGUMENT', 'grades');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'only' }]) }), 403, 'INVALID_ARGUMENT', 'grades');
    await refused(t, post({ type: 'go-nogo-custom', grades: JSON.stringify(letters) }), 403, 'INVALID_ARGUMENT', 'grades');
    await refused(t, post({ type: 'hungarian-school', grades: JSON.stringify(passFail) }), 403, 'INVALID_ARGUMENT', 'grades');
    await refused(t, post({ type: 'hungarian-university', grades: JSON.stringify([...fiveGrades, { threshold: 90 }]) }), 403, 'INVALID_ARGUMENT', 'grades');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'a' }, { threshold: 50, grade: 'b' }, { threshold: 50, grade: 'c' }]) }), 403, 'INVALID_ARGUMENT', 'grades.2.threshold');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'a' }, { threshold: 0, grade: 'b' }]) }), 403, 'INVALID_ARGUMENT', 'grades.1.threshold');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'a' }, { grade: 'b' }]) }), 403, 'MISSING_ARGUMENT', 'grades.1.threshold');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'a' }, { threshold: 101, grade: 'b' }]) }), 403, 'INVALID_ARGUMENT', 'grades.1.threshold');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'a' }, { threshold: 10, grade: ' ' }]) }), 403, 'INVALID_ARGUMENT', 'grades.1.grade');
    await refused(t, post({ grades: JSON.stringify([{ grade: 'a' }, { threshold: 10, grade: 'a' }]) }), 403, 'INVALID_ARGUMENT', 'grades.1.grade');
    await refused(t, post({ type: 'go-nogo-custom', grades: JSON.stringify(passFail), successful_all: 'true' }), 403, 'ARGUMENT_CONFLICT', 'successful_all');
    await refused(t, post({ successful_all: 'maybe' }), 403, 'INVALID_ARGUMENT', 'successful_all');
    await refused(t, post({ language: 'xx' }), 403, 'INVALID_ARGUMENT', 'language');
  });

  it('needs the custom grading feature (406)', async () => {
    const me = await t.newCaller('create-feature');
    await t.db.prisma.user.update({ where: { id: me.user.id }, data: { features: { custom_grading: false } } });
    await refused(t, () => t.rpc('POST', 'quiz:grading-preset', { title: 'No', type: 'custom', grades: JSON.stringify(letters) }, { as: me }), 406, 'FEATURE_DISABLED');
  });
});

describe('PATCH quiz:grading-preset', () => {
  it('changes title, language and grades (the whole list, checked against the type) and answers the updated preset', async () => {
    const me = await t.newCaller('patch-me');
    const id = await newPreset(me);
    const body = await ok(t, 'PATCH', 'quiz:grading-preset', { preset: id, title: 'Renamed', language: 'hu', grades: JSON.stringify([{ grade: 'no' }, { threshold: 30, grade: 'yes' }]) }, me);
    expect(body).toEqual({
      preset: id, title: 'Renamed', type: 'custom', language: 'hu', configurable: false, certificates: false, own: true, organization: null, used: false,
      grades: [{ threshold: 0, grade: 'no' }, { threshold: 30, grade: 'yes' }],
      successful_all: false,
    });
    // successful_all is left alone when omitted.
    await ok(t, 'PATCH', 'quiz:grading-preset', { preset: id, successful_all: 'true' }, me);
    expect((await ok(t, 'PATCH', 'quiz:grading-preset', { preset: id, title: 'Again', language: '' }, me))).toMatchObject({ successful_all: true, language: null });
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: id, grades: JSON.stringify([{ grade: 'x' }]) }, { as: me }), 403, 'INVALID_ARGUMENT', 'grades');
  });

  it('changes the type while unused, dropping successful_all when leaving custom; the grades must fit the new type', async () => {
    const me = await t.newCaller('patch-type');
    const id = await newPreset(me, { successful_all: 'true' });
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: id, type: 'go-nogo-custom' }, { as: me }), 403, 'INVALID_ARGUMENT', 'type');
    const body = await ok(t, 'PATCH', 'quiz:grading-preset', { preset: id, type: 'go-nogo-custom', grades: JSON.stringify(passFail) }, me);
    expect(body).toMatchObject({ type: 'go-nogo-custom', configurable: true, certificates: true });
    expect(body).not.toHaveProperty('successful_all');
    expect((await presetRow(id)).successfulAll).toBe(false);
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: id, successful_all: 'true' }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'successful_all');
    // Back to custom: the grades keep their names of the fixed type.
    const back = await ok(t, 'PATCH', 'quiz:grading-preset', { preset: id, type: 'custom' }, me);
    expect(back).toMatchObject({ type: 'custom', successful_all: false });
    expect(back.grades.map((g: any) => g.grade)).toEqual(['fail', 'pass']);
  });

  it('cannot change the type once a Quiz set uses it; the rest still changes; used shows it', async () => {
    const me = await t.newCaller('patch-used');
    const id = await newPreset(me);
    const quiz = await newQuiz(t, me);
    await ok(t, 'POST', 'quiz:settings', { quiz, grading: id }, me);
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: id, type: 'go-nogo-custom', grades: JSON.stringify(passFail) }, { as: me }), 403, 'PRESET_IN_USE', 'type');
    const body = await ok(t, 'PATCH', 'quiz:grading-preset', { preset: id, type: 'custom', title: 'Still mine' }, me);
    expect(body).toMatchObject({ title: 'Still mine', used: true });
  });

  it('is refused for organization presets and for presets of other users', async () => {
    const me = await t.newCaller('patch-org');
    const org = await newOrganization(t, 'Patch org', me);
    const orgPreset = await organizationPreset(org);
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: orgPreset, title: 'x' }, { as: me }), 403, 'PRESET_READ_ONLY');
    const other = await t.newCaller('patch-other');
    const theirs = await newPreset(other);
    // Another user's preset is unknown to the caller, as a preset of nothing.
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: theirs, title: 'x' }, { as: me }), 403, 'NOT_FOUND', 'preset');
    expectError(await t.rpc('GET', 'quiz:grading-preset', { preset: theirs }, { as: me }), 403, 'NOT_FOUND', 'preset');
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: 'gp_nothing', title: 'x' }, { as: me }), 403, 'NOT_FOUND', 'preset');
    // Instance administrators read and change any custom preset.
    expect((await ok(t, 'PATCH', 'quiz:grading-preset', { preset: theirs, title: 'Fixed' }, t.admin)).own).toBe(false);
  });
});

describe('a preset used by an exam', () => {
  it('is used, cannot change type and cannot be removed, exactly as under a Quiz set; free again once the exam lets go', async () => {
    const me = await t.newCaller('exam-uses');
    const id = await newPreset(me, { type: 'go-nogo-custom', grades: JSON.stringify(passFail) });
    const exam = await newExam(t, me);
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: id }, me)).used).toBe(false);
    await ok(t, 'POST', 'exam:settings', { exam, grading: id, grading_threshold: 62.5 }, me);

    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: id }, me)).used).toBe(true);
    await refused(t, () => t.rpc('PATCH', 'quiz:grading-preset', { preset: id, type: 'custom', grades: JSON.stringify(letters) }, { as: me }), 403, 'PRESET_IN_USE', 'type');
    await refused(t, () => t.rpc('DELETE', 'quiz:grading-preset', { preset: id }, { as: me }), 403, 'PRESET_IN_USE');
    // The exam still reads its preset and its threshold.
    expect(await ok(t, 'GET', 'exam:settings', { exam }, me)).toMatchObject({ grading: id, grading_threshold: 62.5 });
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: id }, me)).type).toBe('go-nogo-custom');

    await ok(t, 'POST', 'exam:settings', { exam, grading: 'default' }, me);
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: id }, me)).used).toBe(false);
    expect(await ok(t, 'DELETE', 'quiz:grading-preset', { preset: id }, me)).toEqual({ preset: id, success: true });
  });

  it('a global preset is used for the caller when an exam of the caller uses it, not an exam of someone else', async () => {
    const me = await t.newCaller('exam-used-me');
    const other = await t.newCaller('exam-used-other');
    const theirs = await newExam(t, other, { language: 'de' });
    await ok(t, 'POST', 'exam:settings', { exam: theirs, grading: 'gp_noten_de' }, other);
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_noten_de' }, me)).used).toBe(false);
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_noten_de' }, other)).used).toBe(true);
    // GraphQL reads the same rule, and lists for an exam too.
    const listed = await t.gql(`query($exam: ID) { gradingPresets(exam: $exam) { current preset { id used } } }`, { exam: theirs }, { as: other });
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.gradingPresets.filter((p: any) => p.current)).toEqual([{ current: true, preset: { id: 'gp_noten_de', used: true } }]);
  });
});

describe('DELETE quiz:grading-preset', () => {
  it('removes an own unused preset; in-use and organization presets stay', async () => {
    const me = await t.newCaller('delete-me');
    const id = await newPreset(me);
    const quiz = await newQuiz(t, me);
    await ok(t, 'POST', 'quiz:settings', { quiz, grading: id }, me);
    await refused(t, () => t.rpc('DELETE', 'quiz:grading-preset', { preset: id }, { as: me }), 403, 'PRESET_IN_USE');
    await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'none' }, me);
    expect(await ok(t, 'DELETE', 'quiz:grading-preset', { preset: id }, me)).toEqual({ preset: id, success: true });
    expect(await t.db.prisma.gradingPreset.findUnique({ where: { id } })).toBeNull();
    expectError(await t.rpc('GET', 'quiz:grading-preset', { preset: id }, { as: me }), 403, 'NOT_FOUND', 'preset');

    const org = await newOrganization(t, 'Delete org', me);
    await refused(t, () => t.rpc('DELETE', 'quiz:grading-preset', { preset: 'gp_unknown' }, { as: me }), 403, 'NOT_FOUND', 'preset');
    const orgPreset = await organizationPreset(org);
    await refused(t, () => t.rpc('DELETE', 'quiz:grading-preset', { preset: orgPreset }, { as: me }), 403, 'PRESET_READ_ONLY');
  });

  it('is refused for presets of other users', async () => {
    const other = await t.newCaller('delete-other');
    const theirs = await newPreset(other);
    const me = await t.newCaller('delete-stranger');
    await refused(t, () => t.rpc('DELETE', 'quiz:grading-preset', { preset: theirs }, { as: me }), 403, 'NOT_FOUND', 'preset');
  });
});

describe('used', () => {
  it('for a global preset tells whether a Quiz set of the caller uses it', async () => {
    const me = await t.newCaller('used-me');
    const other = await t.newCaller('used-other');
    const theirs = await newQuiz(t, other);
    await useOn(theirs, 'gp_hu_university');
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_hu_university' }, me)).used).toBe(false);
    const mine = await newQuiz(t, me);
    await ok(t, 'POST', 'quiz:settings', { quiz: mine, grading: 'gp_hu_university' }, me);
    expect((await ok(t, 'GET', 'quiz:grading-preset', { preset: 'gp_hu_university' }, me)).used).toBe(true);
  });
});
