import type { Exam, Play, Prisma, Question, QuizSet } from '../../generated/prisma/client.ts';
import { writeScores } from './player-statements.ts';
import { certifySettled } from '../certificates/certificates.service.ts';
import { onPlaySettled } from '../journeys/runtime.ts';
import { recordExamRequirements } from './competency-progress.ts';
import { gradingPresetOf, type PlayRules } from './exam-rules.ts';
import { gradeOf, scoreAnswer, totalsOf } from './scoring.ts';

type Tx = Prisma.TransactionClient;

export type SettledPlay = Prisma.PlayGetPayload<{ include: { exam: true; quiz: true } }>;

export interface SettleOptions {
  /** Score every answer with the answer checker (a finish), or keep the points as they are (a grade). */
  score: boolean;
  rules: PlayRules;
  /** The play's exam (null for practice) and Quiz set, as the caller read them. */
  content: { exam: Exam | null; quiz: QuizSet };
  /** Finishes the play (the caller holds its lock and saw it open) at this time. */
  finish?: { timeEnd: Date };
  /** Answer keys the caller holds already (the exam's, read once for its starts); the play's other questions are read. */
  answerKeys?: ReadonlyMap<string, Pick<Question, 'id' | 'type' | 'answers' | 'options' | 'data'>>;
}

/**
 * Writes a finished play's scores: with `score`, every answer through the answer checker (an
 * educator's grade stays); then the totals over the play's questions (unanswered ones score 0),
 * and the grade and success once nothing waits for a person (until then both are null); the
 * user's exam requirements follow, the certificate of a result that qualifies for one, and the
 * user's journeys (steps of the play's exam or Quiz set, entering one its exam starts). A constant
 * number of statements whatever the number of questions.
 */
export async function settlePlay(tx: Tx, play: Pick<Play, 'id' | 'questionIds'>, options: SettleOptions): Promise<SettledPlay> {
  const playId = play.id;
  const known = play.questionIds.flatMap((id) => options.answerKeys?.get(id) ?? []);
  const unknown = play.questionIds.filter((id) => !options.answerKeys?.has(id));
  const [questions, answers] = await Promise.all([
    unknown.length === 0 ? [] : tx.question.findMany({ where: { id: { in: unknown } }, select: { id: true, type: true, answers: true, options: true, data: true } }),
    tx.playAnswer.findMany({ where: { playId } }),
  ]);
  const byId = new Map([...known, ...questions].map((q) => [q.id, q]));
  const answerOf = new Map(answers.map((a) => [a.questionId, a]));
  const scores = [];
  const scored = [];
  for (const questionId of play.questionIds) {
    const question = byId.get(questionId);
    // A question deleted since the start is no longer part of the result.
    if (!question) continue;
    const answer = answerOf.get(questionId);
    if (options.score && answer && !answer.gradedById) {
      const score = scoreAnswer(question, answer);
      scored.push({ questionId, ...score });
      scores.push(score);
    } else if (answer) scores.push({ points: answer.points, pointsMaximum: answer.pointsMaximum, evaluated: answer.evaluated });
    else scores.push(scoreAnswer(question, undefined));
  }
  await writeScores(tx, playId, scored);
  const totals = totalsOf(scores);
  const preset = await gradingPresetOf(tx, options.rules);
  const { grade, successful } = totals.evaluated
    ? gradeOf({ grading: options.rules.grading, gradingThreshold: options.rules.gradingThreshold, preset }, totals)
    : { grade: null, successful: null };
  const finish = options.finish ? { status: 'finished', timeEnd: options.finish.timeEnd, openKey: null } : {};
  const settled = { ...(await tx.play.update({ where: { id: playId }, data: { ...totals, grade, successful, ...finish } })), ...options.content };
  await recordExamRequirements(tx, settled);
  await certifySettled(tx, settled, preset);
  await onPlaySettled(tx, settled);
  return settled;
}
