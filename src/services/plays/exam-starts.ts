import type { Exam, Prisma, Question, QuizSet } from '../../generated/prisma/client.ts';
import { TtlMap } from '../../ttl-map.ts';
import { entriesOf } from '../quizzes/entries.ts';
import { examRules, practiceRules, type PlayRules } from './exam-rules.ts';
import { pointsMaximumOf } from './scoring.ts';
import { runSettingsFrom, type RunSettings } from '../exams/settings-status.ts';

type Reader = Prisma.TransactionClient;

/** The questions a play of a Quiz set gets, in the Quiz set's order (before any shuffle), with each one's points. */
export interface QuestionOrder {
  ids: string[];
  maxima: number[];
}

/** What every start (and finish) of one exam reads alike: the exam, its rules and status settings, and its questions. */
export interface ExamStart {
  exam: Exam & { quiz: QuizSet };
  rules: PlayRules;
  run: RunSettings;
  questions: QuestionOrder;
  /** The same questions by id, with their answer keys: what a finish scores its answers by. */
  answerKeys: ReadonlyMap<string, Question>;
}

/** The Quiz set's active questions (active items of active groups) in its order. */
async function activeQuestionsOf(db: Reader, quizId: string): Promise<Question[]> {
  const [entries] = await entriesOf({ db }, [quizId]);
  return entries!.flatMap((e) => (e.kind === 'question' && e.item.active && e.question.active && (e.group === null || e.group.active) ? [e.question] : []));
}

const orderOf = (questions: Question[]): QuestionOrder => ({ ids: questions.map((q) => q.id), maxima: questions.map(pointsMaximumOf) });

async function loadExamStart(db: Reader, examId: string): Promise<ExamStart | null> {
  const found = await db.exam.findFirst({ where: { id: examId, archived: false }, include: { quiz: true, settings: { select: { values: true } } } });
  if (!found) return null;
  const { settings, ...exam } = found;
  const [[rules], questions] = await Promise.all([examRules(db, [exam]), activeQuestionsOf(db, exam.quizId)]);
  return {
    exam,
    rules: rules!,
    run: runSettingsFrom(exam.type, settings?.values),
    questions: orderOf(questions),
    answerKeys: new Map(questions.map((q) => [q.id, q])),
  };
}

/**
 * On exam day thousands of examinees start the same exam within seconds, and each start would read
 * the same exam, settings and question order. They are kept per exam for PLAYER_CACHE_TTL_MS: a
 * write made through this instance clears them at once (see audit()), a change made through
 * another instance reaches starts (and the answer keys finishes score by) here within that time.
 * What a play needs later (its questions, their points, its mode) is fixed on the play itself at
 * its start.
 */
export class ExamStarts {
  private readonly exams: TtlMap<ExamStart>;

  constructor(ttlMs: number) {
    this.exams = new TtlMap(ttlMs, 1_000);
  }

  get(db: Reader, examId: string): Promise<ExamStart | null> {
    return this.exams.get(examId, () => loadExamStart(db, examId));
  }

  clear(): void {
    this.exams.clear();
  }
}

/** A practice play follows its Quiz set alone, read on every start (practice has no exam day). */
export async function practiceStart(db: Reader, quiz: QuizSet): Promise<{ rules: PlayRules; questions: QuestionOrder }> {
  return { rules: practiceRules(quiz), questions: orderOf(await activeQuestionsOf(db, quiz.id)) };
}
