import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { examRule, newExam, newPlay, refused } from '../helpers/exam-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The smallest images of each accepted type: their signatures are what the check reads. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString('base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]).toString('base64');
const WEBP = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1').toString('base64');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');

describe('exam:branding', () => {
  it('reads enabled false alone when none, and the type and colour once set', async () => {
    const me = await t.newCaller('brand');
    const exam = await newExam(t, me);
    const none = await ok(t, 'GET', 'exam:branding', { exam }, me);
    expect(none).toEqual({ exam, enabled: false });
    expect(await ok(t, 'POST', 'exam:branding', { exam, image: PNG, color: 'blue' }, me)).toEqual({ exam, enabled: true, type: 'foreground', color: 'blue', success: true });
    const body = await ok(t, 'GET', 'exam:branding', { exam }, me);
    expect(body).toEqual({ exam, enabled: true, type: 'foreground', color: 'blue' });
    expect(Object.keys(body)).toEqual(['exam', 'enabled', 'type', 'color']);
    const stored = await t.db.prisma.examBranding.findUniqueOrThrow({ where: { examId: exam }, include: { file: true } });
    expect(stored.file).toMatchObject({ contentType: 'image/png', size: 16 });
  });

  it('takes JPEG, WebP and URLs, replacing the earlier image and its file', async () => {
    const me = await t.newCaller('brand-kinds');
    const exam = await newExam(t, me);
    const files = () => t.db.prisma.storedFile.count();
    const before = await files();
    await ok(t, 'POST', 'exam:branding', { exam, image: JPEG, color: 'red', type: 'background' }, me);
    await ok(t, 'POST', 'exam:branding', { exam, image: WEBP, color: 'green' }, me);
    expect(await files()).toBe(before + 1);
    const webp = await t.db.prisma.examBranding.findUniqueOrThrow({ where: { examId: exam }, include: { file: true } });
    expect(webp).toMatchObject({ type: 'foreground', color: 'green', imageUrl: null, file: { contentType: 'image/webp' } });
    await ok(t, 'POST', 'exam:branding', { exam, image: 'https://cdn.example.com/logo.png', color: 'gray', type: 'background' }, me);
    expect(await files()).toBe(before);
    expect(await ok(t, 'GET', 'exam:branding', { exam }, me)).toEqual({ exam, enabled: true, type: 'background', color: 'gray' });
  });

  it('checks the image by its content and size, the colour and the type, changing nothing', async () => {
    const me = await t.newCaller('brand-bad');
    const exam = await newExam(t, me);
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, image: GIF, color: 'red' }, { as: me }), 403, 'INVALID_FILE_TYPE', 'image');
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, image: 'not base64 at all!', color: 'red' }, { as: me }), 403, 'INVALID_ARGUMENT', 'image');
    const huge = Buffer.alloc(10 * 1024 * 1024 + 1);
    Buffer.from(PNG, 'base64').copy(huge);
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, image: huge.toString('base64'), color: 'red' }, { as: me, encoding: 'json' }), 403, 'FILE_TOO_LARGE', 'image');
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, image: PNG, color: 'pink' }, { as: me }), 403, 'INVALID_ARGUMENT', 'color');
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, image: PNG, color: 'red', type: 'side' }, { as: me }), 403, 'INVALID_ARGUMENT', 'type');
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, color: 'red' }, { as: me }), 403, 'MISSING_ARGUMENT', 'image');
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, color: 'red', image: { data: PNG } }, { as: me, encoding: 'json' }), 403, 'INVALID_ARGUMENT', 'image');
    await refused(t, () => t.rpc('POST', 'exam:branding', { exam, image: PNG }, { as: me }), 403, 'MISSING_ARGUMENT', 'color');
  });

  it('deletes the branding with its file; without one it answers success false', async () => {
    const me = await t.newCaller('brand-delete');
    const viewer = await t.newCaller('brand-viewer');
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:branding', { exam, image: PNG, color: 'purple' }, me);
    await examRule(t, exam, viewer, 'view');
    expect((await ok(t, 'GET', 'exam:branding', { exam }, viewer)).enabled).toBe(true);
    await refused(t, () => t.rpc('DELETE', 'exam:branding', { exam }, { as: viewer }), 403, 'PERMISSION_DENIED');
    const fileId = (await t.db.prisma.examBranding.findUniqueOrThrow({ where: { examId: exam } })).fileId!;
    expect(await ok(t, 'DELETE', 'exam:branding', { exam }, me)).toEqual({ exam, success: true });
    expect(await t.db.prisma.storedFile.findUnique({ where: { id: fileId } })).toBeNull();
    expect(await ok(t, 'GET', 'exam:branding', { exam }, me)).toEqual({ exam, enabled: false });
    expect(await ok(t, 'DELETE', 'exam:branding', { exam }, me)).toEqual({ exam, success: false });
  });
});

describe('exam:users', () => {
  it('adds, lists by name and removes examinees; removing keeps their results', async () => {
    const me = await t.newCaller('examinees');
    const bea = await t.newCaller('examinee-bea', { createdBy: me });
    const al = await t.newCaller('examinee-al', { createdBy: me });
    await t.db.prisma.user.update({ where: { id: bea.user.id }, data: { fullName: 'Bea Berg' } });
    await t.db.prisma.user.update({ where: { id: al.user.id }, data: { fullName: 'Al Adams' } });
    const exam = await newExam(t, me);
    expect(await ok(t, 'GET', 'exam:users', { exam }, me)).toEqual({ users: [] });
    expect(await ok(t, 'POST', 'exam:users', { exam, users: `${bea.user.id},${al.user.id}` }, me)).toEqual({ exam, users: 2, success: true });
    // Adding again writes nothing new.
    expect(await ok(t, 'POST', 'exam:users', { exam, users: bea.user.id }, me)).toEqual({ exam, users: 0, success: true });
    const body = await ok(t, 'GET', 'exam:users', { exam }, me);
    expect(body).toEqual({ users: [{ user: al.user.id, name: 'Al Adams' }, { user: bea.user.id, name: 'Bea Berg' }] });
    const play = await newPlay(t, exam, al, { status: 'finished' });
    expect(await ok(t, 'DELETE', 'exam:users', { exam, users: al.user.id }, me)).toEqual({ exam, users: 1, success: true });
    expect((await ok(t, 'GET', 'exam:users', { exam }, me)).users).toEqual([{ user: bea.user.id, name: 'Bea Berg' }]);
    expect(await t.db.prisma.play.findUnique({ where: { id: play.id } })).not.toBeNull();
  });

  it('takes only users the caller may read, answering others like unknown ones, and needs control', async () => {
    const me = await t.newCaller('examinees-strict');
    const stranger = await t.newCaller('examinees-stranger');
    const reporter = await t.newCaller('examinees-reporter');
    const exam = await newExam(t, me);
    const unknown = await refused(t, () => t.rpc('POST', 'exam:users', { exam, users: 'usr_nothing' }, { as: me }), 403, 'NOT_FOUND', 'users');
    const hidden = await refused(t, () => t.rpc('POST', 'exam:users', { exam, users: stranger.user.id }, { as: me }), 403, 'NOT_FOUND', 'users');
    expect(hidden.error!.replace(stranger.user.id, 'X')).toBe(unknown.error!.replace('usr_nothing', 'X'));
    await refused(t, () => t.rpc('DELETE', 'exam:users', { exam, users: stranger.user.id }, { as: me }), 403, 'NOT_FOUND', 'users');
    await refused(t, () => t.rpc('POST', 'exam:users', { exam }, { as: me }), 403, 'MISSING_ARGUMENT', 'users');
    await examRule(t, exam, reporter, 'report');
    expect(await ok(t, 'GET', 'exam:users', { exam }, reporter)).toEqual({ users: [] });
    await refused(t, () => t.rpc('POST', 'exam:users', { exam, users: 'me' }, { as: reporter }), 403, 'PERMISSION_DENIED');
  });
});

describe('POST exam:summary', () => {
  it('stores one sanitized summary per language, replacing an earlier one', async () => {
    const me = await t.newCaller('summary');
    const exam = await newExam(t, me, { language: 'en' });
    expect(await ok(t, 'POST', 'exam:summary', { exam, summary: '<p>Most passed<script>x()</script></p>', llm: 'vendor', model: 'model-1' }, me)).toEqual({
      exam, language: 'en', success: true,
    });
    await ok(t, 'POST', 'exam:summary', { exam, summary: 'Zusammenfassung', language: 'de' }, me);
    await ok(t, 'POST', 'exam:summary', { exam, summary: '<b>Replaced</b>', language: 'en' }, me);
    const rows = await t.db.prisma.examSummary.findMany({ where: { examId: exam }, orderBy: { language: 'asc' } });
    expect(rows.map((r) => [r.language, r.type, r.summary, r.llm, r.model])).toEqual([
      ['de', 'ai', 'Zusammenfassung', null, null],
      ['en', 'ai', '<b>Replaced</b>', null, null],
    ]);
  });

  it('refuses a model without llm, an unknown type, an empty summary and an inactive language', async () => {
    const me = await t.newCaller('summary-bad');
    const exam = await newExam(t, me);
    await refused(t, () => t.rpc('POST', 'exam:summary', { exam, summary: 'S', model: 'm' }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'model');
    await refused(t, () => t.rpc('POST', 'exam:summary', { exam, summary: 'S', type: 'human' }, { as: me }), 403, 'INVALID_ARGUMENT', 'type');
    await refused(t, () => t.rpc('POST', 'exam:summary', { exam }, { as: me }), 403, 'MISSING_ARGUMENT', 'summary');
    await refused(t, () => t.rpc('POST', 'exam:summary', { exam, summary: '<script>only()</script>' }, { as: me }), 403, 'INVALID_ARGUMENT', 'summary');
    await refused(t, () => t.rpc('POST', 'exam:summary', { exam, summary: 'S', language: 'zz' }, { as: me }), 403, 'INVALID_ARGUMENT', 'language');
  });
});
