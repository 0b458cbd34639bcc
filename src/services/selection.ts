import type { Prisma } from '../generated/prisma/client.ts';

type FindMany<M extends Prisma.ModelName> = Prisma.TypeMap['model'][M]['operations']['findMany']['args'];
type Arg<M extends Prisma.ModelName, K extends string> = FindMany<M> extends { [P in K]?: infer V } ? V : never;

/**
 * The relations a GraphQL resolver asks for with the records (Pothos' `query`). A service spreads
 * it into the Prisma call that returns its records, so a nested selection costs one statement per
 * level, not one per record. The REST face passes none.
 */
export interface Selection<M extends Prisma.ModelName> {
  include?: Arg<M, 'include'>;
  select?: Arg<M, 'select'>;
}

/** A page of a GraphQL connection (Pothos' cursor window): it replaces the contract's `limit`/`page`. */
export interface Window<M extends Prisma.ModelName> extends Selection<M> {
  cursor?: Arg<M, 'cursor'>;
  take?: number;
  skip?: number;
}

/** Whether a selection asks for more than the record's own columns (relations, counts). */
export const selectsRelations = (query: { include?: object | null; select?: object | null }) =>
  Object.keys(query.include ?? {}).length > 0 || query.select !== undefined;

/** A selection for the same record reached as a relation of another (`include: { record: … }`). */
export const asRelation = <Q extends object>(query: Q): Q | true => (Object.keys(query).length > 0 ? query : true);
