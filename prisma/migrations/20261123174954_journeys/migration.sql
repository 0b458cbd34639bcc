-- CreateTable
CREATE TABLE "Journey" (
    "id" TEXT NOT NULL,
    "examId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "settings" JSONB NOT NULL,
    "nodes" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "published" JSONB,
    "publishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Journey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JourneyUser" (
    "journeyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "outcome" TEXT,
    "error" TEXT,
    "run" INTEGER NOT NULL DEFAULT 1,
    "node" TEXT,
    "waitUntil" TIMESTAMP(3),
    "dueAt" TIMESTAMP(3),
    "flags" JSONB NOT NULL DEFAULT '{}',
    "marks" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "timeStart" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timeEnd" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "JourneyUser_pkey" PRIMARY KEY ("journeyId","userId")
);

-- CreateTable
CREATE TABLE "JourneyVisit" (
    "id" TEXT NOT NULL,
    "journeyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "run" INTEGER NOT NULL,
    "visit" INTEGER NOT NULL,
    "node" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "output" TEXT,
    "timeStart" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timeEnd" TIMESTAMP(3),
    "playId" TEXT,
    "result" DOUBLE PRECISION,
    "successful" BOOLEAN,
    "grade" TEXT,
    "skills" JSONB,
    "decisions" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "JourneyVisit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JourneyEvent" (
    "id" TEXT NOT NULL,
    "journeyId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "run" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "fromNode" TEXT,
    "fromStatus" TEXT,
    "toNode" TEXT,
    "toStatus" TEXT,
    "operatorId" TEXT,
    "time" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JourneyEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Journey_examId_key" ON "Journey"("examId");

-- CreateIndex
CREATE INDEX "JourneyUser_journeyId_node_idx" ON "JourneyUser"("journeyId", "node");

-- CreateIndex
CREATE INDEX "JourneyUser_dueAt_idx" ON "JourneyUser"("dueAt");

-- CreateIndex
CREATE INDEX "JourneyUser_userId_idx" ON "JourneyUser"("userId");

-- CreateIndex
CREATE INDEX "JourneyVisit_journeyId_userId_run_idx" ON "JourneyVisit"("journeyId", "userId", "run");

-- CreateIndex
CREATE INDEX "JourneyEvent_journeyId_userId_idx" ON "JourneyEvent"("journeyId", "userId");

-- AddForeignKey
ALTER TABLE "Journey" ADD CONSTRAINT "Journey_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JourneyUser" ADD CONSTRAINT "JourneyUser_journeyId_fkey" FOREIGN KEY ("journeyId") REFERENCES "Journey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JourneyUser" ADD CONSTRAINT "JourneyUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JourneyVisit" ADD CONSTRAINT "JourneyVisit_journeyId_fkey" FOREIGN KEY ("journeyId") REFERENCES "Journey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JourneyEvent" ADD CONSTRAINT "JourneyEvent_journeyId_fkey" FOREIGN KEY ("journeyId") REFERENCES "Journey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
