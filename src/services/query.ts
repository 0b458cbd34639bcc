/**
 * What a GraphQL field asks of the records a service returns (Pothos' `query`): the `include` or
 * `select` its nested selection needs, and for a connection the page (`take`, `skip`, `cursor`).
 * The service spreads it into its own Prisma call, which keeps the service's `where` and
 * `orderBy`, so nested fields load in the same round of SQL and the rule stays the service's.
 */
export type Selection<Args> = Pick<Args, Extract<keyof Args, 'include' | 'select'>>;
export type Page<Args> = Pick<Args, Extract<keyof Args, 'include' | 'select' | 'take' | 'skip' | 'cursor'>>;

/** Whether a selection asks for more than the record's own columns (relations, counts). */
export const selectsRelations = (query: { include?: object | null; select?: object | null }) =>
  Object.keys(query.include ?? {}).length > 0 || query.select !== undefined;

/** A selection for the same record reached as a relation of another (`include: { record: … }`). */
export const asRelation = <Q extends object>(query: Q): Q | true => (Object.keys(query).length > 0 ? query : true);
