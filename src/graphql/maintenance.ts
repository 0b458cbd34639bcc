import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';

/** The root fields an instance administrator may call during maintenance: the ones that end it. */
const ENDS_MAINTENANCE = new Set(['setMaintenance']);

/**
 * Whether the operation of these parameters is a mutation made only of fields that end
 * maintenance. Asked only while the instance is in maintenance, so parsing again costs nothing
 * that matters.
 */
export function endsMaintenance(params: { query?: unknown; operationName?: unknown } | undefined): boolean {
  if (typeof params?.query !== 'string') return false;
  let document: DocumentNode;
  try {
    document = parse(params.query);
  } catch {
    return false;
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = typeof params.operationName === 'string' ? operations.find((o) => o.name?.value === params.operationName) : operations.length === 1 ? operations[0] : undefined;
  return (
    operation?.operation === 'mutation' &&
    operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && ENDS_MAINTENANCE.has(s.name.value))
  );
}
