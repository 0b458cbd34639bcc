import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/**
 * At most `max` open connections from one address (0: no limit); one more is closed at once. The
 * limit is against one client holding every file descriptor of the process, so its default is
 * far above what a school behind one NAT address opens for an exam of 3,000 examinees (a browser
 * keeps a few connections to a host). Counted on the socket's own address: a load balancer in
 * front of the service is one address too, so set it to 0 there.
 */
export function limitConnectionsPerAddress(server: Server, max: number, log: Logger): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      log.warn({ address, max }, 'too many connections from one address: connection closed');
      return void socket.destroy();
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * HTTP_CONNECTION_TIMEOUT_MS closes connections that are idle, not requests that are being
 * served: without a listener, Node destroys a socket on its idle timeout even while its response
 * is still being prepared, so a start that waited 20 s in an exam-day storm lost its answer. A
 * request still arriving is bounded by the head, request and body-rate limits instead, and a
 * socket that is quiet while its answer is prepared is closed once that answer is written and it
 * stays idle again.
 */
export function closeOnlyIdleConnections(server: Server): void {
  server.on('timeout', (socket: Socket) => {
    if (!servingOn(socket)) socket.destroy();
  });
}

/** Whether a response is open on the socket (Node's own record of it, `_httpMessage`, is the one it checks too). */
function servingOn(socket: Socket): boolean {
  const response = (socket as Socket & { _httpMessage?: { writableEnded: boolean } | null })._httpMessage;
  return response != null && !response.writableEnded;
}
