import type { FastifyRequest } from 'fastify';

/**
 * A request's headers as the faces read them (`get`), one object per call with a method rather
 * than a closure made per call (under tsx each closure also has its name defined on it).
 */
export class IncomingHeaders {
  constructor(private readonly headers: FastifyRequest['headers']) {}

  get(name: string): string | undefined {
    return this.headers[name] as string | undefined;
  }
}
