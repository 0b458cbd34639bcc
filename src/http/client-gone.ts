/**
 * Disconnect errors a socket reports when the client goes away; they are the client's doing.
 * Node names them by code (ECONNRESET, EPIPE) or, for a request cut mid-body, by the message
 * "aborted".
 */
export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted';
}
