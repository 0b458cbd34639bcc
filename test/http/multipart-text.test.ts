import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, BASE_URL, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { expectError, refusedUnchanged } from '../helpers/expect.ts';

/**
 * Text in multipart/form-data bodies, sent as raw bytes: a field's name and value are read in the
 * charset its part declares, UTF-8 where none is declared; bytes that are not text in it are
 * refused like a lone surrogate (403 INVALID_ARGUMENT naming the field), never stored as U+FFFD.
 * Files keep their bytes.
 */

let t: TestApp;
let caller: Caller;

beforeAll(async () => {
  t = await createTestApp();
  caller = await t.newCaller('multiparttext');
});
afterAll(async () => t?.close());

const BOUNDARY = 'text-sweep-7d3f0a';

interface Part {
  /** The bytes of the disposition's parameters after `form-data; `, e.g. `name="first_name"`. */
  disposition: Buffer | string;
  value: Buffer | string;
  /** Further header lines of the part, e.g. `Content-Type: text/plain; charset=latin1`. */
  headers?: string[];
}

const field = (name: string, value: Buffer | string, headers?: string[]): Part => ({ disposition: `name="${name}"`, value, headers });
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

function body(parts: Part[]): Uint8Array<ArrayBuffer> {
  const chunks = parts.flatMap((p) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; `),
    Buffer.from(p.disposition),
    Buffer.from(['', ...(p.headers ?? []), '', ''].join('\r\n')),
    Buffer.from(p.value),
    Buffer.from('\r\n'),
  ]);
  return Uint8Array.from(Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]));
}

async function send(endpoint: string, parts: Part[] | Uint8Array<ArrayBuffer>, contentType = `multipart/form-data; boundary=${BOUNDARY}`): Promise<RpcResult> {
  const response = await t.app.fetch(
    new Request(`${BASE_URL}/api/${endpoint}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${caller.app}:${caller.secret}`, 'content-type': contentType },
      body: Array.isArray(parts) ? body(parts) : parts,
    }),
  );
  const parsed = (await response.json()) as any;
  return { status: response.status, headers: response.headers, body: parsed, error: response.headers.get('service-api-error'), code: response.headers.get('service-api-error-code') };
}

const names = async () => {
  const user = await t.db.prisma.user.findUniqueOrThrow({ where: { id: caller.user.id } });
  return [user.firstName, user.lastName];
};

/** Sequences that are not UTF-8: a lone continuation byte, an overlong "/", an encoded surrogate, past U+10FFFF, 0xFF, a sequence cut short. */
const NOT_UTF8 = [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff], [0xe2, 0x82]];

describe('a multipart field whose bytes are not UTF-8', () => {
  it('is refused with 403 INVALID_ARGUMENT and the error headers naming it, declared UTF-8 or not, and changes nothing', async () => {
    const refused = refusedUnchanged(names);
    for (const sequence of NOT_UTF8) {
      for (const declared of [[], ['Content-Type: text/plain; charset=utf-8'], ['Content-Type: text/plain; charset="UTF8"']]) {
        const r = await refused(() => send('user:name', [field('user', 'me'), field('first_name', bytes('a', sequence, 'b'), declared), field('last_name', 'B')]), 403, 'INVALID_ARGUMENT', 'first_name');
        expect(r.error).toBe("Argument 'first_name': must be well-formed Unicode text (no lone UTF-16 surrogates or invalid UTF-8)");
      }
      // At the very end of the value, too.
      await refused(() => send('user:name', [field('user', 'me'), field('last_name', 'B'), field('first_name', bytes('a', sequence))]), 403, 'INVALID_ARGUMENT', 'first_name');
    }
  });

  it('in a part that declares a charset nothing can read it in is refused the same way', async () => {
    const refused = refusedUnchanged(names);
    await refused(() => send('user:name', [field('user', 'me'), field('first_name', 'Ann', ['Content-Type: text/plain; charset=no-such-charset']), field('last_name', 'B')]), 403, 'INVALID_ARGUMENT', 'first_name');
    // Shift_JIS with a lead byte and no trail byte.
    await refused(() => send('user:name', [field('user', 'me'), field('first_name', bytes('a', [0x82]), ['Content-Type: text/plain; charset=shift_jis']), field('last_name', 'B')]), 403, 'INVALID_ARGUMENT', 'first_name');
  });

  it('in a field name is refused naming the field where the operation takes such a name (custom_…), and creates nothing', async () => {
    const users = () => t.db.prisma.user.count();
    const before = await users();
    const name = bytes('custom_nick', [0xff]);
    const r = await send('user', [field('username', 'mp-custom'), field('email', 'mp-custom@example.com'), { disposition: Buffer.concat([Buffer.from('name="'), name, Buffer.from('"')]), value: 'x' }]);
    expect(r.status).toBe(403);
    expect(r.code).toBe('INVALID_ARGUMENT');
    expect(r.error).toContain('custom_nick');
    expect(r.body.error.argument).toBe('custom_nick\udcff');
    expect(await users()).toBe(before);
  });

  it('in a file name is refused naming the field, and the file is not stored', async () => {
    const files = () => t.db.prisma.storedFile.count();
    const before = await files();
    const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR', [1, 2, 3, 4, 5, 6, 7, 8]);
    const question = [field('id', 'mp-badname'), field('type', 'generic'), field('content', 'c'), field('answer', 'a')];
    const image: Part = { disposition: bytes('name="image"; filename="photo', [0xc3], '.png"'), value: png, headers: ['Content-Type: image/png'] };
    const r = await send('question', [...question, image]);
    expectError(r, 403, 'INVALID_ARGUMENT', 'image');
    expect(await files()).toBe(before);
  });
});

describe('multipart text that is well-formed', () => {
  it('round-trips exactly in UTF-8, 4-byte characters included, declared or not', async () => {
    const first = 'Zoë 𝄞😀 日本 \u{10ffff}';
    const last = 'Ωmega 🎉 ﬀ';
    const r = await send('user:name', [field('user', 'me'), field('first_name', first), field('last_name', last, ['Content-Type: text/plain; charset=UTF-8'])]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await names()).toEqual([first, last]);
  });

  it('is read in the charset its part declares: latin1, ISO-8859-7, Shift_JIS, UTF-16LE', async () => {
    const latin1 = await send('user:name', [
      field('user', 'me'),
      field('first_name', Buffer.from('Renée Ærø', 'latin1'), ['Content-Type: text/plain; charset=latin1']),
      field('last_name', Buffer.from('Müller', 'latin1'), ['Content-Type: text/plain; charset=ISO-8859-1']),
    ]);
    expect(latin1.status, JSON.stringify(latin1.body)).toBe(200);
    expect(await names()).toEqual(['Renée Ærø', 'Müller']);
    const others = await send('user:name', [
      field('user', 'me'),
      // Alpha and beta in ISO-8859-7, 日本 in Shift_JIS.
      field('first_name', bytes([0xe1, 0xe2]), ['Content-Type: text/plain; charset=iso-8859-7']),
      field('last_name', bytes([0x93, 0xfa, 0x96, 0x7b]), ['Content-Type: text/plain; charset=Shift_JIS']),
    ]);
    expect(others.status, JSON.stringify(others.body)).toBe(200);
    expect(await names()).toEqual(['αβ', '日本']);
    const utf16 = await send('user:name', [field('user', 'me'), field('first_name', Buffer.from('Ŝ𝄞', 'utf16le'), ['Content-Type: text/plain; charset=utf-16le']), field('last_name', 'B')]);
    expect(utf16.status, JSON.stringify(utf16.body)).toBe(200);
    expect(await names()).toEqual(['Ŝ𝄞', 'B']);
  });

  it('in a name given as an extended parameter is read in the charset it declares', async () => {
    const r = await send('user:name', [field('user', 'me'), { disposition: "name*=utf-8''first%5Fname", value: 'Élodie' }, field('last_name', 'B')]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await names()).toEqual(['Élodie', 'B']);
  });
});

describe('a multipart file part', () => {
  it('keeps its bytes as sent, bytes that are not UTF-8 included', async () => {
    const jpeg = bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF', [0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff]);
    const question = [field('id', 'mp-file'), field('type', 'generic'), field('content', 'c'), field('answer', 'a')];
    const r = await send('question', [...question, { disposition: 'name="image"; filename="dir/camera.jpg"', value: jpeg, headers: ['Content-Type: image/jpeg'] }]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [media] = await t.db.prisma.questionMedia.findMany({ where: { questionId: r.body.question }, include: { file: true } });
    expect(media!.file).toMatchObject({ filename: 'camera.jpg', size: jpeg.length, sha256: createHash('sha256').update(jpeg).digest('hex') });
  });
});

describe('a multipart body that is not a valid form', () => {
  it('is refused with 403 INVALID_BODY (cut short, no boundary) or 413 (too many parts, too large), and changes nothing', async () => {
    const refused = refusedUnchanged(names);
    const whole = body([field('user', 'me'), field('first_name', 'Cut'), field('last_name', 'Short')]);
    await refused(() => send('user:name', whole.slice(0, whole.length - 30)), 403, 'INVALID_BODY', 'body');
    await refused(() => send('user:name', whole, 'multipart/form-data'), 403, 'INVALID_BODY', 'body');
    const many = Array.from({ length: 10_001 }, (_, i) => field(`p${i}`, 'x'));
    await refused(() => send('user:name', [field('user', 'me'), field('first_name', 'Many'), field('last_name', 'Parts'), ...many]), 413, 'PAYLOAD_TOO_LARGE');
    await refused(() => send('user:name', [field('user', 'me'), field('first_name', 'x'.repeat(26 * 1024 * 1024)), field('last_name', 'Large')]), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('with no parts at all is a call without arguments', async () => {
    const r = await send('user:name', Uint8Array.from(Buffer.from(`--${BOUNDARY}--\r\n`)));
    expectError(r, 403, 'MISSING_ARGUMENT');
  });
});
