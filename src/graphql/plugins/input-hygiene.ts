import { GraphQLError, Kind, BREAK, parse, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema, type ValueNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { CONTROL_CHARACTER_RULE, findInputProblem, printable, textProblem } from '../../services/input-rules.ts';
import { CREDENTIAL_ARGUMENTS } from '../../auth/authenticate.ts';
import { cursorError, pagingUsage, pagingVariableError, type PagingUsage } from './paging-arguments.ts';

/** Well above the largest file of operations the dashboard sends (schema/operations: 925); GRAPHQL_MAX_TOKENS. */
export const MAX_TOKENS = 1500;

/**
 * Bad input is refused before execution, as BAD_USER_INPUT naming the argument, instead of
 * failing inside a resolver or the database as an internal error:
 * - text with control characters (tab, line feed and carriage return aside) in URL parameters, in
 *   literals and in variables, and variables nested too deeply (credentials aside: one with such
 *   text cannot be valid, and authenticate refuses it like any wrong credential, 401);
 * - page sizes of connections out of range (paging-arguments.ts), and cursors Pothos cannot read;
 * - documents of more than `maxTokens` tokens (GRAPHQL_MAX_TOKENS, MAX_TOKENS by default), refused
 *   by graphql's own parser option, as GRAPHQL_PARSE_FAILED: the parser recurses once per nesting
 *   level and a few thousand nested literals exhaust the call stack. (graphql-armor's token limit
 *   is the same check; graphql's own is kept.)
 *
 * Each check runs where its input is known: URL parameters as soon as the request is parsed, the
 * document's literals with its validation (yoga caches that result per document, which is right for
 * what depends on the document alone), and variables just before execution, when the document
 * tells which argument each one feeds.
 */
export function useInputHygiene(maxTokens = MAX_TOKENS): Plugin {
  return {
    onParams({ request, setResult }) {
      const error = urlParameterError(request);
      if (error) setResult({ errors: [error] });
    },
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens }));
    },
    onValidate({ params: { schema, documentAST }, setResult }) {
      const { literal } = examine(schema, documentAST);
      if (literal) setResult([literal]);
    },
  };
}

/** Variables with bad text, nested too deeply, or paging out of range: checked when the operation executes (execution.ts). */
export function variablesError({ schema, document, variableValues }: Pick<ExecutionArgs, 'schema' | 'document' | 'variableValues'>): GraphQLError | undefined {
  const { paging, fed } = examine(schema, document);
  return variableError(variableValues, fed) ?? pagingVariableError(paging, variableValues);
}

/** The result with cursors Pothos could not read reported as bad input (paging-arguments.ts). */
export function withCursorErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors) return result;
  const errors = result.errors.map((e) => cursorError(e) ?? e);
  return errors.some((e, i) => e !== result.errors![i]) ? { ...result, errors } : result;
}

/** What the checks need of a document, worked out once per document (yoga caches parsed documents, and so does the fast path). */
const documents = new WeakMap<DocumentNode, Examined>();

function examine(schema: GraphQLSchema, document: DocumentNode): Examined {
  let found = documents.get(document);
  if (!found) {
    const paging = pagingUsage(schema, document);
    found = { literal: literalError(document) ?? paging.literal, paging, fed: fedArguments(document) };
    documents.set(document, found);
  }
  return found;
}

interface Examined {
  literal?: GraphQLError;
  paging: PagingUsage;
  /** The argument (or input field) each variable is given to. */
  fed: Map<string, string>;
}

function badInput(argument: string, node?: ValueNode, rule = CONTROL_CHARACTER_RULE): GraphQLError {
  return new GraphQLError(`Argument '${argument}': ${rule}`, { nodes: node, extensions: { code: 'BAD_USER_INPUT', argument } });
}

/** The URL parameters but the credentials (`app`, `secret`, `assume`: authenticate's). */
export function urlParameterError(request: { url: string }): GraphQLError | undefined {
  if (!request.url.includes('?')) return undefined;
  for (const [key, value] of new URL(request.url).searchParams) {
    const rule = textProblem(key) ?? (CREDENTIAL_ARGUMENTS.has(key) ? undefined : textProblem(value));
    if (rule) return badInput(printable(key), undefined, rule);
  }
  return undefined;
}

/**
 * A problem inside a variable (input-rules.ts) is named after the innermost input field holding
 * it, or else the argument the variable is given to; a key after the object holding it.
 */
function variableError(variables: unknown, fed: Map<string, string>): GraphQLError | undefined {
  const found = findInputProblem(variables);
  if (!found) return undefined;
  const names = found.path.filter((p): p is string => typeof p === 'string');
  const fields = found.inKey ? names.slice(1, -1) : names.slice(1);
  const variable = names[0] ?? 'variables';
  return badInput(printable(fields.at(-1) ?? fed.get(variable) ?? variable), undefined, found.rule);
}

/** Which argument or input field each variable of the document is given to (the first use). */
function fedArguments(document: DocumentNode): Map<string, string> {
  const fed = new Map<string, string>();
  const walk = (value: ValueNode, name: string): void => {
    if (value.kind === Kind.VARIABLE && !fed.has(value.name.value)) fed.set(value.name.value, name);
    else if (value.kind === Kind.LIST) value.values.forEach((v) => walk(v, name));
    else if (value.kind === Kind.OBJECT) value.fields.forEach((f) => walk(f.value, f.name.value));
  };
  visit(document, { Argument: (node) => walk(node.value, node.name.value) });
  return fed;
}

/** Text in a literal value, named after the innermost input field holding it. */
function valueError(value: ValueNode, name: string): GraphQLError | undefined {
  switch (value.kind) {
    case Kind.STRING:
    {
      const rule = textProblem(value.value);
      return rule ? badInput(name, value, rule) : undefined;
    }
    case Kind.LIST:
      return value.values.reduce<GraphQLError | undefined>((found, v) => found ?? valueError(v, name), undefined);
    case Kind.OBJECT:
      return value.fields.reduce<GraphQLError | undefined>((found, f) => found ?? valueError(f.value, f.name.value), undefined);
    default:
      return undefined;
  }
}

/** Literals of the document: argument values and the defaults of variables. */
function literalError(document: DocumentNode): GraphQLError | undefined {
  let error: GraphQLError | undefined;
  visit(document, {
    Argument(node) {
      error = valueError(node.value, node.name.value);
      return error ? BREAK : undefined;
    },
    VariableDefinition(node) {
      error = node.defaultValue && valueError(node.defaultValue, node.variable.name.value);
      return error ? BREAK : undefined;
    },
  });
  return error;
}
