import { COMMON_ARGUMENTS, NOT_SHOWN_ENDPOINTS, operations, type Operation } from '../rest/operations.ts';
import { routes } from '../rest/routes.ts';
import { argumentSchema, argumentsSchema, isCustomFieldPattern, operationId, outputObject, type JsonSchema } from '../rest/json-schema.ts';
import { ERROR_CODES, codesWithStatus, errorCatalogueMarkdown } from '../error-codes.ts';
import { introductions, proseOf } from '../rest/operations/prose/index.ts';
import { curlExample } from './curl-example.ts';
import { guideMarkdown } from './guide.ts';

/**
 * The OpenAPI 3.1 description of the REST/RPC contract at /api/openapi.json, generated from the
 * operation table (rest/operations.ts), whose arguments come from the zod schemas the services
 * parse. Nothing here is written per operation: an operation added to the table appears by itself.
 */

/** Every code a REST call can answer with, so a generated example is a real code. */
const REST_CODES = ERROR_CODES.filter((e) => e.only !== 'GraphQL' && e.only !== 'pages').map((e) => e.code);

const STATUS_TEXT: Record<number, string> = {
  401: 'Missing or invalid credentials, or an invalid assume token.',
  403: 'An argument is missing or breaks a rule, or the caller may not do this.',
  406: 'Unknown version, a feature that is off, or a configured limit reached.',
  413: 'The request body is too large.',
  429: 'Rate limit exceeded; retry after Retry-After seconds.',
  500: 'Unexpected error.',
  501: 'Part of the contract, not built yet.',
  503: 'Maintenance; retry after Retry-After seconds.',
};

/** The code a refusal of this status shows as its example: the catalogue's most common one, not an invented string. */
const EXAMPLE_CODE: Record<number, string> = { 401: 'INVALID_CREDENTIALS', 403: 'NOT_FOUND', 406: 'FEATURE_DISABLED', 501: 'NOT_IMPLEMENTED', 503: 'MAINTENANCE' };

const errorResponse = (status: number): JsonSchema => {
  const codes = codesWithStatus(status).filter((e) => e.only !== 'GraphQL' && e.only !== 'pages');
  const example = codes.find((e) => e.code === EXAMPLE_CODE[status]) ?? codes[0]!;
  const message = example.meaning;
  return {
    description: `${STATUS_TEXT[status]} Codes: ${codes.map((e) => e.code).join(', ')}.`,
    headers: {
      'Service-API-Error': { $ref: '#/components/headers/ServiceApiError' },
      'Service-API-Error-Code': { $ref: '#/components/headers/ServiceApiErrorCode' },
      ...(status === 429 || status === 503 ? { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } } : {}),
    },
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        example: { error: { status, code: example.code, message } },
      },
    },
  };
};

/** Statuses a call can answer besides 200. */
function errorStatuses(operation: Operation, implemented: boolean): number[] {
  if (!implemented) return [401, 501];
  const statuses = [401, 403, 406, 429, 500, 503];
  if (operation.method !== 'GET') statuses.splice(3, 0, 413);
  return statuses;
}

function describe(operation: Operation, implemented: boolean): string {
  const prose = proseOf(operation);
  const lines = prose ? [prose.description] : [];
  if (!implemented) lines.push('**Not implemented yet**: answers 501.');
  if (operation.notShown?.length) lines.push(`The contract does not define its ${operation.notShown.join(' or ')}; this service's answer is described here.`);
  if (!operation.output) lines.push('The contract defines no output fields for it.');
  const custom = operation.arguments.find(isCustomFieldPattern);
  if (custom && operation.method === 'GET') lines.push(`\`${custom.name}\`: ${custom.note ?? 'one argument per custom field'}.`);
  if (prose?.notes) lines.push(prose.notes);
  if (prose) lines.push(`**Example**\n\n\`\`\`sh\n${curlExample(operation.method, operation.endpoint, prose.example)}\n\`\`\``);
  return lines.join('\n\n');
}

/** A form carries text: lists and objects of an example travel as JSON text, which the contract accepts. */
const formExample = (example: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(example).map(([name, value]) => [name, value !== null && typeof value === 'object' ? JSON.stringify(value) : value]));

/** GET takes its arguments from the query string; the other methods from the body (and the query string too). */
function operationObject(operation: Operation): JsonSchema {
  const implemented = routes[`${operation.method} ${operation.endpoint}`] !== undefined;
  const example = proseOf(operation)?.example ?? {};
  const assume = COMMON_ARGUMENTS.find((a) => a.name === 'assume')!;
  const parameters: JsonSchema[] = [];
  if (operation.method === 'GET') {
    for (const argument of operation.arguments) {
      if (isCustomFieldPattern(argument)) continue;
      const schema = argumentSchema(argument);
      const { description, ...rest } = schema;
      parameters.push({
        name: argument.name,
        in: 'query',
        required: argument.required,
        schema: rest,
        ...(description ? { description } : {}),
        ...(argument.name in example ? { example: example[argument.name] } : {}),
      });
    }
  }
  parameters.push({ name: 'assume', in: 'query', required: false, schema: { type: 'string' }, description: assume.note });
  const body = argumentsSchema(operation);
  const hasFile = operation.arguments.some((a) => a.type === 'file' || (Array.isArray(a.type) && a.type.includes('file')));
  const responses: Record<string, JsonSchema> = {
    200: {
      description: 'Success.',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
      content: { 'application/json': { schema: operation.output ? outputObject(operation.output) : { type: 'object' } } },
    },
  };
  for (const status of errorStatuses(operation, implemented)) responses[status] = { $ref: `#/components/responses/Error${status}` };
  return {
    operationId: operationId(operation),
    summary: proseOf(operation)?.summary ?? `${operation.method} ${operation.endpoint}`,
    description: describe(operation, implemented),
    tags: [operation.section],
    parameters,
    ...(operation.method === 'GET'
      ? {}
      : {
          requestBody: {
            required: operation.arguments.some((a) => a.required),
            content: {
              // JSON first: the reference page opens a request body on its first type, and shows its example.
              'application/json': { schema: body, example },
              'application/x-www-form-urlencoded': { schema: body, example: formExample(example) },
              ...(hasFile ? { 'multipart/form-data': { schema: body } } : {}),
            },
          },
        }),
    responses,
    ...(implemented ? {} : { 'x-not-implemented': true }),
  };
}

const INTRODUCTION = `The legacy REST/RPC contract of the learning platform: every operation is \`METHOD /api/v1/<endpoint>\`.
The same service layer answers GraphQL at \`/graphql\` and the MCP tools at \`/mcp\`.

## Credentials

Three equivalent forms (one is required on every call):

1. \`Authorization: Bearer <app>:<secret>\`, or \`Authorization: Bearer <base64(app:secret)>\`;
2. the headers \`Service-API-App\` and \`Service-API-Secret\`;
3. the arguments \`app\` and \`secret\` (query string or body).

Add \`assume\` (a token of \`POST user:assume\`) to act as another user.

## Arguments

GET calls take their arguments from the query string; the other methods from a urlencoded or multipart
form, or a JSON object (and from the query string as well). Form values are text; lists are comma-separated
text or JSON arrays. The version is chosen by the path (\`/api/v1/...\`, or \`/api/...\` for the default);
1 is the only version.

## Answers

Output is JSON with the field names of the contract. Writes for which the contract defines no output answer
the identification strings involved and \`"success": true\`. Each area below opens with the rules its
operations share; each operation says what it does, its rules and defaults, and shows an example call.

## Errors

A refused call answers with a status, the headers \`Service-API-Error\` (message) and
\`Service-API-Error-Code\` (code), and the body \`{"error": {"status", "code", "message", "argument"?}}\`
(\`JOURNEY_INVALID\` adds \`issues\`, \`problems\`, \`exact\` and \`ignored\`).

${errorCatalogueMarkdown()}`;

export function buildOpenApi(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of operations) {
    const path = `/${operation.endpoint}`;
    (paths[path] ??= {})[operation.method.toLowerCase()] = operationObject(operation);
  }
  const sections = [...new Set(operations.map((o) => o.section))];
  const responses: Record<string, JsonSchema> = {};
  for (const status of [401, 403, 406, 413, 429, 500, 501, 503]) responses[`Error${status}`] = errorResponse(status);
  return {
    openapi: '3.1.1',
    info: {
      title: 'Learning platform REST/RPC API',
      version: '1',
      // The guide follows the introduction: Swagger UI shows both above the operations.
      description: `${INTRODUCTION}\n\n${guideMarkdown()}`,
    },
    servers: [{ url: '/api/v1', description: 'this service, version 1' }],
    tags: sections.map((name) => ({ name, ...(introductions[name] ? { description: introductions[name] } : {}) })),
    security: [{ bearer: [] }, { appHeader: [], secretHeader: [] }, { appArgument: [], secretArgument: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <app>:<secret>, or Bearer <base64(app:secret)>' },
        appHeader: { type: 'apiKey', in: 'header', name: 'Service-API-App' },
        secretHeader: { type: 'apiKey', in: 'header', name: 'Service-API-Secret' },
        appArgument: { type: 'apiKey', in: 'query', name: 'app', description: 'or a body argument' },
        secretArgument: { type: 'apiKey', in: 'query', name: 'secret', description: 'or a body argument' },
      },
      headers: {
        ServiceApiError: { description: 'What went wrong', schema: { type: 'string' } },
        ServiceApiErrorCode: { description: 'The error code (see the catalogue)', schema: { type: 'string', pattern: '^[A-Z0-9_]+$' }, example: 'NOT_FOUND' },
        RequestId: { description: 'The request id (also in the logs)', schema: { type: 'string' } },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['status', 'code', 'message'],
              properties: {
                status: { type: 'integer' },
                code: { type: 'string', pattern: '^[A-Z0-9_]+$', enum: REST_CODES, examples: ['NOT_FOUND'] },
                message: { type: 'string' },
                argument: { type: 'string', description: 'the argument at fault' },
                issues: {
                  type: 'array',
                  description: 'JOURNEY_INVALID only: the first 100 issues of the journey graph, errors first (level, code, node, output, message)',
                  items: {
                    type: 'object',
                    required: ['level', 'code', 'node', 'output', 'message'],
                    properties: {
                      level: { enum: ['error', 'warning'] },
                      code: { type: 'string' },
                      node: { type: ['string', 'null'] },
                      output: { type: ['string', 'null'] },
                      message: { type: 'string' },
                    },
                  },
                },
                problems: { type: 'integer', description: 'JOURNEY_INVALID only: how many error-level problems were found' },
                exact: { type: 'boolean', description: 'JOURNEY_INVALID only: false when validation stopped early (a limit, or over 100 problems): there are at least problems' },
                ignored: { type: 'array', items: { type: 'string' }, description: 'JOURNEY_INVALID only, when any: the first 100 unknown fields of the graph' },
              },
            },
          },
        },
      },
      responses,
    },
    'x-not-shown-endpoints': [...NOT_SHOWN_ENDPOINTS],
  };
}

let cached: string | undefined;

/** The description as served: built once, it depends on the code alone. */
export function openApiJson(): string {
  return (cached ??= JSON.stringify(buildOpenApi()));
}
