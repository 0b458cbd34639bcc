import type { Prisma } from '../../generated/prisma/client.ts';
import { groupBy } from '../group-by.ts';
import { pointsMaximumOf, skillPointsOf, type SkillPoints } from './scoring.ts';

/**
 * The points per skill of a batch of plays, in three statements whatever the batch's size: the
 * skills of their questions, the answers to those questions and, for unanswered ones, their maxima.
 * Skills are keyed by `key`: exports list skills by id, journey rules name them by identifier.
 */
export async function skillPointsOfPlays(
  db: Prisma.TransactionClient,
  plays: readonly { id: string; questionIds: readonly string[] }[],
  key: 'id' | 'identifier',
): Promise<Map<string, Map<string, SkillPoints>>> {
  const questionIds = [...new Set(plays.flatMap((p) => p.questionIds))];
  const links = questionIds.length
    ? await db.questionSkill.findMany({ where: { questionId: { in: questionIds } }, select: { questionId: true, skill: { select: { id: true, identifier: true } } } })
    : [];
  if (links.length === 0) return new Map();
  const skilled = [...new Set(links.map((l) => l.questionId))];
  const [answers, questions] = await Promise.all([
    db.playAnswer.findMany({ where: { playId: { in: plays.map((p) => p.id) }, questionId: { in: skilled } }, select: { playId: true, questionId: true, points: true, pointsMaximum: true } }),
    db.question.findMany({ where: { id: { in: skilled } }, select: { id: true, type: true, data: true } }),
  ]);
  const linksOf = groupBy(links, (l) => l.questionId);
  const maxima = new Map(questions.map((q) => [q.id, pointsMaximumOf(q)]));
  const answerOf = new Map(answers.map((a) => [`${a.playId} ${a.questionId}`, a]));
  return new Map(plays.map((p) => [
    p.id,
    skillPointsOf(p.questionIds, (q) => linksOf.get(q)?.map((l) => l.skill[key]), (q) => answerOf.get(`${p.id} ${q}`), (q) => maxima.get(q) ?? 0),
  ]));
}
