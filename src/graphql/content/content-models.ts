import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';
import type { Context } from '../../context.ts';
import { contentTypeEntry, contentTypes, type ContentType } from '../../services/content/content-types.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer S> ? S : never;

/**
 * Adds a list field to the GraphQL type of every content type (or those `types` keeps), as the
 * content registration names it, loaded by a DataLoader per type and request keyed by the
 * content's id: the lists of every parent load together, so a page costs the same statements
 * whatever its length.
 */
export function addContentListField<T, K extends ContentType>(
  name: string,
  options: {
    type: ObjectRef<Types, T>;
    description: string;
    types?: readonly K[];
    load(ctx: Context, type: K, ids: readonly string[]): Promise<Map<string, T[]>>;
  },
): void {
  for (const type of (options.types ?? contentTypes) as K[]) {
    const model = contentTypeEntry(type).graphql;
    if (model === null) continue;
    // Every content model has an `id`; typing the loop as one of them keeps `c.id` checked.
    builder.prismaObjectFields(model as 'Class', (t) => ({
      [name]: t.loadableList({
        type: options.type,
        description: options.description,
        load: async (ids: string[], ctx) => {
          const found = await options.load(ctx, type, ids);
          return ids.map((id) => found.get(id) ?? []);
        },
        resolve: (c) => c.id,
      }),
    }));
  }
}
