import {
  GraphQLError,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';

/**
 * Every connection takes `first`/`last` from 0 to this; larger pages are cut to the connection's
 * own page size anyway, so a larger number is a mistake, as is a negative one (which Pothos would
 * otherwise refuse halfway through execution, as an internal error).
 */
export const MAX_PAGE_ARGUMENT = 1000;

const PAGE_SIZE_ARGUMENTS = new Set(['first', 'last']);
const CURSOR_ARGUMENTS = ['after', 'before'];

/** Relay connection fields, whichever plugin built them: they take all four paging arguments. */
function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  const names = new Set(field.args.map((a) => a.name));
  return ['first', 'last', 'before', 'after'].every((n) => names.has(n));
}

export function pagingError(argument: string, node?: ArgumentNode): GraphQLError {
  return new GraphQLError(`Argument '${argument}': must be a whole number from 0 to ${MAX_PAGE_ARGUMENT}`, {
    nodes: node,
    extensions: { code: 'BAD_USER_INPUT', argument },
  });
}

const outOfRange = (n: number) => !Number.isInteger(n) || n < 0 || n > MAX_PAGE_ARGUMENT;

export interface PagingUsage {
  /** A page size written into the document that is out of range. */
  literal?: GraphQLError;
  /** Variables that give a page size, with the argument they feed and their default. */
  variables: { variable: string; argument: string; fallback?: number }[];
}

/** What a document asks of connections' page sizes; it depends on the document alone. */
export function pagingUsage(schema: GraphQLSchema, document: DocumentNode): PagingUsage {
  const typeInfo = new TypeInfo(schema);
  const defaults = new Map<string, number>();
  const usage: PagingUsage = { variables: [] };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      VariableDefinition(node) {
        if (node.defaultValue?.kind === Kind.INT) defaults.set(node.variable.name.value, Number(node.defaultValue.value));
      },
      Argument(node) {
        const field = typeInfo.getFieldDef();
        const argument = node.name.value;
        if (typeInfo.getDirective() || !field || !PAGE_SIZE_ARGUMENTS.has(argument) || !isConnection(field)) return;
        if (node.value.kind === Kind.INT && outOfRange(Number(node.value.value))) usage.literal ??= pagingError(argument, node);
        if (node.value.kind === Kind.VARIABLE) usage.variables.push({ variable: node.value.name.value, argument });
      },
    }),
  );
  for (const v of usage.variables) if (defaults.has(v.variable)) v.fallback = defaults.get(v.variable);
  return usage;
}

/** The first page size given by a variable that is out of range; other types are graphql's to refuse. */
export function pagingVariableError(usage: PagingUsage, variables: Record<string, unknown> | null | undefined): GraphQLError | undefined {
  for (const { variable, argument, fallback } of usage.variables) {
    const value = variables && variable in variables ? variables[variable] : fallback;
    if (typeof value === 'number' && outOfRange(value)) return pagingError(argument);
  }
  return undefined;
}

/**
 * Pothos refuses a cursor it cannot decode, or a cursor combined with a page size it does not
 * support, with a validation error raised inside the resolver; that is the client's mistake, not
 * an internal error. Recognised by Pothos's own messages, naming the cursor argument the field got.
 */
export function cursorError(error: GraphQLError): GraphQLError | undefined {
  const original = error.originalError;
  if (original?.name !== 'PothosValidationError') return undefined;
  if (!/cursor|base64|^Arguments "(before|after)"/i.test(original.message)) return undefined;
  const field = error.nodes?.[0];
  const given = field?.kind === Kind.FIELD ? field.arguments?.map((a) => a.name.value) : [];
  const argument = CURSOR_ARGUMENTS.find((name) => given?.includes(name)) ?? 'after';
  const rule = /^Arguments "/.test(original.message) ? original.message : `is not a cursor of this list (${original.message})`;
  return new GraphQLError(`Argument '${argument}': ${rule}`, {
    nodes: error.nodes,
    path: error.path,
    extensions: { code: 'BAD_USER_INPUT', argument },
  });
}
