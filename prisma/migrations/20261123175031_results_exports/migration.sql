-- CreateTable
CREATE TABLE "ResultsExport" (
    "id" TEXT NOT NULL,
    "examId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "integrationId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "validUntil" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResultsExport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ResultsExport_tokenHash_key" ON "ResultsExport"("tokenHash");

-- CreateIndex
CREATE INDEX "ResultsExport_examId_idx" ON "ResultsExport"("examId");

-- CreateIndex
CREATE INDEX "ResultsExport_userId_idx" ON "ResultsExport"("userId");

-- AddForeignKey
ALTER TABLE "ResultsExport" ADD CONSTRAINT "ResultsExport_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResultsExport" ADD CONSTRAINT "ResultsExport_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
