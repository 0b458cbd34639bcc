import { z } from 'zod';
import { bool, code, json, oneOf } from '../validation.ts';

/** GET `exam:journey:graph`. */
export const graphRef = z.object({
  exam: code(),
  graph: oneOf(['draft', 'published']).default('draft'),
});

/**
 * PUT `exam:journey:graph` (and GraphQL's saveJourneyGraph). Only the text is parsed here; the
 * graph itself is checked by graph-validation.ts, which reports every problem at once.
 */
export const saveGraph = z.object({
  exam: code(),
  nodes: json(),
  settings: json().optional(),
  /** Checked with the graph (schema-unsupported), so it is reported with the other problems. */
  schema: z.unknown().optional(),
});

/** GraphQL's setJourneyEnabled. */
export const setEnabled = z.object({ exam: code(), enabled: bool() });
