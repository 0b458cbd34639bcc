import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, BASE_URL, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { refusedUnchanged } from '../helpers/expect.ts';

/**
 * Media fields of POST question through HTTP: `<filename>=<base64 or URL>` and multipart file
 * parts, the real type read from the content (a mismatch answers 403 naming the field), the size
 * limit, durable storage as stored files linked to the question, replacement on update, URLs kept
 * as references and never fetched, and media in exports.
 */

let t: TestApp;
let author: Caller;

beforeAll(async () => {
  t = await createTestApp();
  author = await t.newCaller('mediaauthor');
});
afterAll(async () => t?.close());

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const filler = [1, 2, 3, 4, 5, 6, 7, 8];

const SAMPLES = {
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR', filler),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF', filler),
  webp: bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ', filler),
  mp3Id3: bytes('ID3', [3, 0, 0, 0, 0, 0], filler),
  mp3Frame: bytes([0xff, 0xfb, 0x90, 0x64], filler),
  aac: bytes([0xff, 0xf1, 0x50, 0x80], filler),
  aac2: bytes([0xff, 0xf9, 0x50, 0x80], filler),
  m4a: bytes([0, 0, 0, 0x20], 'ftypM4A ', [0, 0, 0, 0], filler),
  mp42: bytes([0, 0, 0, 0x20], 'ftypmp42', [0, 0, 0, 0], filler),
  isom: bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 0, 0], filler),
  webm: bytes([0x1a, 0x45, 0xdf, 0xa3], filler),
  pdf: bytes('%PDF-1.7\n', filler),
  text: bytes('plain notes'),
};
const b64 = (data: Buffer) => data.toString('base64');
const hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let seq = 0;
const base = () => ({ id: `m-${++seq}`, type: 'generic', content: 'Look at it', answer: 'a' });

const post = (args: Record<string, unknown>, encoding: 'json' | 'form' = 'json') => t.rpc('POST', 'question', args, { as: author, encoding });

async function created(args: Record<string, unknown>, encoding: 'json' | 'form' = 'json') {
  const r = await post({ ...base(), ...args }, encoding);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.question as string;
}

const mediaOf = (questionId: string) =>
  t.db.prisma.questionMedia.findMany({ where: { questionId }, include: { file: true }, orderBy: { field: 'asc' } });

async function snapshot() {
  const p = t.db.prisma;
  return { questions: await p.question.findMany({ orderBy: { id: 'asc' } }), media: await p.questionMedia.count(), files: await p.storedFile.count(), audit: await p.auditEvent.count() };
}

const refused = (call: () => Promise<RpcResult>, code: string, argument: string) => refusedUnchanged(snapshot)(call, 403, code, argument);

describe('uploads as <filename>=<base64>', () => {
  it('stores each accepted type durably, with the type read from the content', async () => {
    const cases: Array<[string, string, Buffer, string]> = [
      ['image', 'photo.png', SAMPLES.png, 'image/png'],
      ['solution_image', 'solution.jpg', SAMPLES.jpeg, 'image/jpeg'],
      ['graph', 'graph.webp', SAMPLES.webp, 'image/webp'],
      ['media_audio', 'voice.mp3', SAMPLES.mp3Id3, 'audio/mpeg'],
      ['attachment', 'notes.txt', SAMPLES.text, 'application/octet-stream'],
      ['media_video', 'clip.mp4', SAMPLES.isom, 'video/mp4'],
      ['video', 'clip.webm', SAMPLES.webm, 'video/webm'],
    ];
    const id = await created(Object.fromEntries(cases.map(([field, name, data]) => [field, `${name}=${b64(data)}`])));
    const media = await mediaOf(id);
    const byField = Object.fromEntries(media.map((m) => [m.field, m]));
    for (const [field, name, data, contentType] of cases) {
      const camel = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(byField[camel]?.file, field).toMatchObject({ filename: name, contentType, size: data.length, sha256: hex(data), ownerId: author.user.id });
      expect(Buffer.from(byField[camel]!.file.data).equals(data), field).toBe(true);
    }
  });

  it.each([
    ['MP3 with an ID3 tag', SAMPLES.mp3Id3, 'audio/mpeg'],
    ['MP3 frame sync FF FB', SAMPLES.mp3Frame, 'audio/mpeg'],
    ['AAC ADTS FF F1', SAMPLES.aac, 'audio/aac'],
    ['AAC ADTS FF F9', SAMPLES.aac2, 'audio/aac'],
    ['M4A brand M4A', SAMPLES.m4a, 'audio/mp4'],
    ['M4A brand mp42', SAMPLES.mp42, 'audio/mp4'],
    ['M4A brand isom', SAMPLES.isom, 'audio/mp4'],
  ])('accepts %s as media_audio', async (_name, data, contentType) => {
    const [m] = await mediaOf(await created({ media_audio: `sound=${b64(data)}` }));
    expect(m!.file.contentType).toBe(contentType);
  });

  it.each([
    ['image', SAMPLES.mp3Id3],
    ['image', SAMPLES.pdf],
    ['solution_image', SAMPLES.text],
    ['graph', SAMPLES.m4a],
    ['media_audio', SAMPLES.png],
    ['media_audio', SAMPLES.webm],
    ['video', SAMPLES.jpeg],
    ['media_video', SAMPLES.aac],
  ])('refuses %s whose content is of another type, naming the field', async (field, data) => {
    // The file name claims the right type: only the content counts.
    const r = await refused(() => post({ ...base(), [field]: `file.png=${b64(data)}` }), 'INVALID_FILE_TYPE', field);
    expect(r.error).toMatch(/must be a .*file/);
  });

  it('refuses a file over 10 MiB, an empty file and malformed values, naming the field', async () => {
    const big = Buffer.concat([SAMPLES.png, Buffer.alloc(10 * 1024 * 1024 + 1 - SAMPLES.png.length)]);
    await refused(() => post({ ...base(), image: `big.png=${b64(big)}` }), 'FILE_TOO_LARGE', 'image');
    await refused(() => post({ ...base(), image: 'empty.png=' }), 'INVALID_ARGUMENT', 'image');
    await refused(() => post({ ...base(), image: b64(SAMPLES.png).replace(/=/g, '') }), 'INVALID_ARGUMENT', 'image');
    await refused(() => post({ ...base(), image: `=${b64(SAMPLES.png)}` }), 'INVALID_ARGUMENT', 'image');
    await refused(() => post({ ...base(), image: `dir/photo.png=${b64(SAMPLES.png)}` }), 'INVALID_ARGUMENT', 'image');
    await refused(() => post({ ...base(), attachment: 'notes.txt=not base64 at all!' }), 'INVALID_ARGUMENT', 'attachment');
    await refused(() => post({ ...base(), image: `photo.png=ftp://example.com/photo.png` }), 'INVALID_ARGUMENT', 'image');
    await refused(() => post({ ...base(), hotspot_image: `zones.png=${b64(SAMPLES.png)}` }), 'ARGUMENT_CONFLICT', 'hotspot_image');
  });

  it('accepts exactly 10 MiB, data: prefixes, URL-safe base64, and form bodies that turned + into spaces', async () => {
    const limit = Buffer.concat([SAMPLES.jpeg, Buffer.alloc(10 * 1024 * 1024 - SAMPLES.jpeg.length, 7)]);
    const [full] = await mediaOf(await created({ image: `limit.jpg=${b64(limit)}` }));
    expect(full!.file.size).toBe(10 * 1024 * 1024);

    const tricky = Buffer.concat([SAMPLES.png, Buffer.from([0xfb, 0xef, 0xbe, 0xff, 0xfe])]);
    const text = b64(tricky);
    expect(text).toMatch(/[+/]/);
    const stored = async (value: string) => Buffer.from((await mediaOf(await created({ image: value })))[0]!.file.data);
    expect((await stored(`a.png=data:image/png;base64,${text}`)).equals(tricky)).toBe(true);
    expect((await stored(`a.png=${tricky.toString('base64url')}`)).equals(tricky)).toBe(true);
    expect((await stored(`a.png=${text.replace(/\+/g, ' ')}`)).equals(tricky)).toBe(true);
    const [form] = await mediaOf(await created({ image: `a.png=${text}` }, 'form'));
    expect(Buffer.from(form!.file.data).equals(tricky)).toBe(true);
  }, 60_000);

  it('takes hotspot_image on hotspot questions', async () => {
    const [m] = await mediaOf(await created({ type: 'hotspot', answer: 'zone', hotspot_image: `map.png=${b64(SAMPLES.png)}` }));
    expect(m).toMatchObject({ field: 'hotspotImage', file: { contentType: 'image/png' } });
  });
});

describe('media as URLs', () => {
  it('keeps the URL as a reference and never fetches it', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      const id = await created({ image: 'remote.png=https://media.example.com/remote.png', video: 'intro=http://video.example.com/watch?v=1' });
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(await mediaOf(id)).toEqual([]);
      const row = await t.db.prisma.question.findUniqueOrThrow({ where: { id } });
      expect(row.data).toMatchObject({
        mediaLinks: {
          image: { filename: 'remote.png', url: 'https://media.example.com/remote.png' },
          video: { filename: 'intro', url: 'http://video.example.com/watch?v=1' },
        },
      });
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

describe('multipart uploads', () => {
  async function upload(fields: Record<string, string | File>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const response = await t.app.fetch(
      new Request(`${BASE_URL}/api/question`, { method: 'POST', headers: { authorization: `Bearer ${author.app}:${author.secret}` }, body: form }),
    );
    return { status: response.status, body: (await response.json()) as any, code: response.headers.get('service-api-error-code') };
  }

  it('takes a file part as the media field, named by the part', async () => {
    const r = await upload({ ...base(), image: new File([SAMPLES.jpeg], 'camera.jpg', { type: 'image/png' }), media_audio: new File([SAMPLES.aac], 'a.aac') });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const media = await mediaOf(r.body.question);
    expect(media.map((m) => [m.field, m.file.filename, m.file.contentType])).toEqual([
      ['image', 'camera.jpg', 'image/jpeg'],
      ['mediaAudio', 'a.aac', 'audio/aac'],
    ]);
  });

  it('checks the content of a file part too', async () => {
    const before = await snapshot();
    const r = await upload({ ...base(), image: new File([SAMPLES.mp3Id3], 'photo.png', { type: 'image/png' }) });
    expect(r.status).toBe(403);
    expect(r.code).toBe('INVALID_FILE_TYPE');
    expect(r.body.error.argument).toBe('image');
    expect(await snapshot()).toEqual(before);
  });
});

describe('media on update and export', () => {
  it('replaces media on every write and deletes the files no longer used', async () => {
    const args = { ...base(), image: `one.png=${b64(SAMPLES.png)}` };
    const id = await created(args);
    const [first] = await mediaOf(id);
    await created({ ...args, image: `two.jpg=${b64(SAMPLES.jpeg)}` });
    const [second] = await mediaOf(id);
    expect(second!.file.filename).toBe('two.jpg');
    expect(await t.db.prisma.storedFile.findUnique({ where: { id: first!.fileId } })).toBeNull();
    // Left out: removed, as every other field left out.
    await created({ ...args, image: undefined });
    expect(await mediaOf(id)).toEqual([]);
    expect(await t.db.prisma.storedFile.findUnique({ where: { id: second!.fileId } })).toBeNull();
  });

  it('exports media as base64 (or their URL) so the export posts back to the same files', async () => {
    const id = await created({ id: 'with-media', path: '/Media', image: `p.png=${b64(SAMPLES.png)}`, media_audio: `s.mp3=${b64(SAMPLES.mp3Frame)}`, video: 'v=https://v.example.com/1' });
    const link = await t.rpc('POST', 'question:export', { id: 'with-media', path: '/Media' }, { as: author });
    expect(link.status).toBe(200);
    const exported = await (await t.app.fetch(new Request(link.body.url))).json();
    expect(exported).toMatchObject({ question: id, image: `p.png=${b64(SAMPLES.png)}`, media_audio: `s.mp3=${b64(SAMPLES.mp3Frame)}`, video: 'v=https://v.example.com/1' });
    const copy = await post({ ...exported, path: '/Copy' });
    expect(copy.status).toBe(200);
    const copied = await mediaOf(copy.body.question);
    expect(copied.map((m) => [m.field, m.file.filename, m.file.sha256])).toEqual([
      ['image', 'p.png', hex(SAMPLES.png)],
      ['mediaAudio', 's.mp3', hex(SAMPLES.mp3Frame)],
    ]);
  });
});
