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
