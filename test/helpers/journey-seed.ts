import { expect } from 'vitest';
import type { Caller, TestApp } from './app.ts';
import { seed, type QuizSetHandle } from './seed.ts';
import type { JourneyNode, JourneySettings } from '../../src/services/journeys/format.ts';

/**
 * Journeys for tests: exams over one one-question Quiz set (answer `a` passes with gp_passfail),
 * journeys saved and published by the owner, and plays through GraphQL.
 */
export function journeySeed(t: () => TestApp, owner: () => Caller) {
  let quiz: QuizSetHandle | undefined;
  let question: string | undefined;

  async function setUpQuiz(): Promise<QuizSetHandle> {
    if (quiz) return quiz;
    quiz = await seed(t()).as(owner()).quizSet({ title: 'Journey quiz' });
    question = await quiz.question('j1', { content: 'Q' });
    await quiz.settings({ grading: 'gp_passfail' });
    return quiz;
  }

  /** An exam of the owner, active for 30 days, with these examinees. */
  async function newExam(examinees: Caller[]): Promise<string> {
    const day = 86_400_000;
    const exam = await (await setUpQuiz()).exam({ title: 'Exam', start: new Date(Date.now() - day), end: new Date(Date.now() + 30 * day) });
    // The examinees are no users the owner reads: the administrator adds them.
    if (examinees.length) await seed(t()).admin.examinees(exam.id, examinees);
    return exam.id;
  }

  /** A journey the exam starts, saved and published (its first version). */
  async function publishedJourney(exam: string, nodes: JourneyNode[], settings: Partial<JourneySettings> = {}): Promise<string> {
    return seed(t()).as(owner()).journey(exam, nodes, { title: 'Onboarding', ...settings });
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
