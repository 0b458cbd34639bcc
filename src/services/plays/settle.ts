import type { Play, Prisma } from '../../generated/prisma/client.ts';
import { writeScores } from './player-statements.ts';
import { certifySettled } from '../certificates/certificates.service.ts';
import { onPlaySettled } from '../journeys/runtime.ts';
import { recordExamRequirements } from './competency-progress.ts';
import { gradingPresetOf, type PlayRules } from './exam-rules.ts';
import { gradeOf, scoreAnswer, totalsOf } from './scoring.ts';

type Tx = Prisma.TransactionClient;

export type SettledPlay = Prisma.PlayGetPayload<{ include: { exam: true; quiz: true } }>;

/**
 * Writes a finished play's scores: with `score`, every answer through the answer checker (an
 * educator's grade stays); then the totals over the play's questions (unanswered ones score 0),
 * and the grade and success once nothing waits for a person (until then both are null); the
 * user's exam requirements follow, the certificate of a result that qualifies for one, and the
 * user's journeys (steps of the play's exam or Quiz set, entering one its exam starts).
 */
export async function settlePlay(tx: Tx, play: Pick<Play, 'id' | 'questionIds'>, options: { score: boolean; rules: PlayRules }): Promise<SettledPlay> {
  const playId = play.id;
  const [questions, answers] = await Promise.all([
    tx.question.findMany({ where: { id: { in: play.questionIds } }, select: { id: true, type: true, answers: true, options: true, data: true } }),
    tx.playAnswer.findMany({ where: { playId } }),
  ]);
  const byId = new Map(questions.map((q) => [q.id, q]));
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
  const settled = await tx.play.update({ where: { id: playId }, data: { ...totals, grade, successful }, include: { exam: true, quiz: true } });
  await recordExamRequirements(tx, settled);
  await certifySettled(tx, settled, preset);
  await onPlaySettled(tx, settled);
  return settled;
}
