import { Prisma, type Play, type PlayAnswer } from '../../generated/prisma/client.ts';
import { enqueueFrom } from '../../jobs/queue.ts';
import type { Task } from '../../jobs/task.ts';

/**
 * The player's hot statements, each one conditional write: an examinee's start and every answer
 * are one statement (no transaction held open across round trips, no lock taken before a read),
 * so thousands of examinees at once cost the database a statement each. Every rule such a
 * statement checks is in its WHERE; when it matches nothing, the service reads the play once to
 * tell the caller which rule refused it.
 */

type Db = Prisma.TransactionClient;

/** Timestamps are stored as UTC without a time zone (Prisma's DateTime). */
const at = (date: Date) => Prisma.sql`${date.toISOString()}::timestamptz AT TIME ZONE 'UTC'`;

/** Who plays what: an exam's examinee, or a practice play of a Quiz set. */
export type PlayScope = { examId: string; quizId: string; userId: string } | { examId: null; quizId: string; userId: string };

/** The key an open play of the scope holds (unique while it is open). */
export const openKeyOf = (scope: PlayScope) => (scope.examId ? `exam:${scope.examId}:${scope.userId}` : `quiz:${scope.quizId}:${scope.userId}`);

const inScope = (scope: PlayScope) =>
  scope.examId ? Prisma.sql`"examId" = ${scope.examId} AND "userId" = ${scope.userId}` : Prisma.sql`"examId" IS NULL AND "quizId" = ${scope.quizId} AND "userId" = ${scope.userId}`;

export interface NewPlay {
  id: string;
  round: number;
  now: Date;
  questionIds: string[];
  questionMaxima: number[];
  mode: string;
  roundtime: number | null;
  deadline: Date | null;
}

export type ClaimedPlay = Play & { created: boolean };

/**
 * Starts a play, or finds the open one to continue, in one statement. The scope's open play (the
 * latest) is answered as it is; otherwise, when `create` holds and the user is an examinee of the
 * exam (for exams), a new play is written with the next attempt number of the round, together with
 * the timer that finishes it at its deadline. The open play's unique key makes a second start that
 * runs at the same moment write nothing (ON CONFLICT): it answers no row, and the caller reads the
 * play that won. Answers no row, too, when nothing was written and nothing is open.
 */
export async function claimPlay(db: Db, scope: PlayScope, play: NewPlay, create: boolean, timer: Task<any, any, { play: string }>): Promise<ClaimedPlay | undefined> {
  const examinee = scope.examId ? Prisma.sql`AND EXISTS (SELECT 1 FROM "ExamUser" WHERE "examId" = ${scope.examId} AND "userId" = ${scope.userId})` : Prisma.empty;
  const job = play.deadline
    ? Prisma.sql`, "timer" AS (${enqueueFrom(Prisma.sql`"created"`, timer, { play: play.id }, { runAt: play.deadline, dedupeKey: play.id })})`
    : Prisma.empty;
  const rows = await db.$queryRaw<ClaimedPlay[]>`
    WITH "open" AS (
      SELECT * FROM "Play" WHERE ${inScope(scope)} AND "status" = 'open' ORDER BY "timeStart" DESC LIMIT 1
    ), "created" AS (
      INSERT INTO "Play" ("id", "examId", "quizId", "userId", "round", "attempt", "status", "timeStart", "questionIds", "questionMaxima", "mode", "roundtime", "deadline", "positionStart", "openKey")
      SELECT ${play.id}, ${scope.examId}, ${scope.quizId}, ${scope.userId}, ${play.round},
        (SELECT COALESCE(MAX("attempt"), 0) + 1 FROM "Play" WHERE ${inScope(scope)} AND "round" = ${play.round}),
        'open', ${at(play.now)}, ${play.questionIds}::text[], ${play.questionMaxima}::float8[], ${play.mode}, ${play.roundtime}::int,
        ${play.deadline ? at(play.deadline) : null}, ${at(play.now)}, ${openKeyOf(scope)}
      WHERE ${create}::boolean AND NOT EXISTS (SELECT 1 FROM "open") ${examinee}
      ON CONFLICT ("openKey") DO NOTHING
      RETURNING *
    )${job}
    SELECT *, true AS "created" FROM "created"
    UNION ALL
    SELECT *, false AS "created" FROM "open"`;
  return rows[0];
}

export interface AnswerInput {
  play: string;
  question: string;
  response: unknown;
  hints: number;
  solutionSteps: number;
}

/**
 * Records (or replaces) an answer in one statement, written only when every rule of the player
 * holds: the play is the user's, open and within its deadline, the question is one of its
 * questions, hints and solutions only outside exams, and in TURNS mode the question is the one
 * shown now (which moves the play on to the next). The play's row is locked for the statement
 * (FOR NO KEY UPDATE), so an answer and the play's finish never interleave: an answer acknowledged
 * before the finish is in its result, one arriving after it is refused. The maximum comes from
 * the play (fixed at its start); the time is counted from the start of the play (TEST) or from
 * when the question was shown (TURNS). Answers no row when a rule refused it.
 */
export async function recordAnswer(db: Db, userId: string, input: AnswerInput, now: Date): Promise<PlayAnswer | undefined> {
  const rows = await db.$queryRaw<PlayAnswer[]>`
    WITH "play" AS (
      SELECT "id", "timeStart", "mode", "roundtime", "position", "questionMaxima", COALESCE("positionStart", "timeStart") AS "since",
        array_position("questionIds", ${input.question}::text) AS "idx"
      FROM "Play"
      WHERE "id" = ${input.play} AND "userId" = ${userId} AND "status" = 'open' AND ("deadline" IS NULL OR "deadline" > ${at(now)})
        AND ("examId" IS NULL OR (${input.hints}::int = 0 AND ${input.solutionSteps}::int = 0))
      FOR NO KEY UPDATE
    ), "turn" AS (
      SELECT *, CASE WHEN "roundtime" IS NULL THEN 0 ELSE floor(EXTRACT(EPOCH FROM (${at(now)} - "since")) / "roundtime")::int END AS "skipped"
      FROM "play" WHERE "idx" IS NOT NULL
    ), "ok" AS (
      SELECT *, CASE WHEN "mode" = 'TURNS' THEN "since" + make_interval(secs => "skipped" * COALESCE("roundtime", 0)) ELSE "timeStart" END AS "shownAt"
      FROM "turn" WHERE "mode" <> 'TURNS' OR "position" + "skipped" = "idx" - 1
    ), "moved" AS (
      UPDATE "Play" SET "position" = "ok"."idx", "positionStart" = ${at(now)} FROM "ok" WHERE "Play"."id" = "ok"."id" AND "ok"."mode" = 'TURNS'
    )
    INSERT INTO "PlayAnswer" ("playId", "questionId", "index", "response", "hints", "solutionSteps", "timeAnswer", "points", "pointsMaximum", "evaluated", "gradedById", "answeredAt")
    SELECT "id", ${input.question}, "idx", ${JSON.stringify(input.response)}::jsonb, ${input.hints}, ${input.solutionSteps},
      round(EXTRACT(EPOCH FROM (${at(now)} - "shownAt"))::numeric, 3)::float8, NULL, COALESCE("questionMaxima"["idx"], 1), false, NULL, ${at(now)}
    FROM "ok"
    ON CONFLICT ("playId", "questionId") DO UPDATE SET
      "index" = EXCLUDED."index", "response" = EXCLUDED."response", "hints" = EXCLUDED."hints", "solutionSteps" = EXCLUDED."solutionSteps",
      "timeAnswer" = EXCLUDED."timeAnswer", "points" = NULL, "pointsMaximum" = EXCLUDED."pointsMaximum", "evaluated" = false,
      "gradedById" = NULL, "answeredAt" = EXCLUDED."answeredAt"
    RETURNING *`;
  return rows[0];
}

/** Writes the scores of many answers of one play in one statement. */
export async function writeScores(db: Db, playId: string, scores: { questionId: string; points: number; pointsMaximum: number; evaluated: boolean }[]): Promise<void> {
  if (scores.length === 0) return;
  await db.$executeRaw`
    UPDATE "PlayAnswer" a SET "points" = s."points", "pointsMaximum" = s."pointsMaximum", "evaluated" = s."evaluated"
    FROM unnest(${scores.map((s) => s.questionId)}::text[], ${scores.map((s) => s.points)}::float8[], ${scores.map((s) => s.pointsMaximum)}::float8[], ${scores.map((s) => s.evaluated)}::boolean[])
      AS s("questionId", "points", "pointsMaximum", "evaluated")
    WHERE a."playId" = ${playId} AND a."questionId" = s."questionId"`;
}
