/**
 * The load generator of bench/exam-day.ts, in a worker thread so it does not share the service's
 * event loop: examinees calling the player through GraphQL (each with its own assume token through
 * the school's application) and REST `GET user:me`, with fetch over keep-alive connections.
 * A call refused with SERVICE_BUSY (or a 503) is sent again after its Retry-After, as a player
 * should; those retries are counted apart from failures.
 *
 * The starts go out each on a connection of its own, as thousands of browsers open theirs at 9:00,
 * over plain sockets: fetch opens about 500 connections a second on this machine, so a storm sent
 * with it measures fetch (3,000 starts in 6 s however fast the service is).
 */
import { connect } from 'node:net';
import { parentPort } from 'node:worker_threads';

export interface Examinee {
  token: string;
}

export type Phase =
  | { kind: 'me'; seconds: number; inFlight: number }
  | { kind: 'start'; examinees: Examinee[]; exam: string; inFlight: number }
  | { kind: 'answer'; calls: { examinee: Examinee; play: string; question: string; response: string }[]; inFlight: number }
  | { kind: 'finish'; calls: { examinee: Examinee; play: string }[]; inFlight: number };

export interface PhaseResult {
  calls: number;
  seconds: number;
  /** Milliseconds per call, retries included. */
  latencies: number[];
  retries: number;
  /** Failures by error code (or HTTP status), after retries. */
  failures: Record<string, number>;
  /** What each call answered, in the order of the phase's calls (start: play id, answer: index, finish: points). */
  answers: unknown[];
}

const { base, authorization } = (await import('node:worker_threads')).workerData as { base: string; authorization: string };

/** An answer as the generator reads it: status, Retry-After and body text. */
interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

type Transport = (body: string, assume: string) => Promise<Answer>;

/** POST /graphql over the generator's pool of keep-alive connections. */
const pooled: Transport = async (body, assume) => {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization, 'service-api-assume': assume, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
};

/** POST /graphql on a new connection, closed after the answer (plain HTTP/1.1 over a socket). */
const ownConnection: Transport = (body, assume) =>
  new Promise((resolve, reject) => {
    const url = new URL(`${base}/graphql`);
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('connect', () => {
      const head = [
        `POST ${url.pathname} HTTP/1.1`,
        `host: ${url.host}`,
        'connection: close',
        'content-type: application/json',
        `authorization: ${authorization}`,
        `service-api-assume: ${assume}`,
        `content-length: ${Buffer.byteLength(body)}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
  });

/** Status, Retry-After and body of an HTTP/1.1 answer read to the end of its connection (chunked or not). */
function parseAnswer(raw: string): Answer {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error('incomplete answer');
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  let text = raw.slice(split + 4);
  if (headers.get('transfer-encoding') === 'chunked') {
    let body = '';
    for (let at = 0; ; ) {
      const end = text.indexOf('\r\n', at);
      const size = parseInt(text.slice(at, end), 16);
      if (!size) break;
      body += text.slice(end + 2, end + 2 + size);
      at = end + 2 + size + 2;
    }
    text = body;
  }
  return { status: Number(statusLine!.split(' ')[1]), retryAfter: headers.get('retry-after') ?? null, text };
}

async function graphql(examinee: Examinee, query: string, variables: Record<string, unknown>, transport: Transport = pooled): Promise<{ data?: any; code?: string; retryAfter?: number }> {
  const { status, retryAfter, text } = await transport(JSON.stringify({ query, variables }), examinee.token);
  if (status === 503) return { code: 'HTTP_503', retryAfter: Number(retryAfter ?? 1) };
  let body: { data?: any; errors?: { extensions?: { code?: string; retryAfter?: number } }[]; error?: { code?: string } };
  try {
    body = JSON.parse(text);
  } catch {
    return { code: `HTTP_${status}` };
  }
  const error = body.errors?.[0];
  if (error) return { code: error.extensions?.code ?? 'UNKNOWN', retryAfter: error.extensions?.retryAfter };
  // A refusal before GraphQL (the HTTP edge) carries the contract's error object.
  if (!body.data) return { code: body.error?.code ?? `HTTP_${status}` };
  return { data: body.data };
}

/** Runs the calls with at most `inFlight` at once; each call is retried while it is refused as busy. */
async function drive(count: number, inFlight: number, call: (i: number) => Promise<{ data?: unknown; code?: string; retryAfter?: number }>, pick: (data: any) => unknown): Promise<PhaseResult> {
  const result: PhaseResult = { calls: count, seconds: 0, latencies: new Array(count), retries: 0, failures: {}, answers: new Array(count) };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      for (;;) {
        let outcome: { data?: unknown; code?: string; retryAfter?: number };
        try {
          outcome = await call(i);
        } catch (error) {
          const { cause, code } = error as { cause?: { code?: string }; code?: string };
          outcome = { code: `CONNECTION_${cause?.code ?? code ?? 'ERROR'}` };
        }
        if (outcome.code === 'SERVICE_BUSY' || outcome.code === 'HTTP_503') {
          result.retries++;
          await new Promise((resolve) => setTimeout(resolve, (outcome.retryAfter ?? 1) * 1000));
          continue;
        }
        if (outcome.code) result.failures[outcome.code] = (result.failures[outcome.code] ?? 0) + 1;
        else result.answers[i] = pick(outcome.data);
        break;
      }
      result.latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

const START = `mutation($exam: ID!) { startPlay(input: { exam: $exam }) { id } }`;
const ANSWER = `mutation($play: ID!, $question: ID!, $response: JSON!) { answerQuestion(input: { play: $play, question: $question, response: $response }) { index } }`;
const FINISH = `mutation($play: ID!) { finishPlay(input: { play: $play }) { result { pointsCorrect } } }`;

async function me(seconds: number, inFlight: number): Promise<PhaseResult> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const response = await fetch(`${base}/api/v1/user:me`, { headers: { authorization } });
        await response.arrayBuffer();
        if (response.status !== 200) failures[`HTTP_${response.status}`] = (failures[`HTTP_${response.status}`] ?? 0) + 1;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { calls: latencies.length, seconds: (performance.now() - started) / 1000, latencies, retries: 0, failures, answers: [] };
}

parentPort!.on('message', async (phase: Phase) => {
  let result: PhaseResult;
  switch (phase.kind) {
    case 'me':
      result = await me(phase.seconds, phase.inFlight);
      break;
    case 'start':
      result = await drive(phase.examinees.length, phase.inFlight, (i) => graphql(phase.examinees[i]!, START, { exam: phase.exam }, ownConnection), (d) => d.startPlay.id);
      break;
    case 'answer':
      result = await drive(phase.calls.length, phase.inFlight, (i) => {
        const c = phase.calls[i]!;
        return graphql(c.examinee, ANSWER, { play: c.play, question: c.question, response: c.response });
      }, (d) => d.answerQuestion.index);
      break;
    case 'finish':
      result = await drive(phase.calls.length, phase.inFlight, (i) => graphql(phase.calls[i]!.examinee, FINISH, { play: phase.calls[i]!.play }), (d) => d.finishPlay.result.pointsCorrect);
      break;
  }
  parentPort!.postMessage(result);
});
