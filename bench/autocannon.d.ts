// autocannon ships no type declarations; this covers the part the benchmark uses.
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    body?: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    workers?: number;
    headers?: Record<string, string>;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    /** Requests each connection sends in turn. */
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** With workers: the path of a module exporting `(status, body, context, headers) => void`, run on every answer. */
      onResponse?: string;
    }[];
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
    /** Answers by status code. */
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
