import type { Platform } from '../context.ts';
import { openLinkedFile } from '../services/files/files.service.ts';
import type { AssetResponse } from './asset.ts';
import { notFound } from './pages.ts';

/** A download's Content-Disposition, its name header-safe: ASCII without quotes or separators (it keeps its extension). */
export const attachment = (name: string, fallback: string) => `attachment; filename="${name.replace(/[^\w.-]+/g, '_').slice(0, 128) || fallback}"`;

/**
 * `GET /files/<token>`: a file behind a link the service handed out (question exports, certificate
 * PDFs). The token is the credential, so no sign-in; an unknown token answers 404, an expired link
 * 410. The body is the file's bytes.
 */
export async function filePage(platform: Platform, token: string): Promise<AssetResponse> {
  const found = await openLinkedFile(platform, token);
  if (found.status === 'missing') return notFound();
  if (found.status === 'expired') {
    return {
      status: 410,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: JSON.stringify({ error: { code: 'LINK_EXPIRED', message: 'This link has expired' } }),
    };
  }
  const { file } = found;
  return {
    status: 200,
    headers: {
      'content-type': file.contentType.startsWith('application/json') ? 'application/json; charset=utf-8' : file.contentType,
      'content-disposition': attachment(file.filename, 'file'),
      // Whoever holds the link may read it, but shared caches must not keep a copy.
      'cache-control': 'private, no-store',
    },
    body: new Uint8Array(file.data),
  };
}
