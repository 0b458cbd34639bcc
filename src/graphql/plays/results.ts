import { builder } from '../builder.ts';
import * as results from '../../services/plays/results.service.ts';

/** Results lists on the exam and the Quiz set (report permission); kept here so the types' own files stay theirs. */

builder.prismaObjectFields('Exam', (t) => ({
  results: t.prismaConnection({
    type: 'Play',
    cursor: 'id',
    description: 'Its results (report permission), oldest first; archived ones only with archived: true.',
    args: {
      round: t.arg.int({ description: 'Only this round.' }),
      archived: t.arg.boolean({ description: 'true: only archived results; default false: current ones.' }),
      user: t.arg.id({ description: 'Only this user\'s.' }),
    },
    resolve: (query, exam, args, ctx) => results.examResults(ctx, exam, args, query),
  }),
}));

builder.prismaObjectFields('QuizSet', (t) => ({
  results: t.prismaConnection({
    type: 'Play',
    cursor: 'id',
    description: 'Its practice results (report permission), oldest first.',
    args: { user: t.arg.id({ description: 'Only this user\'s.' }) },
    resolve: (query, quiz, args, ctx) => results.quizResults(ctx, quiz, args, query),
  }),
}));

builder.queryFields((t) => ({
  myPlays: t.prismaConnection({
    type: 'Play',
    cursor: 'id',
    description: "The caller's own plays (exams and practice), newest first.",
    resolve: (query, _root, _args, ctx) => results.ownPlays(ctx, query),
  }),
}));

builder.subscriptionFields((t) => ({
  examResultFinished: t.prismaField({
    type: 'Play',
    description:
      'Each play of the exam as it finishes (or an educator grades it), for live dashboards: report permission on the exam. ' +
      'Over server-sent events (Accept: text/event-stream); with Redis configured, plays finished on any instance arrive.',
    args: { exam: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => results.watchExamResults(ctx, args.exam),
    resolve: (query, event: { play: string }, _args, ctx) => results.announcedPlay(ctx, event.play, query),
  }),
}));
