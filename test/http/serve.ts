import type { Server } from 'node:http';
import type { TestApp } from '../helpers/app.ts';

/** A test app listening on a free port of 127.0.0.1 (its fastify server, as main.ts runs it). */
export async function serve(t: TestApp): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const url = await t.app.listen(0, '127.0.0.1');
  const server = t.app.server.server;
  return {
    server,
    url,
    close: async () => {
      server.closeAllConnections();
      await t.app.close();
    },
  };
}
