import type { GradingPreset, Question } from '../../generated/prisma/client.ts';
import { checkAnswer, type Response } from '../questions/answer-checker.ts';
import { toCheckable } from '../questions/checkable.ts';
import type { QuestionData } from '../questions/question-input.ts';
import type { Penalty } from '../questions/questions.schemas.ts';
import type { Grade } from '../grading/grades.ts';

/**
 * Scoring a play, pure: each answer with the answer checker, less the hint and solution
 * penalties; the totals; the grade and success from the grading preset.
 */

export interface AnswerScore {
  points: number;
  pointsMaximum: number;
  /** False while an educator must grade it (free-text, file, hotspot with a response). */
  evaluated: boolean;
}

/** The share (0..1) a penalty takes for `shown` hints or solution steps: EACH per one shown, ONCE once. */
function penaltyShare(penalty: Penalty | undefined, shown: number): number {
  if (!penalty || shown <= 0) return 0;
  return Math.min(1, (penalty.percent / 100) * (penalty.mode === 'EACH' ? shown : 1));
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** The points of a question's maximum (`points`, default 1; reading questions score nothing). */
export function pointsMaximumOf(question: Pick<Question, 'type' | 'data'>): number {
  if (question.type === 'reading') return 0;
  const points = (question.data as unknown as QuestionData | null)?.points;
  return typeof points === 'number' && Number.isFinite(points) && points >= 0 ? points : 1;
}

/** Scores one response. Semi-automatic and manual types wait for an educator unless the response is empty. */
export function scoreAnswer(
  question: Pick<Question, 'type' | 'answers' | 'options' | 'data'>,
  answer: { response: unknown; hints: number; solutionSteps: number } | undefined,
): AnswerScore {
  const pointsMaximum = pointsMaximumOf(question);
  if (!answer) return { points: 0, pointsMaximum, evaluated: true };
  const result = checkAnswer(toCheckable(question), answer.response as Response);
  const data = (question.data ?? {}) as unknown as QuestionData;
  const share = Math.min(1, penaltyShare(data.hintPenalty, answer.hints) + penaltyShare(data.solutionPenalty, answer.solutionSteps));
  const waits = (result.grading === 'semi-automatic' || result.grading === 'manual') && result.correct === null;
  return { points: waits ? 0 : round6(result.points * (1 - share)), pointsMaximum, evaluated: !waits };
}

export interface Totals {
  questionsTotal: number;
  questionsCorrect: number;
  pointsTotal: number;
  pointsCorrect: number;
  evaluated: boolean;
}

/** Totals over a play's answers: reading questions (maximum 0) are not counted; correct means full points. */
export function totalsOf(scores: readonly { points: number | null; pointsMaximum: number; evaluated: boolean }[]): Totals {
  const scored = scores.filter((s) => s.pointsMaximum > 0);
  return {
    questionsTotal: scored.length,
    questionsCorrect: scored.filter((s) => s.evaluated && (s.points ?? 0) >= s.pointsMaximum).length,
    pointsTotal: round6(scored.reduce((sum, s) => sum + s.pointsMaximum, 0)),
    pointsCorrect: round6(scored.reduce((sum, s) => sum + (s.points ?? 0), 0)),
    evaluated: scores.every((s) => s.evaluated),
  };
}

export interface Grading {
  /** A preset code, `custom`, or null for no grading. */
  grading: string | null;
  gradingThreshold: number | null;
  preset: GradingPreset | null;
}

/**
 * The grade and success of a percentage. go-nogo-custom: the second grade passes (its threshold
 * replaced by the configured one); Hungarian presets: 2 and up; custom presets: every grade with
 * `successful_all`, otherwise the configured threshold when there is one, else undecided; no
 * preset (`custom` alone): the configured threshold. A play without points (0 of 0) counts 100%.
 */
export function gradeOf(g: Grading, totals: Pick<Totals, 'pointsTotal' | 'pointsCorrect'>): { grade: string | null; successful: boolean | null } {
  if (g.grading === null) return { grade: null, successful: null };
  const percent = totals.pointsTotal > 0 ? (totals.pointsCorrect / totals.pointsTotal) * 100 : 100;
  const threshold = g.gradingThreshold;
  const preset = g.preset;
  if (!preset) return { grade: null, successful: threshold === null ? null : percent >= threshold };
  const grades = [...(preset.grades as unknown as Grade[])];
  if (preset.type === 'go-nogo-custom' && threshold !== null && grades[1]) grades[1] = { ...grades[1], threshold };
  let index = 0;
  grades.forEach((grade, i) => {
    if (i === 0 || percent >= grade.threshold) index = i;
  });
  const grade = grades[index]?.grade ?? null;
  if (preset.type === 'go-nogo-custom' || preset.type.startsWith('hungarian')) return { grade, successful: index >= 1 };
  if (preset.successfulAll) return { grade, successful: true };
  return { grade, successful: threshold === null ? null : percent >= threshold };
}

export interface SkillPoints {
  points: number;
  pointsMaximum: number;
}

/**
 * Points per skill over a play's questions: what the answers to the skill's questions scored of
 * those questions' maxima. An unanswered question counts 0 of its maximum, as in the play's totals.
 */
export function skillPointsOf(
  questionIds: readonly string[],
  skillsOf: (questionId: string) => readonly string[] | undefined,
  answerOf: (questionId: string) => { points: number | null; pointsMaximum: number } | undefined,
  maximumOf: (questionId: string) => number,
): Map<string, SkillPoints> {
  const bySkill = new Map<string, SkillPoints>();
  for (const questionId of questionIds) {
    const answer = answerOf(questionId);
    for (const skill of skillsOf(questionId) ?? []) {
      const sum = bySkill.get(skill) ?? { points: 0, pointsMaximum: 0 };
      sum.points = round6(sum.points + (answer?.points ?? 0));
      sum.pointsMaximum = round6(sum.pointsMaximum + (answer ? answer.pointsMaximum : maximumOf(questionId)));
      bySkill.set(skill, sum);
    }
  }
  return bySkill;
}
