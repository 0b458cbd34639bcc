import type { QuizSet } from '../../generated/prisma/client.ts';
import * as quizzes from '../../services/quizzes/quizzes.service.ts';
import * as settings from '../../services/quizzes/settings.service.ts';
import * as items from '../../services/quizzes/items.service.ts';
import type { QuizEntry } from '../../services/quizzes/items.service.ts';
import { compact } from '../format.ts';
import type { Handler } from './types.ts';

const quizRecord = (q: QuizSet) =>
  compact({ quiz: q.id, id: q.externalId, title: q.title, language: q.language, description: q.description ?? undefined, mode: q.mode, type: q.type });

const settingsRecord = ({ quiz, settings: v }: { quiz: QuizSet; settings: settings.SettingsView }) =>
  compact({
    quiz: quiz.id,
    shuffle: v.shuffle,
    timelimit: v.timelimit,
    roundtime: v.roundtime,
    grading: v.grading,
    grading_threshold: v.gradingThreshold ?? undefined,
  });

/** Questions carry question and id (and the title of their group, if in one); groups carry group. */
const entryRecord = (e: QuizEntry) =>
  e.kind === 'group'
    ? { group: e.group.title, active: e.group.active }
    : compact({ question: e.question.id, id: e.question.externalId, group: e.group?.title, active: e.item.active });

const itemsChange = (c: items.ItemsChange) => compact({ quiz: c.quiz.id, group: c.group, questions: c.questions, success: true });

export const quizRoutes: Record<string, Handler> = {
  'GET quizes': async (ctx, args) => ({
    quizes: (await quizzes.listQuizSets(ctx, args)).map((q) => ({ quiz: q.id, id: q.externalId, title: q.title })),
  }),
  'GET quiz': async (ctx, args) => quizRecord(await quizzes.getQuizSet(ctx, args)),
  'POST quiz': async (ctx, args) => ({ quiz: (await quizzes.createQuizSet(ctx, args)).id }),
  'PATCH quiz': async (ctx, args) => ({ quiz: (await quizzes.updateQuizSet(ctx, args)).id, success: true }),
  'DELETE quiz': async (ctx, args) => ({ quiz: (await quizzes.deleteQuizSet(ctx, args)).id, success: true }),
  'GET quiz:settings': async (ctx, args) => settingsRecord(await settings.getSettings(ctx, args)),
  'POST quiz:settings': async (ctx, args) => settingsRecord(await settings.updateSettings(ctx, args)),
  'PUT quiz:settings': async (ctx, args) => {
    const { quiz, source } = await settings.copySettings(ctx, args, 'replace');
    return { quiz: quiz.id, source: source.id };
  },
  'PATCH quiz:settings': async (ctx, args) => {
    const { quiz, source } = await settings.copySettings(ctx, args, 'fill');
    return { quiz: quiz.id, source: source.id };
  },
  'GET quiz:skills': async (ctx, args) => {
    const { quiz, skills } = await items.listSkills(ctx, args);
    return { quiz: quiz.id, skills: skills.map((k) => compact({ identifier: k.identifier, title: k.title, description: k.description ?? undefined })) };
  },
  'GET quiz:questions': async (ctx, args) => ({ items: (await items.listItems(ctx, args)).entries.map(entryRecord) }),
  'POST quiz:questions': async (ctx, args) => itemsChange(await items.assignQuestions(ctx, args)),
  'DELETE quiz:questions': async (ctx, args) => itemsChange(await items.removeQuestions(ctx, args)),
};
