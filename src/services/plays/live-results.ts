import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, Repeater } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

type Topics = { 'exam-result': [exam: string, event: { play: string }] };

/**
 * Plays of an exam as they finish (or are graded), for live dashboards: GraphQL's
 * `examResultFinished`. Within one process an in-memory event target; with REDIS_URL, Redis
 * pub/sub (yoga's event target), so a play finished on one instance reaches subscribers on every
 * instance. Published after the finishing transaction commits, so nobody hears of a result that
 * was rolled back. Delivery is best effort, as pub/sub is: a dashboard that reconnects reads the
 * results list again.
 */
export class LiveResults {
  private readonly pubsub;
  private readonly redis: Redis[] = [];
  private ended!: () => void;
  /** Settles on close: every open subscription then ends, so SSE streams do not hold shutdown. */
  private readonly closed = new Promise<void>((resolve) => (this.ended = resolve));

  constructor(options: { redisUrl?: string; log: Logger }) {
    if (!options.redisUrl) {
      this.pubsub = createPubSub<Topics>();
      return;
    }
    // Connected on first use: a process that never publishes or subscribes (the CLI) opens nothing.
    const publisher = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const subscriber = new Redis(options.redisUrl, { lazyConnect: true });
    this.redis.push(publisher, subscriber);
    for (const client of this.redis) client.on('error', (err) => options.log.warn({ err }, 'live results: redis connection'));
    // yoga's event target does not await its commands; a refusal is logged rather than left unhandled.
    const logged = (what: string) => (err: unknown) => options.log.warn({ err }, `live results: redis ${what} failed`);
    const eventTarget = createRedisEventTarget<CustomEvent>({
      publishClient: { publish: (channel: string, message: string) => publisher.publish(channel, message).catch(logged('publish')) } as unknown as Redis,
      // The event target uses only these three methods of its subscriber.
      subscribeClient: {
        subscribe: (channel: string) => subscriber.subscribe(channel).catch(logged('subscribe')),
        unsubscribe: (channel: string) => subscriber.unsubscribe(channel).catch(logged('unsubscribe')),
        on: subscriber.on.bind(subscriber),
      } as unknown as Redis,
    });
    this.pubsub = createPubSub<Topics>({ eventTarget });
  }

  publish(examId: string, playId: string): void {
    this.pubsub.publish('exam-result', examId, { play: playId });
  }

  /** The plays of one exam, until the subscriber leaves or the service closes. */
  subscribe(examId: string): AsyncIterable<{ play: string }> {
    return Repeater.race([this.pubsub.subscribe('exam-result', examId), this.closed.then(() => undefined)]) as AsyncIterable<{ play: string }>;
  }

  /** Ends every open subscription (SSE streams close) and refuses new ones; publishing goes on. */
  endSubscriptions(): void {
    this.ended();
  }

  async close(): Promise<void> {
    this.ended();
    await Promise.all(this.redis.map((client) => (client.status === 'wait' ? client.disconnect() : client.quit().catch(() => client.disconnect()))));
  }
}
