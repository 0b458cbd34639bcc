import { z } from 'zod';
import { contract } from '../contract-meta.ts';
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
  format: contract(oneOf(['csv', 'xlsx']).optional(), { description: 'default the exam\'s export_format' }),
  preset: contract(oneOf(['default', 'answers']).default('default'), { description: 'answers: answers without examinees, only for anonymous surveys' }),
  sort: contract(oneOf(['default', 'name']).optional(), { description: 'default the exam\'s export_sort' }),
  round: contract(int(1, 1_000_000).optional(), { description: 'a closed round, only when the exam keeps previous round results' }),
  filters: contract(json()
    // Each value, an option or a list of them, is checked against its field (results-export.ts).
    .pipe(z.record(text(1, 255), z.unknown(), { error: 'must be an object keyed by the label of a select field' }))
    .refine((v) => Object.keys(v).length <= 100, 'must name at most 100 fields')
    .optional(), { type: ['hash', 'json'], description: 'keyed by the label of a select custom field with filtering configured; a filterable option or a list of them; cannot be combined with round' }),
  language: contract(language.optional(), { description: 'default the caller\'s' }),
});
