import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createHttpServer } from '../../src/http/server.ts';
import type { TestApp } from '../helpers/app.ts';

/** A test app behind the service's own node:http server on a free port of 127.0.0.1. */
export async function serve(t: TestApp): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createHttpServer(t.app, t.platform.config, pino({ level: 'silent' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
