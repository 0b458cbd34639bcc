import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { seed } from '../helpers/seed.ts';
import { newId } from '../../src/ids.ts';
import {
  CoursesWithDetailsDocument,
  GradingPresetsUsedDocument,
  QuestionsWithDetailsDocument,
  QuizSetsWithEntriesDocument,
  TagsWithContentDocument,
} from '../../schema/operations/generated.ts';
import { ok } from './client.ts';

/**
 * The content lists of a dashboard cost the same SQL statements for 3 rows as for 30: every
 * nested selection (relations, entries, tags, rules, tagged content, usage) loads once per level
 * for the whole page, never once per row.
 */

let t: TestApp;
let me: Caller;
let colleague: Caller;
let organizationId: string;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('lister');
  colleague = await t.newCaller('colleague', { createdBy: me });
  organizationId = (await seed(t).as(me).organization({ title: 'Listers' })).id;
});
afterAll(async () => t?.close());

const p = () => t.db.prisma;
const owned = (title: string) => ({ title, ownerId: me.user.id, organizationId });

async function question(label: string) {
  const id = newId('Question');
  const skill = newId('Skill');
  await p().question.create({ data: { id, externalId: label, scope: `folder:${me.user.id}:/API`, ownerId: me.user.id, organizationId, type: 'generic', content: label, answers: ['a'] } });
  await p().skill.create({ data: { id: skill, ownerId: me.user.id, identifier: label, title: label } });
  await p().questionSkill.create({ data: { questionId: id, skillId: skill } });
  return id;
}

/**
 * Row `n` of every list: a tag on a course, a Quiz set with a group and two questions, a preset in use.
 * Written directly: the statement count needs the rows, not the way in, and through the services
 * (16 calls a row) the file took 10.6 s instead of 4.8 s on PGlite.
 */
async function addRow(n: number) {
  const label = `row-${String(n).padStart(2, '0')}`;
  const tag = (await p().tag.create({ data: { id: newId('Tag'), ...owned(label), color: '#123456' } })).id;
  const course = (await p().course.create({ data: { id: newId('Course'), ...owned(label) } })).id;
  await p().contentTag.create({ data: { tagId: tag, contentType: 'course', contentId: course } });
  await p().permissionRule.create({ data: { contentType: 'course', contentId: course, userId: colleague.user.id, level: 'view' } });
  const preset = (await p().gradingPreset.create({
    data: { id: newId('GradingPreset'), title: label, type: 'custom', ownerId: me.user.id, grades: [{ threshold: 0, grade: 'F' }, { threshold: 50, grade: 'P' }] },
  })).id;
  const quiz = (await p().quizSet.create({ data: { id: newId('QuizSet'), ...owned(label), language: 'en', grading: preset } })).id;
  await p().contentTag.create({ data: { tagId: tag, contentType: 'quiz', contentId: quiz } });
  await p().permissionRule.create({ data: { contentType: 'quiz', contentId: quiz, userId: colleague.user.id, level: 'modify' } });
  const group = (await p().quizGroup.create({ data: { id: newId('QuizGroup'), quizId: quiz, title: 'Group', position: 1 } })).id;
  await p().quizItem.create({ data: { quizId: quiz, questionId: await question(`${label}-a`), position: 2 } });
  await p().quizItem.create({ data: { quizId: quiz, questionId: await question(`${label}-b`), groupId: group, position: 3 } });
}

const lists = {
  tags: () => ok(t, TagsWithContentDocument, { first: 100 }, { as: me }),
  quizSets: () => ok(t, QuizSetsWithEntriesDocument, { first: 100 }, { as: me }),
  questions: () => ok(t, QuestionsWithDetailsDocument, { first: 100 }, { as: me }),
  courses: () => ok(t, CoursesWithDetailsDocument, { first: 100 }, { as: me }),
  presets: () => ok(t, GradingPresetsUsedDocument, {}, { as: me }),
};
type Counted = { [K in keyof typeof lists]: Awaited<ReturnType<typeof countStatements<Awaited<ReturnType<(typeof lists)[K]>>>>> };

/** Every list, counted. */
async function countAll(): Promise<Counted> {
  const out: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(lists)) out[name] = await countStatements(t, run as () => Promise<unknown>);
  return out as Counted;
}

let three: Counted;
let thirty: Counted;
beforeAll(async () => {
  let rows = 0;
  while (rows < 3) await addRow(++rows);
  three = await countAll();
  while (rows < 30) await addRow(++rows);
  thirty = await countAll();
});

/** The same statements at 30 rows as at 3, and at most `bound` of them. */
function sameAtBothSizes(name: keyof typeof lists, bound: number) {
  const [small, large] = [three[name], thirty[name]];
  expect(large.count, large.statements.join('\n')).toBe(small.count);
  expect(small.count, small.statements.join('\n')).toBeLessThanOrEqual(bound);
}

describe('SQL statements of content lists, at 3 and at 30 rows', () => {
  it('tags with owner, organization and tagged content', () => {
    expect(thirty.tags.result.tags.edges).toHaveLength(30);
    expect(three.tags.result.tags.edges[0]!.node.taggedContent.map((c) => c.type)).toEqual(['course', 'quiz']);
    sameAtBothSizes('tags', 12);
  });

  it('Quiz sets with entries, questions, skills, tags and rules', () => {
    expect(thirty.quizSets.result.quizSets.edges).toHaveLength(30);
    const first = three.quizSets.result.quizSets.edges[0]!.node;
    expect(first.items.map((e) => e.kind)).toEqual(['GROUP', 'QUESTION', 'QUESTION']);
    expect(first.items[1]!.question!.skills).toHaveLength(1);
    expect(first.questions.edges).toHaveLength(2);
    expect(first.permissions).toEqual([{ userId: colleague.user.id, level: 'modify' }]);
    expect(first.tags).toHaveLength(1);
    sameAtBothSizes('quizSets', 29);
  });

  it('questions with media, skills, owner and organization', () => {
    expect(thirty.questions.result.questions.edges).toHaveLength(60);
    sameAtBothSizes('questions', 10);
  });

  it('courses with owner, organization, tags and rules', () => {
    expect(thirty.courses.result.courses.edges).toHaveLength(30);
    expect(three.courses.result.courses.edges[0]!.node.permissions).toEqual([{ userId: colleague.user.id, level: 'view' }]);
    sameAtBothSizes('courses', 15);
  });

  it('grading presets with whether each is used', () => {
    const own = thirty.presets.result.gradingPresets.filter((v) => v.preset.own);
    expect(own).toHaveLength(30);
    expect(own.every((v) => v.preset.used)).toBe(true);
    sameAtBothSizes('presets', 5);
  });
});
