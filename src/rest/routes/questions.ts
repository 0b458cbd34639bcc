import * as questions from '../../services/questions/questions.service.ts';
import { exportQuestion } from '../../services/questions/export.ts';
import { date } from '../format.ts';
import type { Handler } from './types.ts';

const pair = (q: { id: string; externalId: string }) => ({ question: q.id, id: q.externalId });

export const questionRoutes: Record<string, Handler> = {
  'GET questions': async (ctx, args) => ({ questions: (await questions.listQuestions(ctx, args)).map(pair) }),
  'GET question': async (ctx, args) => {
    const q = await questions.getQuestion(ctx, args);
    return { ...pair(q), active: q.active };
  },
  'POST question': async (ctx, args) => ({ question: (await questions.upsertQuestion(ctx, args)).question.id }),
  'DELETE question': async (ctx, args) => ({ ...pair(await questions.deleteQuestion(ctx, args)), success: true }),
  'POST question:export': async (ctx, args) => {
    const { question, url, valid } = await exportQuestion(ctx, args);
    return { ...pair(question), url, valid: date(valid) };
  },
  'GET question:id': async (ctx, args) => pair(await questions.getExternalId(ctx, args)),
  'POST question:id': async (ctx, args) => ({ ...pair(await questions.setExternalId(ctx, args)), success: true }),
};
