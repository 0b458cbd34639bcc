import type { Exam, Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { nonblockingOf, pausableOf, questionlessOf, type StoredSettings } from '../exams/settings.model.ts';

/**
 * The few exam settings the player needs, read in this one place from what the exam settings
 * domain stores (`ExamSettings.values`); unconfigured settings play by the defaults below.
 */

/** Settings as the exam settings domain stores them; a missing key is not configured. */
export interface StoredExamSettings {
  /** Seconds; 0 no limit; null or missing: `default` (the Quiz set's). */
  timelimit?: number | null;
  roundtime?: number | null;
  /** A preset code, `none`, or null / missing: `default` (the Quiz set's). */
  grading?: string | null;
  gradingThreshold?: number | null;
  nonblocking?: boolean | null;
  pausable?: boolean | null;
  archive?: boolean | null;
  questionless?: boolean | null;
}

type Reader = Prisma.TransactionClient;

/** The player's reading of the stored settings: `default` (the Quiz set's) reads as null. */
export function playerSettings(stored: StoredSettings): StoredExamSettings {
  const own = (value: number | 'default' | undefined) => (value === 'default' ? null : value);
  return {
    timelimit: own(stored.timelimit),
    roundtime: own(stored.roundtime),
    grading: stored.grading === 'default' ? null : stored.grading,
    gradingThreshold: stored.gradingThreshold,
    nonblocking: stored.nonblocking,
    pausable: stored.pausable,
    archive: stored.archive,
    questionless: stored.questionless,
  };
}

/** Where stored exam settings come from: the exam settings domain's rows, in one statement. Tests of the player may point it at their own. */
export const examSettingsSource: { read: (db: Reader, exams: readonly Exam[]) => Promise<StoredExamSettings[]> } = {
  read: async (db, exams) => {
    const rows = await db.examSettings.findMany({ where: { examId: { in: exams.map((exam) => exam.id) } } });
    const byExam = new Map(rows.map((row) => [row.examId, row.values as StoredSettings]));
    return exams.map((exam) => playerSettings(byExam.get(exam.id) ?? {}));
  },
};

/** The rules one play of an exam (or a practice play of a Quiz set alone) follows. */
export interface PlayRules {
  /** Seconds for the whole test; null no limit. */
  timelimit: number | null;
  /** Seconds per question (TURNS Quiz sets only); null no limit. */
  roundtime: number | null;
  /** A grading preset code, `custom`, or null (grading `none`: nothing decided). */
  grading: string | null;
  gradingThreshold: number | null;
  /** Exam accounts may start other plays during the exam period. */
  nonblocking: boolean;
  /** An open play stays open until the exam period ends (pausing), whatever the time limit. */
  pausable: boolean;
  /** Examinees' current results may be archived. */
  archive: boolean;
  /** The test has no questions: starting it finishes it. */
  questionless: boolean;
}

const positive = (n: number | null | undefined) => (n === null || n === undefined || n <= 0 ? null : n);
/** A Quiz set's `grading`: null (not configured) and `none` both grade nothing. */
const quizGrading = (quiz: Pick<QuizSet, 'grading'>) => (quiz.grading === null || quiz.grading === 'none' ? null : quiz.grading);

/** A practice play follows its Quiz set's settings. */
export function practiceRules(quiz: QuizSet): PlayRules {
  return {
    timelimit: positive(quiz.timelimit),
    roundtime: quiz.mode === 'TURNS' ? positive(quiz.roundtime) : null,
    grading: quizGrading(quiz),
    gradingThreshold: quiz.gradingThreshold,
    nonblocking: true,
    pausable: false,
    archive: false,
    questionless: false,
  };
}

/**
 * An exam's rules: its own setting where configured, the Quiz set's where it defers (timelimit,
 * roundtime, grading `default`). Defaults where the settings table of the contract gives none:
 * nonblocking false (true for homework and survey, as the table requires), pausable false (true for
 * homework), archive false, questionless false (never for survey and championship).
 */
export function examRulesOf(exam: Exam, quiz: QuizSet, stored: StoredExamSettings): PlayRules {
  const fromQuiz = practiceRules(quiz);
  // The values the exam's type fixes come from the settings domain's own rules.
  const flags: StoredSettings = { nonblocking: stored.nonblocking ?? undefined, pausable: stored.pausable ?? undefined, questionless: stored.questionless ?? undefined };
  const deferGrading = stored.grading === null || stored.grading === undefined || stored.grading === 'default';
  return {
    timelimit: stored.timelimit === null || stored.timelimit === undefined ? fromQuiz.timelimit : positive(stored.timelimit),
    roundtime: quiz.mode !== 'TURNS' ? null : stored.roundtime === null || stored.roundtime === undefined ? fromQuiz.roundtime : positive(stored.roundtime),
    grading: exam.type === 'survey' ? null : deferGrading ? fromQuiz.grading : stored.grading === 'none' ? null : stored.grading!,
    gradingThreshold: deferGrading ? fromQuiz.gradingThreshold : (stored.gradingThreshold ?? null),
    nonblocking: nonblockingOf(exam.type, flags),
    pausable: pausableOf(exam.type, flags),
    archive: stored.archive ?? false,
    questionless: questionlessOf(exam.type, flags),
  };
}

/** The rules of each exam, in order (one round of statements for the stored settings). */
export async function examRules(db: Reader, exams: readonly (Exam & { quiz: QuizSet })[]): Promise<PlayRules[]> {
  const stored = await examSettingsSource.read(db, exams);
  return exams.map((exam, i) => examRulesOf(exam, exam.quiz, stored[i] ?? {}));
}

/** The code of the grading preset the rules name; null for no grading, or a bare threshold (`custom`). */
export const presetCodeOf = (rules: Pick<PlayRules, 'grading'>): string | null => (rules.grading && rules.grading !== 'custom' ? rules.grading : null);

/** The grading preset the rules name (see presetCodeOf). */
export const gradingPresetOf = (db: Reader, rules: Pick<PlayRules, 'grading'>) => {
  const code = presetCodeOf(rules);
  return code ? db.gradingPreset.findUnique({ where: { id: code } }) : Promise.resolve(null);
};

/** The exam period is running (an exam account of a blocking exam is held to it). */

export const inExamPeriod = (exam: Pick<Exam, 'active' | 'start' | 'end'>, now: Date) => exam.active && exam.start <= now && now < exam.end;
