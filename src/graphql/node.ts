import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Context } from '../context.ts';
import { builder } from './builder.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/**
 * Makes a Prisma object type a Node whose lookup is the service's: node(id) and nodes(ids) answer
 * what `load` returns, null for a record that is missing or not the caller's to read, so a node
 * lookup applies exactly the rule of the list that holds the record. `load` receives the
 * selection below the node (Pothos' `query`) to spread into its own Prisma call.
 */
export function serviceNode<Shape extends { id: string }, Query>(
  ref: ObjectRef<Types, Shape>,
  options: { description: string; load: (ctx: Context, id: string, query: Query) => Promise<Shape | null> },
): void {
  builder.nodeRef<Shape, string, ObjectRef<Types, Shape>>(ref, {
    id: { description: options.description, resolve: (record) => record.id },
    loadWithoutCache: async (id, ctx, info) => {
      const query = await queryFromInfo({ context: ctx, info, typeName: ref.name, awaitSelections: true });
      return options.load(ctx, id, query as Query);
    },
  });
}
