import type { Context } from '../../context.ts';
import type { Exam, ExamField, Play, Prisma, User } from '../../generated/prisma/client.ts';
import { userPolicy } from '../../auth/policy.ts';
import { datetime } from '../../dates.ts';
import { settingsView, type SettingsView } from '../exams/settings.model.ts';
import { storedSettings } from '../exams/settings.service.ts';
import { skillsOf } from '../quizzes/items.service.ts';
import type { SkillPoints } from './scoring.ts';
import { skillPointsOfPlays } from './skill-points.ts';
import { isValid } from './result-record.ts';
import type { Cell } from './sheet-writers.ts';
import { groupBy } from '../group-by.ts';

/**
 * The table of a results export: its columns, which the exam's export settings choose, and its
 * rows, read from the database in batches in the chosen order. Nothing here holds more than one
 * batch of examinees and their results.
 */

export interface ExportChoice {
  format: 'csv' | 'xlsx';
  preset: 'default' | 'answers';
  sort: 'default' | 'name';
  /** The round exported: the current one, or a closed one that was asked for. */
  round: number;
  closedRound: boolean;
  /** Field label -> the options (any of them matches). */
  filters: Record<string, string[]>;
  language: string;
}

/** Examinees read per statement; each batch brings their results and answers with it. */
const BATCH = 500;

// ---------------------------------------------------------------------------------------------
// Labels of the fixed columns and values, in the languages the export knows (English otherwise).

const words = {
  en: {
    user: 'User', name: 'Name', email: 'Email', phone: 'Phone', gender: 'Gender', attempt: 'Attempt', status: 'Status',
    started: 'Started', finished: 'Finished', valid: 'Valid', successful: 'Successful', grade: 'Grade',
    questionsTotal: 'Questions', questionsCorrect: 'Correct answers', pointsTotal: 'Points available', pointsCorrect: 'Points scored',
    percent: 'Result (%)', duration: 'Duration (s)', suspicion: 'Suspicion', journey: 'Journey', answer: 'Answer', points: 'Points', skill: 'Skill (%)',
    yes: 'yes', no: 'no', notStarted: 'not started', open: 'in progress', paused: 'paused', done: 'finished', sheet: 'Results',
  },
  hu: {
    user: 'Felhasználó', name: 'Név', email: 'E-mail', phone: 'Telefon', gender: 'Nem', attempt: 'Próbálkozás', status: 'Állapot',
    started: 'Kezdés', finished: 'Befejezés', valid: 'Érvényes', successful: 'Sikeres', grade: 'Érdemjegy',
    questionsTotal: 'Kérdések', questionsCorrect: 'Helyes válaszok', pointsTotal: 'Elérhető pontok', pointsCorrect: 'Elért pontok',
    percent: 'Eredmény (%)', duration: 'Időtartam (mp)', suspicion: 'Gyanú', journey: 'Útvonal', answer: 'Válasz', points: 'Pont', skill: 'Készség (%)',
    yes: 'igen', no: 'nem', notStarted: 'nem kezdte el', open: 'folyamatban', paused: 'szüneteltetve', done: 'befejezve', sheet: 'Eredmények',
  },
  de: {
    user: 'Benutzer', name: 'Name', email: 'E-Mail', phone: 'Telefon', gender: 'Geschlecht', attempt: 'Versuch', status: 'Status',
    started: 'Begonnen', finished: 'Beendet', valid: 'Gültig', successful: 'Bestanden', grade: 'Note',
    questionsTotal: 'Fragen', questionsCorrect: 'Richtige Antworten', pointsTotal: 'Mögliche Punkte', pointsCorrect: 'Erreichte Punkte',
    percent: 'Ergebnis (%)', duration: 'Dauer (s)', suspicion: 'Verdacht', journey: 'Lernpfad', answer: 'Antwort', points: 'Punkte', skill: 'Kompetenz (%)',
    yes: 'ja', no: 'nein', notStarted: 'nicht begonnen', open: 'läuft', paused: 'pausiert', done: 'beendet', sheet: 'Ergebnisse',
  },
} satisfies Record<string, Record<string, string>>;
export type Words = Record<keyof (typeof words)['en'], string>;
const wordsFor = (language: string): Words => (words as Record<string, Words>)[language] ?? words.en;

// ---------------------------------------------------------------------------------------------

/** What the columns show, fixed from the exam's settings and fields when the download starts. */
export interface TablePlan {
  exam: Exam;
  choice: ExportChoice;
  words: Words;
  settings: SettingsView;
  /** Built-in fields shown: email and phone with their labels (name is always shown). */
  nameLabel: string;
  emailLabel?: string;
  phoneLabel?: string;
  fields: ExamField[];
  /** Question columns (answers, points), in the Quiz set's order, then any other answered question. */
  questions: { id: string; label: string }[];
  skills: { id: string; title: string }[];
  /** The journey the exam starts, when its column is exported. */
  journeyId: string | null;
  header: string[];
}

/** Is the survey anonymous: it asks for none of the built-in user data (name, email, phone)? */
export const isAnonymousSurvey = (exam: Pick<Exam, 'type'>, set: { name: boolean; email: boolean; phone: boolean } | null) =>
  exam.type === 'survey' && set !== null && !set.name && !set.email && !set.phone;

const label = (used: boolean, own: string | null, fallback: string) => (used ? (own ?? fallback) : undefined);

export async function planTable(ctx: Context, exam: Exam, choice: ExportChoice): Promise<TablePlan> {
  const w = wordsFor(choice.language);
  const [quiz, stored, set, fields, items] = await Promise.all([
    ctx.db.quizSet.findUniqueOrThrow({ where: { id: exam.quizId }, select: { mode: true } }),
    storedSettings(ctx.db, exam.id),
    ctx.db.examFieldSet.findUnique({ where: { examId: exam.id } }),
    ctx.db.examField.findMany({ where: { examId: exam.id, removedAt: null }, orderBy: [{ position: 'asc' }, { label: 'asc' }] }),
    ctx.db.quizItem.findMany({ where: { quizId: exam.quizId }, orderBy: [{ position: 'asc' }], select: { questionId: true, question: { select: { externalId: true } } } }),
  ]);
  const survey = exam.type === 'survey';
  // A survey has only the format and the order of the export settings: its answers are what it collects.
  const settings = settingsView({ id: exam.id, type: exam.type, quizMode: quiz.mode }, stored);
  const on = (name: keyof SettingsView) => !survey && settings[name] === true;

  const needQuestions = survey || on('exportAnswers') || on('exportPoints');
  const questions: TablePlan['questions'] = [];
  if (needQuestions) {
    const inQuiz = new Set(items.map((i) => i.questionId));
    const answered = await ctx.db.playAnswer.groupBy({ by: ['questionId'], where: { play: { examId: exam.id, round: choice.round, archived: false } }, orderBy: { questionId: 'asc' } });
    const others = answered.map((a) => a.questionId).filter((id) => !inQuiz.has(id));
    const otherIds = others.length ? await ctx.db.question.findMany({ where: { id: { in: others } }, select: { id: true, externalId: true } }) : [];
    for (const i of items) questions.push({ id: i.questionId, label: i.question.externalId ?? i.questionId });
    for (const q of otherIds) questions.push({ id: q.id, label: q.externalId ?? q.id });
  }
  const skills: TablePlan['skills'] = [];
  if (on('exportSkills')) {
    for (const s of (await skillsOf(ctx, [exam.quizId]))[0]!) skills.push({ id: s.id, title: s.title });
  }
  const plan: TablePlan = {
    exam,
    choice,
    words: w,
    settings,
    nameLabel: set?.nameLabel ?? w.name,
    emailLabel: label(set?.email ?? true, set?.emailLabel ?? null, w.email),
    phoneLabel: label(set?.phone ?? false, set?.phoneLabel ?? null, w.phone),
    fields: survey || settings.exportCustomFields ? fields : [],
    questions,
    skills,
    journeyId: on('exportJourney') ? ((await ctx.db.journey.findFirst({ where: { examId: exam.id, version: { gt: 0 } }, select: { id: true } }))?.id ?? null) : null,
    header: [],
  };
  plan.header = headerOf(plan);
  return plan;
}

function headerOf(p: TablePlan): string[] {
  const w = p.words;
  const on = (name: keyof SettingsView) => p.exam.type !== 'survey' && p.settings[name] === true;
  if (p.choice.preset === 'answers') return p.questions.map((q) => `${w.answer}: ${q.label}`);
  const h = [w.user, p.nameLabel];
  if (p.emailLabel) h.push(p.emailLabel);
  if (p.phoneLabel) h.push(p.phoneLabel);
  if (on('exportGender')) h.push(w.gender);
  for (const f of p.fields) h.push(f.label);
  if (p.exam.type === 'survey') return [...h, ...p.questions.map((q) => `${w.answer}: ${q.label}`)];
  h.push(w.attempt, w.status, w.started, w.finished, w.valid, w.successful, w.grade);
  if (on('exportStats')) h.push(w.questionsTotal, w.questionsCorrect, w.pointsTotal, w.pointsCorrect, w.percent, w.duration);
  for (const s of p.skills) h.push(`${w.skill}: ${s.title}`);
  if (on('exportAnswers')) for (const q of p.questions) h.push(`${w.answer}: ${q.label}`);
  if (on('exportPoints')) for (const q of p.questions) h.push(`${w.points}: ${q.label}`);
  if (on('exportSuspicion')) h.push(w.suspicion);
  if (p.journeyId) h.push(w.journey);
  return h;
}

// ---------------------------------------------------------------------------------------------
// Rows.

type Answer = { questionId: string; response: Prisma.JsonValue; points: number | null; pointsMaximum: number };
type Result = Play & { answers: Answer[] };

/** An answer as text: scalars as they are, lists joined with commas, lists of lists row by row, objects as key: value. */
function answerText(response: Prisma.JsonValue | undefined): string | null {
  if (response === undefined || response === null) return null;
  if (Array.isArray(response)) return response.map((r) => (Array.isArray(r) ? r.map(String).join(', ') : String(r))).join(Array.isArray(response[0]) ? ' | ' : ', ');
  if (typeof response === 'object') return Object.entries(response).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`).join('; ');
  return String(response);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The examinees of the export: visible to the caller, of the round, matching the filters. */
function examineesWhere(ctx: Context, p: TablePlan): Prisma.UserWhereInput {
  const { exam, choice } = p;
  const finishedOnly = exam.type !== 'survey' && p.settings.exportFinishedOnly === true;
  const results: Prisma.PlayWhereInput = { examId: exam.id, round: choice.round, archived: false, ...(finishedOnly && { status: 'finished' }) };
  // Attendance: the current round lists every examinee (those without a result too); a closed round those who played it.
  // An examinee whose result of the round was archived left the report with it (until it is restored).
  const attending: Prisma.UserWhereInput = { examEntries: { some: { examId: exam.id } }, NOT: { plays: { some: { examId: exam.id, round: choice.round, archived: true } } } };
  const who: Prisma.UserWhereInput = finishedOnly || choice.closedRound ? { plays: { some: results } } : { OR: [attending, { plays: { some: results } }] };
  const filters = Object.entries(choice.filters).map(([label, options]): Prisma.UserWhereInput => ({
    examFieldValues: { some: { field: { examId: exam.id, label, removedAt: null }, value: { in: options } } },
  }));
  return { AND: [userPolicy.readWhere(ctx.viewer), who, ...filters] };
}

const orderOf = (sort: ExportChoice['sort']): Prisma.UserOrderByWithRelationInput[] =>
  // default: the exam users page (GET exam:users), by full name; name: by family name, then given name.
  sort === 'name' ? [{ lastName: 'asc' }, { firstName: 'asc' }, { id: 'asc' }] : [{ fullName: 'asc' }, { id: 'asc' }];

/** The rows of the export, a batch at a time, in the chosen order. */
export async function* tableRows(ctx: Context, p: TablePlan): AsyncGenerator<Cell[][]> {
  if (p.choice.preset === 'answers') {
    yield* answerRows(ctx, p);
    return;
  }
  const where = examineesWhere(ctx, p);
  const orderBy = orderOf(p.choice.sort);
  const finishedOnly = p.exam.type !== 'survey' && p.settings.exportFinishedOnly === true;
  const withAnswers = p.questions.length > 0;
  let cursor: string | undefined;
  for (;;) {
    const users: User[] = await ctx.db.user.findMany({ where, orderBy, take: BATCH, ...(cursor && { cursor: { id: cursor }, skip: 1 }) });
    if (users.length === 0) return;
    cursor = users[users.length - 1]!.id;
    const ids = users.map((u) => u.id);
    const [plays, values] = await Promise.all([
      ctx.db.play.findMany({
        where: { examId: p.exam.id, round: p.choice.round, archived: false, userId: { in: ids }, ...(finishedOnly && { status: 'finished' }) },
        orderBy: [{ attempt: 'asc' }, { timeStart: 'asc' }, { id: 'asc' }],
        include: { answers: withAnswers ? { select: { questionId: true, response: true, points: true, pointsMaximum: true } } : false },
      }) as Promise<Result[]>,
      p.fields.length ? ctx.db.examFieldValue.findMany({ where: { fieldId: { in: p.fields.map((f) => f.id) }, userId: { in: ids } } }) : Promise.resolve([]),
    ]);
    const [skillPoints, journeyOf] = await Promise.all([
      p.skills.length ? skillPointsOfPlays(ctx.db, plays.filter((r) => r.status === 'finished'), 'id') : new Map<string, Map<string, SkillPoints>>(),
      journeyStates(ctx, p.journeyId, ids),
    ]);
    const byUser = groupBy(plays, (play) => play.userId!);
    const valueOf = new Map(values.map((v) => [`${v.fieldId} ${v.userId}`, v.value]));
    const rows: Cell[][] = [];
    for (const user of users) {
      const identity = identityCells(p, user, valueOf);
      const results = byUser.get(user.id) ?? [];
      if (p.exam.type === 'survey') {
        // A survey's row is its latest answers (or none).
        rows.push([...identity, ...answerCells(p, results[results.length - 1])]);
        continue;
      }
      const journey = journeyOf.get(user.id) ?? null;
      if (results.length === 0) rows.push([...identity, ...resultCells(p, undefined, undefined, journey)]);
      for (const r of results) rows.push([...identity, ...resultCells(p, r, skillPoints.get(r.id), journey)]);
    }
    yield rows;
    if (users.length < BATCH) return;
  }
}

function identityCells(p: TablePlan, user: User, valueOf: Map<string, string>): Cell[] {
  const cells: Cell[] = [user.id, user.fullName];
  if (p.emailLabel) cells.push(user.email);
  if (p.phoneLabel) cells.push(user.phone);
  if (p.exam.type !== 'survey' && p.settings.exportGender) cells.push(user.gender);
  for (const f of p.fields) cells.push(valueOf.get(`${f.id} ${user.id}`) ?? null);
  return cells;
}

function answerCells(p: TablePlan, r: Result | undefined): Cell[] {
  const byQuestion = new Map((r?.answers ?? []).map((a) => [a.questionId, a]));
  return p.questions.map((q) => answerText(byQuestion.get(q.id)?.response));
}

function resultCells(p: TablePlan, r: Result | undefined, skillPoints: Map<string, SkillPoints> | undefined, journey: string | null): Cell[] {
  const w = p.words;
  const s = p.settings;
  const yesNo = (v: boolean | null | undefined) => (v === null || v === undefined ? null : v ? w.yes : w.no);
  const status = !r ? w.notStarted : r.status === 'finished' ? w.done : r.status === 'paused' ? w.paused : w.open;
  const cells: Cell[] = [r?.attempt ?? null, status, datetime(r?.timeStart), datetime(r?.timeEnd), r ? yesNo(isValid(r)) : null, yesNo(r?.successful), r?.grade ?? null];
  const finished = r?.status === 'finished';
  if (s.exportStats) {
    const percent = finished ? round2(r.pointsTotal > 0 ? (r.pointsCorrect / r.pointsTotal) * 100 : 100) : null;
    const duration = r?.timeEnd ? Math.round((r.timeEnd.getTime() - r.timeStart.getTime()) / 1000) : null;
    cells.push(finished ? r.questionsTotal : null, finished ? r.questionsCorrect : null, finished ? r.pointsTotal : null, finished ? r.pointsCorrect : null, percent, duration);
  }
  const byQuestion = new Map((r?.answers ?? []).map((a) => [a.questionId, a]));
  for (const skill of p.skills) {
    const points = skillPoints?.get(skill.id);
    cells.push(finished && points && points.pointsMaximum > 0 ? round2((points.points / points.pointsMaximum) * 100) : null);
  }
  if (s.exportAnswers) for (const q of p.questions) cells.push(answerText(byQuestion.get(q.id)?.response));
  if (s.exportPoints) for (const q of p.questions) cells.push(finished ? (byQuestion.get(q.id)?.points ?? 0) : null);
  // Nothing in the service records suspicious behaviour: the column keeps its place, empty.
  if (s.exportSuspicion) cells.push(null);
  if (p.journeyId) cells.push(journey);
  return cells;
}

/**
 * Each user's place in the exam's journey as one cell: the status, with the outcome once completed
 * or stopped and the error code in error (`completed: passed`, `error: content-locked`); empty
 * before the user entered.
 */
async function journeyStates(ctx: Context, journeyId: string | null, userIds: string[]): Promise<Map<string, string>> {
  if (!journeyId) return new Map();
  const rows = await ctx.db.journeyUser.findMany({ where: { journeyId, userId: { in: userIds } }, select: { userId: true, status: true, outcome: true, error: true } });
  return new Map(rows.map((r) => [r.userId, [r.status, r.status === 'error' ? r.error : r.outcome].filter(Boolean).join(': ')]));
}

/** The `answers` preset of an anonymous survey: answers only, no examinee, in no meaningful order (by result id). */
async function* answerRows(ctx: Context, p: TablePlan): AsyncGenerator<Cell[][]> {
  const where: Prisma.PlayWhereInput = { examId: p.exam.id, round: p.choice.round, archived: false, user: userPolicy.readWhere(ctx.viewer) };
  let cursor: string | undefined;
  for (;;) {
    const plays = (await ctx.db.play.findMany({
      where,
      orderBy: { id: 'asc' },
      take: BATCH,
      ...(cursor && { cursor: { id: cursor }, skip: 1 }),
      include: { answers: { select: { questionId: true, response: true, points: true, pointsMaximum: true } } },
    })) as Result[];
    if (plays.length === 0) return;
    cursor = plays[plays.length - 1]!.id;
    yield plays.map((r) => answerCells(p, r));
    if (plays.length < BATCH) return;
  }
}
