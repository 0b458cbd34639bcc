-- AlterTable
ALTER TABLE "Play" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "deadline" TIMESTAMP(3),
ADD COLUMN     "evaluated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "forgottenAt" TIMESTAMP(3),
ADD COLUMN     "grade" TEXT,
ADD COLUMN     "pointsCorrect" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "pointsTotal" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "positionStart" TIMESTAMP(3),
ADD COLUMN     "questionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "questionsCorrect" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "questionsTotal" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "successful" BOOLEAN;

-- CreateTable
CREATE TABLE "PlayAnswer" (
    "playId" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "hints" INTEGER NOT NULL DEFAULT 0,
    "solutionSteps" INTEGER NOT NULL DEFAULT 0,
    "timeAnswer" DOUBLE PRECISION,
    "points" DOUBLE PRECISION,
    "pointsMaximum" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "evaluated" BOOLEAN NOT NULL DEFAULT false,
    "gradedById" TEXT,
    "answeredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlayAnswer_pkey" PRIMARY KEY ("playId","questionId")
);

-- CreateIndex
CREATE INDEX "Play_examId_userId_idx" ON "Play"("examId", "userId");

-- AddForeignKey
ALTER TABLE "PlayAnswer" ADD CONSTRAINT "PlayAnswer_playId_fkey" FOREIGN KEY ("playId") REFERENCES "Play"("id") ON DELETE CASCADE ON UPDATE CASCADE;
