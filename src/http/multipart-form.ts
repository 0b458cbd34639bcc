import { Dicer } from '@fastify/busboy';
import { AppError, ArgumentError } from '../errors.ts';
import { declaredText } from './body-text.ts';
import { headerParameters, type HeaderParameter } from './header-params.ts';

/** More parts than any call has arguments; each one costs an object. */
export const MAX_FORM_PARTS = 10_000;

const invalidForm = () => new ArgumentError('body', 'is not a valid multipart form', 'INVALID_BODY');
const tooManyParts = () => new AppError(413, 'PAYLOAD_TOO_LARGE', `A multipart form holds at most ${MAX_FORM_PARTS} parts`);

interface RawPart {
  /** Header names lowercased, values as bytes (one character a byte). */
  header: Record<string, string[]>;
  chunks: Buffer[];
}

/** The parts of a multipart body, split by busboy's part parser; a body cut short or malformed is refused. */
function splitParts(body: Buffer, boundary: string): Promise<RawPart[]> {
  return new Promise((resolve, reject) => {
    const parts: RawPart[] = [];
    let open = 0;
    let finished = false;
    let failed = false;
    const fail = (error: unknown) => {
      if (!failed) reject(error);
      failed = true;
    };
    const settle = () => {
      if (finished && open === 0 && !failed) resolve(parts);
    };
    const dicer = new Dicer({ boundary });
    dicer.on('part', (stream) => {
      const part: RawPart = { header: {}, chunks: [] };
      if (parts.push(part) > MAX_FORM_PARTS) fail(tooManyParts());
      open++;
      stream.on('header', (header) => (part.header = header as RawPart['header']));
      stream.on('data', (chunk: Buffer) => part.chunks.push(chunk));
      stream.on('end', () => {
        open--;
        settle();
      });
      stream.on('error', fail);
    });
    dicer.on('error', fail);
    dicer.on('finish', () => {
      finished = true;
      settle();
    });
    dicer.end(body);
  });
}

/** The text of a name or file name; a quoted one holds UTF-8 (as browsers send it), an extended one says its charset. */
const parameterText = (parameter: HeaderParameter) => declaredText(parameter.bytes, parameter.charset);

/** The last path segment of a file name: some clients send the path it had on their disk. */
function basename(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return base === '.' || base === '..' ? '' : base;
}

/**
 * The arguments of a multipart/form-data body (RFC 7578): a part with a file name is a File (its
 * bytes as sent, its name and type read by the services), any other part text. busboy's part parser
 * splits the body; names and values are decoded here because busboy would decode them itself,
 * turning bytes that are not UTF-8 into U+FFFD (stored as if the caller had sent it) and not telling
 * which charset a part declared. So a value is read in the charset its part declares (latin1 …),
 * UTF-8 where it declares none, and bytes that are not text in it arrive as lone surrogates, which
 * the input rules refuse, naming the argument (body-text.ts). Parts without a form-data disposition
 * or a name are skipped; a repeated name keeps its last value, as in a urlencoded form.
 */
export async function multipartFields(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  if (body.length === 0) return {};
  const boundary = headerParameters(contentType).parameters.get('boundary')?.bytes.toString('latin1');
  if (!boundary) throw invalidForm();
  let parts: RawPart[];
  try {
    parts = await splitParts(body, boundary);
  } catch (error) {
    throw error instanceof AppError ? error : invalidForm();
  }
  const fields: [string, unknown][] = [];
  for (const { header, chunks } of parts) {
    const disposition = headerParameters(header['content-disposition']?.[0] ?? '');
    const name = disposition.parameters.get('name');
    if (disposition.type !== 'form-data' || !name) continue;
    const type = headerParameters(header['content-type']?.[0] ?? '');
    const bytes = Buffer.concat(chunks);
    const filenameParameter = disposition.parameters.get('filename');
    const filename = filenameParameter && basename(parameterText(filenameParameter));
    let value: string | File;
    if (filename === undefined) value = declaredText(bytes, type.parameters.get('charset')?.bytes.toString('latin1'));
    // File's constructor would turn the lone surrogates of a name that is not text into U+FFFD: such
    // a part stands as its name instead, text the input rules refuse, naming the field.
    else if (!filename.isWellFormed()) value = filename;
    else value = new File([new Uint8Array(bytes)], filename, { type: type.type || 'text/plain' });
    fields.push([parameterText(name), value]);
  }
  return Object.fromEntries(fields);
}
