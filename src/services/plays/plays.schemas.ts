import { z } from 'zod';
import { code, float, int, json, obeysInputRules, oneOf, text } from '../validation.ts';
import { language } from '../quizzes/quizzes.schemas.ts';

/** The inputs of the player and of results, defined once for GraphQL and REST. */

const scalar = z.union([z.string().max(65535, 'is too long (at most 65535 characters)'), z.number(), z.boolean(), z.null()]);
/** The answer checker's response shapes: a scalar, a list, a list of lists (matrices) or an object of those (keyed inputs). */
export const response = z
  .unknown()
  .superRefine(obeysInputRules)
  .pipe(
    z.union(
      [scalar, z.array(scalar).max(1000), z.array(z.array(scalar).max(1000)).max(1000), z.record(z.string().max(255), z.union([scalar, z.array(scalar).max(1000)]))],
      { error: 'must be a string, a number, a list or an object of them (the answer checker\'s shapes)' },
    ),
  );

export const startPlay = z
  .object({ exam: code().optional(), quiz: code().optional() })
  .refine((v) => (v.exam === undefined) !== (v.quiz === undefined), { error: 'give exactly one of exam and quiz', path: ['input'] });

export const answerQuestion = z.object({
  play: code(),
  question: code(),
  response,
  hints: int(0, 100).optional(),
  solutionSteps: int(0, 100).optional(),
});

export const playRef = z.object({ play: code() });

export const gradeAnswer = z.object({ play: code(), question: code(), points: float(0, 1_000_000) });

export const quizResults = z.object({ quiz: code(), user: code() });
export const examResults = z.object({ exam: code(), user: code() });


/** POST `exam:results:export`. */
export const exportResults = z.object({
  exam: code(),
  format: oneOf(['csv', 'xlsx']).optional(),
  preset: oneOf(['default', 'answers']).default('default'),
  sort: oneOf(['default', 'name']).optional(),
  round: int(1, 1_000_000).optional(),
  filters: json()
    // Each value, an option or a list of them, is checked against its field (results-export.ts).
    .pipe(z.record(text(1, 255), z.unknown(), { error: 'must be an object keyed by the label of a select field' }))
    .refine((v) => Object.keys(v).length <= 100, 'must name at most 100 fields')
    .optional(),
  language: language.optional(),
});
