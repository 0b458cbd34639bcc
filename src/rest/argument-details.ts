import { z } from 'zod';
import * as users from '../services/users/users.schemas.ts';
import * as organizations from '../services/organizations/organizations.schemas.ts';
import * as classes from '../services/classes/classes.schemas.ts';
import * as quizzes from '../services/quizzes/quizzes.schemas.ts';
import * as grading from '../services/grading/grading.schemas.ts';
import * as integrations from '../services/integrations/integrations.schemas.ts';
import * as webhooks from '../services/webhooks/webhooks.schemas.ts';
import * as tags from '../services/tags/tags.schemas.ts';
import * as journeys from '../services/journeys/graph.schemas.ts';
import type { Operation } from './operations/types.ts';
import { toContractName } from './names.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The zod schema a service parses an operation's arguments with, where it says more than the
 * catalogue (patterns, formats, lengths the documents leave out). Keyed 'METHOD endpoint'; an
 * operation missing here is described from the catalogue alone. test/http/openapi.test.ts holds
 * every entry's fields to the operation's documented arguments, so a wrong pairing fails.
 */
export const argumentSchemas: Readonly<Record<string, z.ZodObject>> = {
  'GET user': users.userRef,
  'POST user': users.createUser,
  'PATCH user': users.setUserActive,
  'DELETE user': users.userRef,
  'GET user:name': users.userRef,
  'POST user:name': users.setUserName,
  'GET user:group': users.userRef,
  'POST user:group': users.setUserGroup,
  'POST user:login': users.createLoginLink,
  'DELETE user:login': users.deleteLoginLink,
  'GET organization': organizations.organizationRef,
  'POST organization': organizations.createOrganization,
  'PATCH organization': organizations.updateOrganization,
  'POST organization:department': organizations.createDepartment,
  'PATCH organization:department': organizations.updateDepartment,
  'GET class': classes.classRef,
  'GET quiz': quizzes.quizRef,
  'POST quiz': quizzes.createQuizSet,
  'PATCH quiz': quizzes.updateQuizSet,
  'GET quiz:grading-preset': grading.presetRef,
  'POST quiz:grading-preset': grading.createPreset,
  'PATCH quiz:grading-preset': grading.updatePreset,
  'GET integration': integrations.integrationRef,
  'POST integration': integrations.createIntegration,
  'PATCH integration': integrations.updateIntegration,
  'POST organization:webhook': webhooks.createWebhook,
  'GET tag': tags.tagRef,
  'GET exam:journey:graph': journeys.graphRef,
  'PUT exam:journey:graph': journeys.saveGraph,
};

/** The keywords taken from zod's output: constraints only, never a type of its own. */
const DETAIL = ['pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'enum', 'minItems', 'maxItems'] as const;

const converted = new Map<z.ZodObject, Record<string, JsonSchema>>();

/** zod's own JSON Schema of the parsed (output) side, by contract argument name. */
export function zodProperties(schema: z.ZodObject): Record<string, JsonSchema> {
  let properties = converted.get(schema);
  if (!properties) {
    const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchema> };
    properties = Object.fromEntries(Object.entries(json.properties ?? {}).map(([name, s]) => [toContractName(name), s]));
    converted.set(schema, properties);
  }
  return properties;
}

/**
 * Constraints zod knows for one argument that `base` (from the catalogue) lacks, when both agree on
 * the JSON type; the catalogue's own words win.
 */
export function zodDetail(operation: Pick<Operation, 'method' | 'endpoint'>, argument: string, base: JsonSchema): JsonSchema {
  const schema = argumentSchemas[`${operation.method} ${operation.endpoint}`];
  const property = schema && zodProperties(schema)[argument];
  if (!property || property.type === undefined || property.type !== base.type) return {};
  const detail: JsonSchema = {};
  for (const key of DETAIL) if (property[key] !== undefined && base[key] === undefined) detail[key] = property[key];
  return detail;
}
