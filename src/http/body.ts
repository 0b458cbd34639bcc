import { ArgumentError, AppError } from '../errors.ts';

/** Bodies above this size are refused before parsing (uploads of media are the largest calls). */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

export class PayloadTooLargeError extends AppError {
  constructor() {
    super(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
}

/**
 * Arguments from a request body: urlencoded and multipart forms, or a JSON object. Form values
 * are text; JSON values keep their native types (services accept both).
 */
export async function parseBodyArgs(contentType: string | null | undefined, body: Uint8Array): Promise<Record<string, unknown>> {
  if (body.byteLength === 0) return {};
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      throw new ArgumentError('body', 'is not valid JSON', 'INVALID_BODY');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ArgumentError('body', 'must be a JSON object of arguments', 'INVALID_BODY');
    }
    return parsed as Record<string, unknown>;
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(Buffer.from(body), { headers: { 'content-type': contentType! } }).formData();
    } catch {
      throw new ArgumentError('body', 'is not a valid multipart form', 'INVALID_BODY');
    }
    const args: Record<string, unknown> = {};
    for (const [key, value] of form) args[key] = value;
    return args;
  }
  // urlencoded, and bodies sent without a type (curl -d sends urlencoded).
  return Object.fromEntries(new URLSearchParams(Buffer.from(body).toString('utf8')));
}
