import type { Play, PlayAnswer, Question } from '../../generated/prisma/client.ts';
import { datetime } from '../../dates.ts';

/**
 * The contract's Quiz play result, built once for REST and for the webhooks' `data`. Datetimes in
 * the contract's format; points as JSON numbers.
 */

/** Finished, every question evaluated, not archived. */
export const isValid = (play: Pick<Play, 'status' | 'evaluated' | 'archived'>) => play.status === 'finished' && play.evaluated && !play.archived;

export function playResult(play: Play) {
  return {
    play: play.id,
    user: play.userId,
    time_start: datetime(play.timeStart),
    time_end: datetime(play.timeEnd),
    questions_total: play.questionsTotal,
    questions_correct: play.questionsCorrect,
    points_total: play.pointsTotal,
    points_correct: play.pointsCorrect,
    valid: isValid(play),
    successful: play.successful,
  };
}

/** An exam result adds the attempt. */
export const examPlayResult = (play: Play) => ({ ...playResult(play), attempt: play.attempt });

/** A question of a play as the detailed result shows it. */
export interface ResultQuestion {
  index: number;
  /** The question's external id. */
  id: string;
  question: string;
  time_answer?: number;
  points_maximum: number;
  points: number;
}

/**
 * Each question of the play in its order with its maximum and points (0 until scored);
 * time_answer only where an answer was given. A question no longer stored is left out.
 */
export function resultQuestions(play: Play & { answers: PlayAnswer[] }, questions: Pick<Question, 'id' | 'externalId' | 'type' | 'data'>[], maximumOf: (q: Pick<Question, 'type' | 'data'>) => number): ResultQuestion[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const answers = new Map(play.answers.map((a) => [a.questionId, a]));
  return play.questionIds.flatMap((id, i) => {
    const question = byId.get(id);
    if (!question) return [];
    const answer = answers.get(id);
    return [
      {
        index: i + 1,
        id: question.externalId,
        question: id,
        ...(answer?.timeAnswer !== null && answer?.timeAnswer !== undefined ? { time_answer: answer.timeAnswer } : {}),
        points_maximum: answer?.pointsMaximum ?? maximumOf(question),
        points: answer?.points ?? 0,
      },
    ];
  });
}

/** The detailed result: attempt for exam plays, and each question of the play (resultQuestions). */
export function detailedResult(play: Play & { answers: PlayAnswer[] }, questions: Pick<Question, 'id' | 'externalId' | 'type' | 'data'>[], maximumOf: (q: Pick<Question, 'type' | 'data'>) => number) {
  return { ...playResult(play), ...(play.examId ? { attempt: play.attempt } : {}), questions: resultQuestions(play, questions, maximumOf) };
}

/** The webhook `data` of exam-play-result and quiz-play-result (described in the reference, /api/docs). */
export function resultEventData(play: Play) {
  return {
    ...playResult(play),
    ...(play.examId ? { exam: play.examId, attempt: play.attempt } : {}),
    quiz: play.quizId,
    grade: play.grade,
  };
}
