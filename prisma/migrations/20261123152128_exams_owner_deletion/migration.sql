-- DropForeignKey
ALTER TABLE "Exam" DROP CONSTRAINT "Exam_quizId_fkey";

-- DropForeignKey
ALTER TABLE "Play" DROP CONSTRAINT "Play_examId_fkey";

-- DropForeignKey
ALTER TABLE "Play" DROP CONSTRAINT "Play_quizId_fkey";

-- AddForeignKey
ALTER TABLE "Exam" ADD CONSTRAINT "Exam_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "QuizSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Play" ADD CONSTRAINT "Play_examId_fkey" FOREIGN KEY ("examId") REFERENCES "Exam"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Play" ADD CONSTRAINT "Play_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "QuizSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;
