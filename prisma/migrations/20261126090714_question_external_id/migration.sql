-- CreateIndex
CREATE INDEX "Question_externalId_idx" ON "Question"("externalId");
