-- CreateTable
CREATE TABLE "ExamSettings" (
    "examId" TEXT NOT NULL,
    "values" JSONB NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExamSettings_pkey" PRIMARY KEY ("examId")
);

-- CreateTable
CREATE TABLE "ExamCertificateSettings" (
    "examId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "serialNumbering" BOOLEAN NOT NULL DEFAULT false,
    "serialPrefix" TEXT NOT NULL DEFAULT '',
    "nextSerial" INTEGER NOT NULL DEFAULT 1,
    "validityMonths" INTEGER,
    "title" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExamCertificateSettings_pkey" PRIMARY KEY ("examId")
);

-- CreateTable
CREATE TABLE "ExamFieldSet" (
    "examId" TEXT NOT NULL,
    "name" BOOLEAN NOT NULL DEFAULT true,
    "nameLabel" TEXT,
    "email" BOOLEAN NOT NULL DEFAULT true,
    "emailLabel" TEXT,
    "phone" BOOLEAN NOT NULL DEFAULT false,
    "phoneLabel" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExamFieldSet_pkey" PRIMARY KEY ("examId")
);

-- CreateTable
CREATE TABLE "ExamField" (
    "id" TEXT NOT NULL,
    "examId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "removedAt" TIMESTAMP(3),
    "type" TEXT NOT NULL DEFAULT 'text',
    "required" BOOLEAN NOT NULL DEFAULT true,
    "description" TEXT,
    "icon" TEXT,
    "options" JSONB,
    "filtering" JSONB,
    "from" DOUBLE PRECISION,
    "to" DOUBLE PRECISION,
    "step" DOUBLE PRECISION,
    "min" TEXT,
    "max" TEXT,
    "minlength" INTEGER,
    "maxlength" INTEGER,
    "pattern" TEXT,
    "unique" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ExamField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExamFieldValue" (
    "fieldId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExamFieldValue_pkey" PRIMARY KEY ("fieldId","userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ExamField_examId_label_key" ON "ExamField"("examId", "label");

-- CreateIndex
CREATE INDEX "ExamFieldValue_fieldId_value_idx" ON "ExamFieldValue"("fieldId", "value");

-- CreateIndex
CREATE INDEX "ExamFieldValue_userId_idx" ON "ExamFieldValue"("userId");

-- AddForeignKey
ALTER TABLE "ExamSettings" ADD CONSTRAINT "ExamSettings_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExamCertificateSettings" ADD CONSTRAINT "ExamCertificateSettings_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExamFieldSet" ADD CONSTRAINT "ExamFieldSet_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExamField" ADD CONSTRAINT "ExamField_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExamFieldValue" ADD CONSTRAINT "ExamFieldValue_fieldId_fkey" FOREIGN KEY ("fieldId") REFERENCES "ExamField"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExamFieldValue" ADD CONSTRAINT "ExamFieldValue_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
