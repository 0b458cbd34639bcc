-- CreateTable
CREATE TABLE "Certificate" (
    "id" TEXT NOT NULL,
    "examId" TEXT NOT NULL,
    "playId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "serial" TEXT,
    "title" TEXT NOT NULL,
    "grade" TEXT,
    "issuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "Certificate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CertificateLink" (
    "id" TEXT NOT NULL,
    "certificateId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenCipher" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "validUntil" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CertificateLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Certificate_playId_key" ON "Certificate"("playId");

-- CreateIndex
CREATE INDEX "Certificate_examId_userId_idx" ON "Certificate"("examId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Certificate_examId_serial_key" ON "Certificate"("examId", "serial");

-- CreateIndex
CREATE UNIQUE INDEX "CertificateLink_tokenHash_key" ON "CertificateLink"("tokenHash");

-- CreateIndex
CREATE INDEX "CertificateLink_certificateId_validUntil_idx" ON "CertificateLink"("certificateId", "validUntil");

-- AddForeignKey
ALTER TABLE "Certificate" ADD CONSTRAINT "Certificate_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Certificate" ADD CONSTRAINT "Certificate_playId_fkey" FOREIGN KEY ("playId") REFERENCES "Play"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Certificate" ADD CONSTRAINT "Certificate_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CertificateLink" ADD CONSTRAINT "CertificateLink_certificateId_fkey" FOREIGN KEY ("certificateId") REFERENCES "Certificate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CertificateLink" ADD CONSTRAINT "CertificateLink_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "StoredFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;
