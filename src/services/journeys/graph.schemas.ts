import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, json, oneOf } from '../validation.ts';
import { journeyLimits } from './format.ts';
import { journeyNodeJsonSchema, journeySettingsJsonSchema } from './json-schema.ts';

/** GET `exam:journey:graph`. */
export const graphRef = z.object({
  exam: contract(code(), { description: 'starting exam' }),
  graph: contract(oneOf(['draft', 'published']).default('draft'), { description: 'published only once published' }),
});

/**
 * PUT `exam:journey:graph` (and GraphQL's saveJourneyGraph). Only the text is parsed here; the
 * graph itself is checked by graph-validation.ts, which reports every problem at once.
 */
export const saveGraph = z.object({
  exam: code(),
  nodes: contract(json(), { type: ['list', 'json'], max: journeyLimits.nodes, jsonSchema: journeyNodeJsonSchema, description: 'the graph in the portable journey format' }),
  settings: contract(json().optional(), { type: ['hash', 'json'], jsonSchema: journeySettingsJsonSchema, description: 'merged over current settings' }),
  /** Checked with the graph (schema-unsupported), so it is reported with the other problems. */
  schema: contract(z.unknown().optional(), { type: 'integer', default: 1 }),
});

/** GraphQL's setJourneyEnabled. */
export const setEnabled = z.object({ exam: code(), enabled: bool() });
