import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { seed } from '../helpers/seed.ts';
import { runDue } from '../../src/jobs/run.ts';
import { asSystem } from '../../src/jobs/system.ts';
import { expireCertificateLink } from '../../src/services/certificates/certificates.service.ts';

/**
 * Certificates of exam results through HTTP: issued when a qualifying result settles (finish, or
 * the manual grade that evaluates the last answer), GET exam:certificates:user with its exact
 * fields, the PDF behind POST exam:certificates:user:download, POST exam:certificates, and who may
 * do what; on whichever database the run uses.
 */

let t: TestApp;
let owner: Caller;
let reporter: Caller;
let viewer: Caller;
let stranger: Caller;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DETAILS = ['play', 'user', 'archived', 'eligible', 'certified'];

const START = `mutation($input: StartPlayInput!) { startPlay(input: $input) { id } }`;
const ANSWER = `mutation($input: AnswerQuestionInput!) { answerQuestion(input: $input) { question } }`;
const FINISH = `mutation($input: FinishPlayInput!) { finishPlay(input: $input) { id result { valid successful grade } } }`;
const GRADE = `mutation($input: GradeAnswerInput!) { gradeAnswer(input: $input) { question } }`;
const CERTIFICATE_SETTINGS = `mutation($input: UpdateExamCertificateSettingsInput!) { updateExamCertificateSettings(input: $input) { id } }`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('certowner');
  reporter = await t.newCaller('certreporter');
  viewer = await t.newCaller('certviewer');
  stranger = await t.newCaller('certstranger');
});
afterAll(() => t?.close());

async function gqlOk(query: string, variables: Record<string, unknown>, as: Caller) {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}

let questionCount = 0;
/** A question of the owner; `answer` is its correct answer (a model answer for free text, which is graded by hand). */
async function question(type = 'generic', answer = 'right'): Promise<string> {
  return seed(t).as(owner).question(`cq${++questionCount}`, { type, content: 'Q', answer });
}

interface ExamSetup {
  grading?: string;
  certificates?: Record<string, unknown> | null;
  questions?: string[];
  examinees?: Caller[];
}

/** An exam running now on a Quiz set graded by `grading` (default the pass/fail preset), its examinees, and its certificate settings. */
async function certExam(setup: ExamSetup = {}): Promise<{ exam: string; quiz: string; questions: string[] }> {
  const questions = setup.questions ?? [await question()];
  const quiz = await seed(t).as(owner).quizSet({ title: 'Certified quiz' });
  await quiz.assign(questions);
  if (setup.grading !== 'none') await quiz.settings({ grading: setup.grading ?? 'gp_passfail' });
  const hour = 3600_000;
  const { id: exam } = await quiz.exam({ title: 'Safety Exam', language: 'en', start: new Date(Date.now() - hour), end: new Date(Date.now() + hour) });
  // The owner cannot see these accounts (exam:users adds only users it may read): the administrator adds them.
  if (setup.examinees?.length) await seed(t).admin.examinees(exam, setup.examinees);
  if (setup.certificates !== null) await gqlOk(CERTIFICATE_SETTINGS, { input: { exam, enabled: true, ...setup.certificates } }, owner);
  await seed(t).admin.grant('exam', exam, reporter, 'report');
  await seed(t).admin.grant('exam', exam, viewer, 'view');
  return { exam, quiz: quiz.id, questions };
}

/** `as` plays the exam: answers each question with `response` and finishes. */
async function play(exam: string, as: Caller, response: string | null = 'right'): Promise<string> {
  const id = (await gqlOk(START, { input: { exam } }, as)).startPlay.id as string;
  if (response !== null) {
    const questions = (await t.db.prisma.play.findUniqueOrThrow({ where: { id } })).questionIds;
    for (const q of questions) await gqlOk(ANSWER, { input: { play: id, question: q, response } }, as);
  }
  await gqlOk(FINISH, { input: { play: id } }, as);
  return id;
}

const details = (exam: string, user: Caller, as: Caller) => t.rpc('GET', 'exam:certificates:user', { exam, user: user.user.id }, { as });
const download = (exam: string, user: Caller, as: Caller) => t.rpc('POST', 'exam:certificates:user:download', { exam, user: user.user.id }, { as });
const issueAll = (exam: string, as: Caller) => t.rpc('POST', 'exam:certificates', { exam }, { as });

/** `months` calendar months after today (UTC), as a date. */
function monthsAhead(months: number): string {
  const now = new Date();
  const target = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(now.getUTCDate(), last));
  return target.toISOString().slice(0, 10);
}

/** The pieces of text a PDF shows (blank ones left out), as a PDF reader extracts them (pdf.js; the fonts' ToUnicode maps, not the service's code). */
async function pdfLines(bytes: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, isEvalSupported: false }).promise;
  try {
    const lines: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      for (const item of content.items) if ('str' in item && item.str.trim() !== '') lines.push(item.str);
    }
    return lines;
  } finally {
    await doc.destroy();
  }
}

describe('eligibility and issue when a result settles', () => {
  it('certifies a valid successful result of a certifying preset with the next serial and the expiry, exactly as documented', async () => {
    const student = await t.newCaller('certpass');
    const failing = await t.newCaller('certfail');
    const { exam } = await certExam({ examinees: [student, failing], certificates: { serialNumbering: true, serialPrefix: 'SAFE-', nextSerial: 41, validityMonths: 12 } });
    const passed = await play(exam, student);
    const failed = await play(exam, failing, 'wrong');

    const r = await details(exam, student, owner);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([...DETAILS, 'serial', 'expires']);
    expect(r.body).toEqual({ play: passed, user: student.user.id, archived: false, eligible: true, certified: true, serial: 'SAFE-41', expires: monthsAhead(12) });
    // The user itself reads the same, without any permission on the exam.
    expect((await details(exam, student, student)).body).toEqual(r.body);
    // A report holder too.
    expect((await details(exam, student, reporter)).body).toEqual(r.body);

    const f = await details(exam, failing, owner);
    expect(f.body).toEqual({ play: failed, user: failing.user.id, archived: false, eligible: false, certified: false });
    expect(typeof f.body.archived).toBe('boolean');
    expect(await t.db.prisma.examCertificateSettings.findUniqueOrThrow({ where: { examId: exam } })).toMatchObject({ nextSerial: 42 });
  });

  it('without numbering or expiry a certificate has neither serial nor expires', async () => {
    const student = await t.newCaller('certplain');
    const { exam } = await certExam({ examinees: [student] });
    const passed = await play(exam, student);
    expect((await details(exam, student, owner)).body).toEqual({ play: passed, user: student.user.id, archived: false, eligible: true, certified: true });
    expect(await t.db.prisma.certificate.findUniqueOrThrow({ where: { playId: passed } })).toMatchObject({ serial: null, expiresAt: null, title: 'Safety Exam', grade: 'pass' });
  });

  it('a preset that does not decide success certifies nothing, even with a passed threshold', async () => {
    const student = await t.newCaller('certcustom');
    const preset = await seed(t).as(owner).preset({ title: 'Labels', grades: [{ threshold: 0, grade: 'low' }, { threshold: 50, grade: 'high' }], successfulAll: false });
    const { exam, quiz } = await certExam({ examinees: [student], grading: 'none' });
    // A bare threshold on a labels-only preset still passes results (scoring's rule), but the preset decides nothing.
    await t.db.prisma.quizSet.update({ where: { id: quiz }, data: { grading: preset, gradingThreshold: 50 } });
    const passed = await play(exam, student);
    expect((await t.db.prisma.play.findUniqueOrThrow({ where: { id: passed } })).successful).toBe(true);
    expect((await details(exam, student, owner)).body).toEqual({ play: passed, user: student.user.id, archived: false, eligible: false, certified: false });
    expectError(await issueAll(exam, owner), 403, 'GRADING_NOT_CERTIFYING');
    expect(await t.db.prisma.certificate.count({ where: { examId: exam } })).toBe(0);
  });

  it('disabled settings certify nothing; POST exam:certificates is refused until they are enabled, then issues once', async () => {
    const a = await t.newCaller('certlatea');
    const b = await t.newCaller('certlateb');
    const { exam } = await certExam({ examinees: [a, b], certificates: { enabled: false, serialNumbering: true, serialPrefix: 'L', nextSerial: 1 } });
    const first = await play(exam, a);
    const second = await play(exam, b);
    expect((await details(exam, a, owner)).body).toEqual({ play: first, user: a.user.id, archived: false, eligible: false, certified: false });
    const disabled = await issueAll(exam, owner);
    expectError(disabled, 403, 'CERTIFICATES_DISABLED');
    expect(disabled.headers.get('service-api-error')).toContain('not enabled');

    await gqlOk(CERTIFICATE_SETTINGS, { input: { exam, enabled: true } }, owner);
    expect((await details(exam, a, owner)).body).toMatchObject({ eligible: true, certified: false });
    const issued = await issueAll(exam, owner);
    expect(issued.status).toBe(200);
    // Serial numbers in the order the results were finished.
    expect(issued.body).toEqual({
      exam,
      issued: 2,
      certificates: [
        { play: first, user: a.user.id, serial: 'L1' },
        { play: second, user: b.user.id, serial: 'L2' },
      ],
    });
    expect((await issueAll(exam, owner)).body).toEqual({ exam, issued: 0, certificates: [] });
    expect((await details(exam, b, owner)).body).toEqual({ play: second, user: b.user.id, archived: false, eligible: true, certified: true, serial: 'L2' });
  });

  it('an archived result is not eligible and is not certified by POST exam:certificates', async () => {
    const student = await t.newCaller('certarchived');
    const { exam } = await certExam({ examinees: [student], certificates: { enabled: false } });
    await ok(t, 'POST', 'exam:settings', { exam, archive: true }, owner);
    const passed = await play(exam, student);
    await ok(t, 'DELETE', 'quiz:results:play', { play: passed }, owner);
    await gqlOk(CERTIFICATE_SETTINGS, { input: { exam, enabled: true } }, owner);
    expect((await details(exam, student, owner)).body).toEqual({ play: passed, user: student.user.id, archived: true, eligible: false, certified: false });
    expect((await issueAll(exam, owner)).body).toEqual({ exam, issued: 0, certificates: [] });
  });

  it('a result awaiting review is certified by the grade that evaluates its last answer', async () => {
    const student = await t.newCaller('certreview');
    const essay = await question('free-text', 'A model essay');
    const { exam } = await certExam({ examinees: [student], questions: [essay], certificates: { serialNumbering: true, serialPrefix: 'R' } });
    const played = await play(exam, student, 'My essay');
    expect((await details(exam, student, owner)).body).toEqual({ play: played, user: student.user.id, archived: false, eligible: false, certified: false });
    await gqlOk(GRADE, { input: { play: played, question: essay, points: 1 } }, owner);
    expect((await details(exam, student, owner)).body).toEqual({ play: played, user: student.user.id, archived: false, eligible: true, certified: true, serial: 'R1' });
    // A second grade does not certify it again.
    await gqlOk(GRADE, { input: { play: played, question: essay, points: 1 } }, owner);
    expect(await t.db.prisma.certificate.count({ where: { examId: exam } })).toBe(1);
  });

  it('gives concurrent finishes distinct serial numbers with no gaps', async () => {
    const students = await Promise.all(Array.from({ length: 6 }, (_, i) => t.newCaller(`certrace${i}`)));
    const { exam, questions } = await certExam({ examinees: students, certificates: { serialNumbering: true, serialPrefix: 'C-', nextSerial: 100 } });
    const plays: string[] = [];
    for (const s of students) {
      const id = (await gqlOk(START, { input: { exam } }, s)).startPlay.id as string;
      await gqlOk(ANSWER, { input: { play: id, question: questions[0], response: 'right' } }, s);
      plays.push(id);
    }
    const finished = await Promise.all(students.map((s, i) => t.gql(FINISH, { input: { play: plays[i] } }, { as: s })));
    for (const f of finished) expect(f.body.errors).toBeUndefined();
    const serials = (await t.db.prisma.certificate.findMany({ where: { examId: exam } })).map((c) => c.serial).sort();
    expect(serials).toEqual(['C-100', 'C-101', 'C-102', 'C-103', 'C-104', 'C-105']);
    expect((await t.db.prisma.examCertificateSettings.findUniqueOrThrow({ where: { examId: exam } })).nextSerial).toBe(106);
  });

  it('serial numbers follow the order of sequential finishes', async () => {
    const [a, b] = [await t.newCaller('certseqa'), await t.newCaller('certseqb')];
    const { exam } = await certExam({ examinees: [a, b], certificates: { serialNumbering: true, serialPrefix: 'S' } });
    await play(exam, a);
    await play(exam, b);
    expect((await details(exam, a, owner)).body.serial).toBe('S1');
    expect((await details(exam, b, owner)).body.serial).toBe('S2');
  });
});

describe('the PDF download', () => {
  it('hands out a link to a PDF with the name, title, grade, date and serial; the same link while it is valid', async () => {
    const student = await t.newCaller('certpdf');
    await t.db.prisma.user.update({ where: { id: student.user.id }, data: { fullName: 'Zoë Gődény' } });
    const { exam } = await certExam({ examinees: [student], certificates: { serialNumbering: true, serialPrefix: 'PDF-', nextSerial: 7, validityMonths: 24, title: 'Forklift Licence' } });
    const played = await play(exam, student);

    const r = await download(exam, student, student);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['play', 'user', 'url', 'valid']);
    expect(r.body).toEqual({ play: played, user: student.user.id, url: expect.stringMatching(new RegExp(`^${BASE_URL}/files/[a-z0-9]{40}$`)), valid: expect.stringMatching(DATE) });
    const days = (Date.parse(r.body.valid) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000;
    expect(days).toBe(7);
    // The same link again, for the user and for a report holder.
    expect((await download(exam, student, student)).body).toEqual(r.body);
    expect((await download(exam, student, reporter)).body).toEqual(r.body);
    expect(await t.db.prisma.certificateLink.count()).toBeGreaterThanOrEqual(1);

    // No credentials needed: the token is the credential.
    const file = await t.app.fetch(new Request(r.body.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="certificate-PDF-7.pdf"');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const today = new Date().toISOString().slice(0, 10);
    expect(await pdfLines(bytes)).toEqual([
      'CERTIFICATE', 'This certifies that', 'Zoë Gődény', 'has successfully completed', 'Forklift Licence', 'Grade: pass',
      `Date: ${today}`, 'Serial: PDF-7', `Valid until: ${monthsAhead(24)}`,
    ]);

    // An expired link answers 410 and a new one is made.
    await t.db.prisma.certificateLink.updateMany({ where: { certificate: { playId: played } }, data: { validUntil: new Date(Date.now() - 1000) } });
    expect((await t.app.fetch(new Request(r.body.url))).status).toBe(410);
    const fresh = await download(exam, student, student);
    expect(fresh.body.url).not.toBe(r.body.url);
    expect((await t.app.fetch(new Request(fresh.body.url))).status).toBe(200);
    // The expired link went with its file.
    expect(await t.db.prisma.certificateLink.count({ where: { certificate: { playId: played } } })).toBe(1);
  });

  it('prints names and titles outside Latin-1 exactly (Latin Extended, Greek, Cyrillic), in an embedded font subset', async () => {
    const names = ['Pál Erdős', 'Łukasz Żółć', 'Дмитрий Шостакович'];
    const students = await Promise.all(names.map((_, i) => t.newCaller(`certscript${i}`)));
    for (const [i, s] of students.entries()) await t.db.prisma.user.update({ where: { id: s.user.id }, data: { fullName: names[i]! } });
    const title = 'Φυσική и Физика: Łódź–Kraków, Ελληνικά';
    const { exam } = await certExam({ examinees: students, certificates: { title } });
    for (const [i, s] of students.entries()) {
      await play(exam, s);
      const link = await download(exam, s, owner);
      expect(link.status).toBe(200);
      const file = await t.app.fetch(new Request(link.body.url));
      const bytes = Buffer.from(await file.arrayBuffer());
      const lines = await pdfLines(bytes);
      expect(lines.slice(0, 6)).toEqual(['CERTIFICATE', 'This certifies that', names[i], 'has successfully completed', title, 'Grade: pass']);
      // The whole font is over 600 kB: only the glyphs used are embedded.
      expect(bytes.length).toBeLessThan(20_000);
      // Embedded fonts only: no standard font (which would print these letters wrongly).
      expect(bytes.toString('latin1')).not.toMatch(/\/BaseFont\s*\/Helvetica/);
    }
  });

  it('prints a character the font does not have as its base letter or ?, never as nothing', async () => {
    const student = await t.newCaller('certcjk');
    await t.db.prisma.user.update({ where: { id: student.user.id }, data: { fullName: 'Ann 李 Lee' } });
    const { exam } = await certExam({ examinees: [student] });
    await play(exam, student);
    const file = await t.app.fetch(new Request((await download(exam, student, owner)).body.url));
    expect((await pdfLines(Buffer.from(await file.arrayBuffer())))[2]).toBe('Ann ? Lee');
  });

  it('a link schedules its own removal at the end of its validity, which removes it with its PDF', async () => {
    const student = await t.newCaller('certexpiry');
    const { exam } = await certExam({ examinees: [student] });
    const played = await play(exam, student);
    const r = await download(exam, student, student);
    const link = await t.db.prisma.certificateLink.findFirstOrThrow({ where: { certificate: { playId: played } } });
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { task: 'certificates.expire-link', dedupeKey: link.id } });
    expect(job).toMatchObject({ status: 'pending', payload: { link: link.id } });
    expect(job.runAt).toEqual(link.validUntil);
    const system = asSystem(t.platform);
    expect(await runDue(system, [expireCertificateLink])).toEqual([]);

    await t.db.prisma.certificateLink.update({ where: { id: link.id }, data: { validUntil: new Date(Date.now() - 1000) } });
    await t.db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date() } });
    expect((await runDue(system, [expireCertificateLink])).map((o) => o.status)).toEqual(['completed']);
    expect(await t.db.prisma.certificateLink.count({ where: { id: link.id } })).toBe(0);
    expect(await t.db.prisma.storedFile.count({ where: { id: link.fileId } })).toBe(0);
    expect((await t.app.fetch(new Request(r.body.url))).status).toBe(404);
    // The certificate stays; the next download makes a new link.
    expect((await download(exam, student, student)).body.url).not.toBe(r.body.url);
  });

  it('refuses a user without a certificate (NOT_CERTIFIED) and one without a result (NOT_FOUND)', async () => {
    const failing = await t.newCaller('certnopdf');
    const absent = await t.newCaller('certabsent');
    const { exam } = await certExam({ examinees: [failing, absent] });
    await play(exam, failing, 'wrong');
    expectError(await download(exam, failing, failing), 403, 'NOT_CERTIFIED');
    expectError(await download(exam, absent, owner), 403, 'NOT_FOUND', 'user');
    expectError(await details(exam, absent, owner), 403, 'NOT_FOUND', 'user');
    expect(await t.db.prisma.certificateLink.count({ where: { certificate: { examId: exam } } })).toBe(0);
  });
});

describe('permissions', () => {
  it('reading needs report or being the user; an exam the caller may not view is unknown', async () => {
    const student = await t.newCaller('certperm');
    const { exam } = await certExam({ examinees: [student], certificates: { serialNumbering: true } });
    await play(exam, student);
    // View without report: the exam is known, the results are not the caller's.
    expectError(await details(exam, student, viewer), 403, 'PERMISSION_DENIED');
    expectError(await download(exam, student, viewer), 403, 'PERMISSION_DENIED');
    // No view at all: the same answer as an exam that does not exist.
    const hidden = await details(exam, student, stranger);
    const unknown = await details('exm_doesnotexist00', student, stranger);
    expectError(hidden, 403, 'NOT_FOUND', 'exam');
    expectError(unknown, 403, 'NOT_FOUND', 'exam');
    expect(hidden.body.error.message).toBe(unknown.body.error.message.replace('exm_doesnotexist00', exam));
    expectError(await download(exam, student, stranger), 403, 'NOT_FOUND', 'exam');
    // Another user is no report holder; asking for itself, it learns nothing of an exam it may not view either.
    const other = await t.newCaller('certpeer');
    expectError(await details(exam, student, other), 403, 'NOT_FOUND', 'exam');
    expectError(await details(exam, other, other), 403, 'NOT_FOUND', 'exam');
    expectError(await download(exam, other, other), 403, 'NOT_FOUND', 'exam');
    expectError(await t.rpc('GET', 'exam:certificates:user', { exam }, { as: owner }), 403, 'MISSING_ARGUMENT', 'user');
    expectError(await t.rpc('POST', 'exam:certificates:user:download', { user: student.user.id }, { as: owner }), 403, 'MISSING_ARGUMENT', 'exam');
  });

  it('POST exam:certificates needs control on the exam', async () => {
    const { exam } = await certExam();
    expectError(await issueAll(exam, reporter), 403, 'PERMISSION_DENIED');
    expectError(await issueAll(exam, viewer), 403, 'PERMISSION_DENIED');
    expectError(await issueAll(exam, stranger), 403, 'NOT_FOUND', 'exam');
    expectError(await t.rpc('POST', 'exam:certificates', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'exam');
    expectError(await t.rpc('GET', 'exam:certificates', { exam }, { as: owner }), 405);
    await seed(t).admin.grant('exam', exam, stranger, 'control');
    expect((await issueAll(exam, stranger)).body).toEqual({ exam, issued: 0, certificates: [] });
  });
});

describe('GraphQL', () => {
  it('reads certificates from the play and the exam, downloads and issues them', async () => {
    const student = await t.newCaller('certgql');
    const { exam } = await certExam({ examinees: [student], certificates: { serialNumbering: true, serialPrefix: 'G', validityMonths: 1 } });
    const played = await play(exam, student);
    const own = await gqlOk(`query($id: ID!) { node(id: $id) { ... on Play { certificate { serial expires issued grade title play { id } user { id } exam { id } } } } }`, { id: played }, student);
    expect(own.node.certificate).toMatchObject({ serial: 'G1', grade: 'pass', title: 'Safety Exam', play: { id: played }, user: { id: student.user.id }, exam: { id: exam } });
    expect(own.node.certificate.expires.slice(0, 10)).toBe(monthsAhead(1));

    const list = `query($id: ID!) { node(id: $id) { ... on Exam { certificates(first: 10) { edges { node { serial user { id } } } } } } }`;
    expect((await gqlOk(list, { id: exam }, reporter)).node.certificates.edges).toEqual([{ node: { serial: 'G1', user: { id: student.user.id } } }]);
    const denied = await t.gql(list, { id: exam }, { as: viewer });
    expect(denied.body.errors?.[0].extensions.code).toBe('PERMISSION_DENIED');

    const link = (await gqlOk(`mutation($exam: ID!, $user: ID!) { downloadCertificate(exam: $exam, user: $user) { url valid certificate { serial } } }`, { exam, user: student.user.id }, student)).downloadCertificate;
    expect(link.certificate.serial).toBe('G1');
    expect((await download(exam, student, student)).body.url).toBe(link.url);

    const issue = `mutation($exam: ID!) { issueExamCertificates(exam: $exam) { exam { id } issued { serial } } }`;
    expect((await gqlOk(issue, { exam }, owner)).issueExamCertificates).toEqual({ exam: { id: exam }, issued: [] });
    const refused = await t.gql(issue, { exam }, { as: reporter });
    expect(refused.body.errors?.[0].extensions.code).toBe('PERMISSION_DENIED');
  });
});
