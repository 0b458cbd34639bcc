-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "runAt" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "dedupeKey" TEXT,
    "lockedBy" TEXT,
    "lockedUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- CreateIndex
CREATE UNIQUE INDEX "Job_task_dedupeKey_key" ON "Job"("task", "dedupeKey");

-- Work queued before the job kit existed becomes jobs, so nothing pending is lost by the upgrade.
-- Domain times are UTC timestamps without a zone.
INSERT INTO "Job" ("id", "task", "payload", "runAt", "attempts", "dedupeKey")
SELECT 'job_' || "id", 'webhooks.deliver', jsonb_build_object('delivery', "id"), "nextAttemptAt" AT TIME ZONE 'UTC', "attempts", "id"
FROM "WebhookDelivery" WHERE "status" = 'pending';

INSERT INTO "Job" ("id", "task", "payload", "runAt", "attempts", "dedupeKey")
SELECT 'job_' || "id", 'notifications.deliver', jsonb_build_object('notification', "id"), "nextAttemptAt" AT TIME ZONE 'UTC', "attempts", "id"
FROM "Notification" WHERE "status" = 'pending';

INSERT INTO "Job" ("id", "task", "payload", "runAt", "dedupeKey")
SELECT 'job_' || "id", 'questions.expire-export', jsonb_build_object('export', "id"), "validUntil" AT TIME ZONE 'UTC', "id"
FROM "QuestionExport";
