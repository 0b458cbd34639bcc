import { expect } from 'vitest';
import type { Caller, TestApp } from './app.ts';
import { ok } from './quiz-seed.ts';
import { newId } from '../../src/ids.ts';
import { defaultJourneySettings, type JourneyNode, type JourneySettings } from '../../src/services/journeys/format.ts';

/**
 * Journeys for tests: exams over one one-question Quiz set (answer `a` passes with gp_passfail),
 * journeys written directly as published, and plays through GraphQL.
 */
export function journeySeed(t: () => TestApp, owner: () => Caller) {
  let quiz: string | undefined;
  let question: string | undefined;

  async function setUpQuiz() {
    if (quiz) return;
    question = (await t().db.prisma.question.create({ data: { id: newId('Question'), externalId: 'j1', scope: `folder:${owner().user.id}:/API`, ownerId: owner().user.id, type: 'generic', content: 'Q', answers: ['a'], options: [], data: {} } })).id;
    quiz = (await ok(t(), 'POST', 'quiz', { title: 'Journey quiz' }, owner())).quiz as string;
    await ok(t(), 'POST', 'quiz:questions', { quiz, questions: question }, owner());
    await ok(t(), 'POST', 'quiz:settings', { quiz, grading: 'gp_passfail' }, owner());
  }

  /** An exam of the owner, active for 30 days, with these examinees. */
  async function newExam(examinees: Caller[]): Promise<string> {
    await setUpQuiz();
    const id = newId('Exam');
    const day = 86_400_000;
    await t().db.prisma.exam.create({ data: { id, title: 'Exam', language: 'en', quizId: quiz!, ownerId: owner().user.id, start: new Date(Date.now() - day), end: new Date(Date.now() + 30 * day) } });
    for (const u of examinees) await t().db.prisma.examUser.create({ data: { examId: id, userId: u.user.id } });
    return id;
  }

  /** A published, enabled journey written directly (the draft and its first version). */
  async function publishedJourney(exam: string, nodes: JourneyNode[], settings: Partial<JourneySettings> = {}): Promise<string> {
    const id = newId('Journey');
    const s = { ...defaultJourneySettings, title: 'Onboarding', ...settings };
    await t().db.prisma.journey.create({ data: { id, examId: exam, settings: s, nodes: nodes as object[], version: 1, published: { schema: 1, settings: s, nodes } as object, publishedAt: new Date() } });
    return id;
  }

  async function gqlOk(query: string, variables: Record<string, unknown>, as: Caller) {
    const r = await t().gql(query, variables, { as });
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    return r.body.data;
  }

  /** A finished play of the exam: answer `a` passes, anything else fails. */
  async function play(exam: string, as: Caller, answer: string): Promise<{ id: string }> {
    const started = (await gqlOk(`mutation($input: StartPlayInput!) { startPlay(input: $input) { id } }`, { input: { exam } }, as)).startPlay;
    await gqlOk(`mutation($input: AnswerQuestionInput!) { answerQuestion(input: $input) { question } }`, { input: { play: started.id, question, response: answer } }, as);
    return (await gqlOk(`mutation($input: FinishPlayInput!) { finishPlay(input: $input) { id } }`, { input: { play: started.id } }, as)).finishPlay;
  }

  return { newExam, publishedJourney, play, gqlOk };
}
