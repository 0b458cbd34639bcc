import { Prisma, type Play, type PlayAnswer } from '../../generated/prisma/client.ts';
import { Batcher } from '../../batcher.ts';
import { enqueueRows, jobRow } from '../../jobs/queue.ts';
import type { Task } from '../../jobs/task.ts';

/**
 * The player's hot statements, each one conditional write for many users at once: starts and
 * answers that arrive together are written by one statement (no transaction held open across
 * round trips, no lock taken before a read), so thousands of examinees at once cost the database
 * a few statements, not thousands. Every rule such a statement checks is in its WHERE; when it
 * matches nothing for an answer, the service reads the play once to tell the caller which rule
 * refused it.
 */

type Db = Prisma.TransactionClient;

/** Who plays what: an exam's examinee, or a practice play of a Quiz set. */
export type PlayScope = { examId: string; quizId: string; userId: string } | { examId: null; quizId: string; userId: string };

/** The key an open play of the scope holds (unique while it is open). */
export const openKeyOf = (scope: PlayScope) => (scope.examId ? `exam:${scope.examId}:${scope.userId}` : `quiz:${scope.quizId}:${scope.userId}`);

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

/** A start to make: who plays what, the play to write when none is open, and whether one may be written. */
export interface Claim {
  scope: PlayScope;
  play: NewPlay;
  create: boolean;
}

export type ClaimedPlay = Play & { created: boolean };

/**
 * Starts plays, or finds the open ones to continue, for many users in one statement. A scope's
 * open play (the latest) is answered as it is; otherwise, when `create` holds and the user is an
 * examinee of the exam (for exams), a new play is written with the next attempt number of the
 * round, together with the timer that finishes it at its deadline. The open play's unique key
 * makes a second start that runs at the same moment write nothing (ON CONFLICT): it answers no
 * play, and the caller reads the play that won. Answers no play, too, when nothing was written
 * and nothing is open. The outputs are in the order of the claims.
 */
export async function claimPlays(db: Db, claims: readonly Claim[], timer: Task<any, any, { play: string }>): Promise<(ClaimedPlay | undefined)[]> {
  const column = <T>(pick: (c: Claim) => T) => claims.map(pick);
  const jobs = claims.map((c) => (c.play.deadline ? jobRow(timer, { play: c.play.id }, { runAt: c.play.deadline, dedupeKey: c.play.id }) : null));
  const sameScope = Prisma.sql`p."userId" = i."userId" AND (CASE WHEN i."examId" IS NULL THEN p."examId" IS NULL AND p."quizId" = i."quizId" ELSE p."examId" = i."examId" END)`;
  const examinee = Prisma.sql`(i."examId" IS NULL OR EXISTS (SELECT 1 FROM "ExamUser" e WHERE e."examId" = i."examId" AND e."userId" = i."userId"))`;
  const rows = await db.$queryRaw<(ClaimedPlay & { claimKey: string })[]>`
    WITH "input" AS (
      SELECT * FROM unnest(${column((c) => c.play.id)}::text[], ${column((c) => c.scope.examId)}::text[], ${column((c) => c.scope.quizId)}::text[],
        ${column((c) => c.scope.userId)}::text[], ${column((c) => c.play.round)}::int[], ${column((c) => JSON.stringify(c.play.questionIds))}::text[],
        ${column((c) => JSON.stringify(c.play.questionMaxima))}::text[], ${column((c) => c.play.mode)}::text[], ${column((c) => c.play.roundtime)}::int[],
        ${column((c) => c.play.deadline?.toISOString() ?? null)}::timestamptz[], ${column((c) => c.play.now.toISOString())}::timestamptz[],
        ${column((c) => openKeyOf(c.scope))}::text[], ${column((c) => c.create)}::boolean[],
        ${jobs.map((j) => j?.jobId ?? null)}::text[], ${jobs.map((j) => j?.jobPayload ?? null)}::text[], ${jobs.map((j) => j?.jobKey ?? null)}::text[])
        AS i("id", "examId", "quizId", "userId", "round", "questionIds", "questionMaxima", "mode", "roundtime", "deadline", "now", "openKey", "create", "jobId", "jobPayload", "jobKey")
    ), "open" AS (
      SELECT DISTINCT ON (i."openKey") p.*, i."openKey" AS "claimKey"
      FROM "input" i JOIN "Play" p ON ${sameScope} AND p."status" = 'open'
      WHERE ${examinee}
      ORDER BY i."openKey", p."timeStart" DESC
    ), "created" AS (
      INSERT INTO "Play" ("id", "examId", "quizId", "userId", "round", "attempt", "status", "timeStart", "questionIds", "questionMaxima", "mode", "roundtime", "deadline", "positionStart", "openKey")
      SELECT i."id", i."examId", i."quizId", i."userId", i."round",
        (SELECT COALESCE(MAX(p."attempt"), 0) + 1 FROM "Play" p WHERE ${sameScope} AND p."round" = i."round"),
        'open', i."now" AT TIME ZONE 'UTC', ARRAY(SELECT jsonb_array_elements_text(i."questionIds"::jsonb)),
        ARRAY(SELECT jsonb_array_elements_text(i."questionMaxima"::jsonb)::float8), i."mode", i."roundtime",
        i."deadline" AT TIME ZONE 'UTC', i."now" AT TIME ZONE 'UTC', i."openKey"
      FROM "input" i
      WHERE i."create" AND NOT EXISTS (SELECT 1 FROM "open" o WHERE o."claimKey" = i."openKey") AND ${examinee}
      ON CONFLICT ("openKey") DO NOTHING
      RETURNING *
    ), "timers" AS (
      SELECT i."jobId", i."jobPayload", i."deadline" AS "jobRunAt", i."jobKey" FROM "created" c JOIN "input" i ON i."id" = c."id" WHERE i."jobId" IS NOT NULL
    ), "queued" AS (${enqueueRows(timer, Prisma.sql`"timers"`)})
    SELECT *, "openKey" AS "claimKey", true AS "created" FROM "created"
    UNION ALL
    SELECT *, false AS "created" FROM "open"`;
  const byKey = new Map(rows.map(({ claimKey, ...play }) => [claimKey, play as ClaimedPlay]));
  return claims.map((c) => byKey.get(openKeyOf(c.scope)));
}

/** Starts as the player makes them: many users' in one statement when they arrive together (src/batcher.ts). */
export type PlayClaimer = Batcher<Claim, ClaimedPlay | undefined>;

export function playClaimer(db: Db, concurrency: number, timer: Task<any, any, { play: string }>, waitForArrivals = false): PlayClaimer {
  // One claim per user and exam (Quiz set) in a statement: a second start of the same waits for the first.
  return new Batcher((claims) => claimPlays(db, claims, timer), { concurrency, keyOf: (c) => openKeyOf(c.scope), waitForArrivals });
}

export interface AnswerInput {
  play: string;
  question: string;
  response: unknown;
  hints: number;
  solutionSteps: number;
}

/** An answer to write: the input, the user answering and when it arrived. */
export interface AnswerToWrite {
  userId: string;
  input: AnswerInput;
  at: Date;
}

/**
 * Records (or replaces) answers to different plays in one statement, each written only when every
 * rule of the player holds for it: the play is the user's, open and within its deadline when the
 * answer arrived, the question is one of its questions, hints and solutions only outside exams,
 * and in TURNS mode the question is the one shown then (which moves the play on to the next). The
 * plays' rows are locked for the statement (FOR NO KEY UPDATE, in one order), so an answer and its
 * play's finish never interleave: an answer acknowledged before the finish is in its result, one
 * arriving after it is refused. The maximum comes from the play (fixed at its start); the time is
 * counted from the start of the play (TEST) or from when the question was shown (TURNS). Answers
 * the rows written by play; a play missing from it refused its answer.
 */
export async function recordAnswers(db: Db, answers: readonly AnswerToWrite[]): Promise<Map<string, PlayAnswer>> {
  const column = <T>(pick: (a: AnswerToWrite) => T) => answers.map(pick);
  const rows = await db.$queryRaw<PlayAnswer[]>`
    WITH "input" AS (
      SELECT * FROM unnest(${column((a) => a.input.play)}::text[], ${column((a) => a.userId)}::text[], ${column((a) => a.input.question)}::text[],
        ${column((a) => JSON.stringify(a.input.response))}::text[], ${column((a) => a.input.hints)}::int[], ${column((a) => a.input.solutionSteps)}::int[],
        ${column((a) => a.at.toISOString())}::timestamptz[])
        AS i("play", "user", "question", "response", "hints", "solutionSteps", "arrived")
    ), "play" AS (
      SELECT p."id", p."timeStart", p."mode", p."roundtime", p."position", p."questionMaxima", COALESCE(p."positionStart", p."timeStart") AS "since",
        array_position(p."questionIds", i."question") AS "idx", i."question", i."response", i."hints", i."solutionSteps", i."arrived" AT TIME ZONE 'UTC' AS "at"
      FROM "input" i JOIN "Play" p ON p."id" = i."play"
      WHERE p."userId" = i."user" AND p."status" = 'open' AND (p."deadline" IS NULL OR p."deadline" > i."arrived" AT TIME ZONE 'UTC')
        AND (p."examId" IS NULL OR (i."hints" = 0 AND i."solutionSteps" = 0))
      ORDER BY p."id"
      FOR NO KEY UPDATE OF p
    ), "turn" AS (
      SELECT *, CASE WHEN "roundtime" IS NULL THEN 0 ELSE floor(EXTRACT(EPOCH FROM ("at" - "since")) / "roundtime")::int END AS "skipped"
      FROM "play" WHERE "idx" IS NOT NULL
    ), "ok" AS (
      SELECT *, CASE WHEN "mode" = 'TURNS' THEN "since" + make_interval(secs => "skipped" * COALESCE("roundtime", 0)) ELSE "timeStart" END AS "shownAt"
      FROM "turn" WHERE "mode" <> 'TURNS' OR "position" + "skipped" = "idx" - 1
    ), "moved" AS (
      UPDATE "Play" SET "position" = "ok"."idx", "positionStart" = "ok"."at" FROM "ok" WHERE "Play"."id" = "ok"."id" AND "ok"."mode" = 'TURNS'
    )
    INSERT INTO "PlayAnswer" ("playId", "questionId", "index", "response", "hints", "solutionSteps", "timeAnswer", "points", "pointsMaximum", "evaluated", "gradedById", "answeredAt")
    SELECT "id", "question", "idx", "response"::jsonb, "hints", "solutionSteps",
      round(EXTRACT(EPOCH FROM ("at" - "shownAt"))::numeric, 3)::float8, NULL, COALESCE("questionMaxima"["idx"], 1), false, NULL, "at"
    FROM "ok"
    ON CONFLICT ("playId", "questionId") DO UPDATE SET
      "index" = EXCLUDED."index", "response" = EXCLUDED."response", "hints" = EXCLUDED."hints", "solutionSteps" = EXCLUDED."solutionSteps",
      "timeAnswer" = EXCLUDED."timeAnswer", "points" = NULL, "pointsMaximum" = EXCLUDED."pointsMaximum", "evaluated" = false,
      "gradedById" = NULL, "answeredAt" = EXCLUDED."answeredAt"
    RETURNING *`;
  return new Map(rows.map((row) => [row.playId, row]));
}

/** Answers as the player writes them: many to different plays in one statement when they arrive together (a group commit, src/batcher.ts). */
export type AnswerWriter = Batcher<AnswerToWrite, PlayAnswer | undefined>;

export function answerWriter(db: Db, concurrency: number): AnswerWriter {
  return new Batcher(async (answers) => {
    const written = await recordAnswers(db, answers);
    return answers.map((a) => written.get(a.input.play));
  }, { concurrency, keyOf: (a) => a.input.play });
}
