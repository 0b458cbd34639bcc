import type { Readable } from 'node:stream';
import type { Platform } from '../context.ts';
import { AppError } from '../errors.ts';
import { errorResponse } from '../rest/router.ts';
import { downloadResultsExport } from '../services/plays/results-export.ts';
import type { SimpleResponse } from './pages.ts';
import { attachment } from './files.ts';

/**
 * `GET /exports/<token>`: the file of a results export link (POST `exam:results:export`). The token
 * is the credential, so no sign-in. The file is written while it is sent (a streamed body). Refusals
 * carry the contract's error headers (`Service-API-Error`, `Service-API-Error-Code`): 404 NOT_FOUND
 * for a token of nothing, 410 LINK_USED once downloaded, 410 LINK_EXPIRED after its hour, 410
 * LINK_REVOKED when the caller who asked for it may no longer read the exam's results. HEAD answers
 * without using the link up (link scanners probe with it).
 */

export const EXPORT_PATH = /^\/exports\/([a-z0-9]{20,80})$/;

type ExportPage = SimpleResponse | { status: 200; headers: Record<string, string>; stream: Readable };

const refusals = {
  missing: new AppError(404, 'NOT_FOUND', 'No export behind this link'),
  used: new AppError(410, 'LINK_USED', 'This export link has been used already: each link gives its file once'),
  expired: new AppError(410, 'LINK_EXPIRED', 'This export link has expired: links are valid one hour'),
  revoked: new AppError(410, 'LINK_REVOKED', "The caller who asked for this export may no longer read the exam's results"),
} as const;

export async function exportPage(platform: Platform, method: string, token: string, requestId: string): Promise<ExportPage> {
  if (method === 'HEAD') return { status: 200, headers: { 'cache-control': 'no-store' }, body: '' };
  const found = await downloadResultsExport(platform, token, requestId);
  if (found.status !== 'ok') return errorResponse(refusals[found.status], requestId);
  return {
    status: 200,
    headers: {
      'content-type': found.contentType,
      'content-disposition': attachment(found.filename, 'results'),
      // Whoever holds the link may read it once; no cache may keep a copy.
      'cache-control': 'private, no-store',
    },
    stream: found.body,
  };
}
