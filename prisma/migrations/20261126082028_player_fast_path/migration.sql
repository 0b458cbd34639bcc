-- The player's fast path: what an answer needs of its play is fixed on the play at its start
-- (each question's maximum, the mode and roundtime), and an open play holds a unique key so that
-- a start is one conditional statement.
ALTER TABLE "Play" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'TEST',
ADD COLUMN     "openKey" TEXT,
ADD COLUMN     "questionMaxima" DOUBLE PRECISION[] DEFAULT ARRAY[]::DOUBLE PRECISION[],
ADD COLUMN     "roundtime" INTEGER;

-- Plays open now take what their start would have fixed: the Quiz set's mode, the roundtime of
-- the exam (its own setting, else the Quiz set's; only positive values limit), each question's
-- points (reading questions 0, `points` when it is a number of at least 0, else 1).
UPDATE "Play" p SET
  "mode" = src."mode",
  "roundtime" = CASE
    WHEN src."mode" <> 'TURNS' THEN NULL
    WHEN jsonb_typeof(src."examRoundtime") = 'number' THEN NULLIF(GREATEST((src."examRoundtime"#>>'{}')::numeric, 0), 0)::int
    ELSE NULLIF(GREATEST(COALESCE(src."quizRoundtime", 0), 0), 0)
  END,
  "questionMaxima" = COALESCE((
    SELECT array_agg(CASE
      WHEN qu."type" = 'reading' THEN 0
      WHEN jsonb_typeof(qu."data"->'points') = 'number' AND (qu."data"->>'points')::float8 >= 0 THEN (qu."data"->>'points')::float8
      ELSE 1 END ORDER BY ids.n)
    FROM unnest(p."questionIds") WITH ORDINALITY AS ids(id, n) LEFT JOIN "Question" qu ON qu."id" = ids.id
  ), ARRAY[]::DOUBLE PRECISION[])
FROM (
  SELECT pl."id", q."mode", q."roundtime" AS "quizRoundtime", s."values"->'roundtime' AS "examRoundtime"
  FROM "Play" pl JOIN "QuizSet" q ON q."id" = pl."quizId" LEFT JOIN "ExamSettings" s ON s."examId" = pl."examId"
  WHERE pl."status" = 'open'
) src
WHERE p."id" = src."id";

-- The latest open play of each examinee (of each practice player) holds the key.
UPDATE "Play" p SET "openKey" = latest.key
FROM (
  SELECT DISTINCT ON (key) id, key FROM (
    SELECT id, "timeStart", CASE WHEN "examId" IS NOT NULL THEN 'exam:' || "examId" || ':' || "userId" ELSE 'quiz:' || "quizId" || ':' || "userId" END AS key
    FROM "Play" WHERE "status" = 'open' AND "userId" IS NOT NULL
  ) open ORDER BY key, "timeStart" DESC
) latest
WHERE p.id = latest.id;

CREATE UNIQUE INDEX "Play_openKey_key" ON "Play"("openKey");
