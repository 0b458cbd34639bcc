import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';
import type { Context } from '../../context.ts';
import type { ContentType } from '../../auth/permissions.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer S> ? S : never;

/** The GraphQL types of the content types, by Prisma model (exams have no records yet). */
export const contentModels = {
  Class: 'class',
  Course: 'course',
  Event: 'event',
  Integration: 'integration',
  Organization: 'organization',
  QuizSet: 'quiz',
  Scorm: 'scorm',
  Tag: 'tag',
  Video: 'video',
} as const satisfies Record<string, ContentType>;

/**
 * Adds a list field to every content type (or those `types` keeps), loaded by a DataLoader per
 * type and request keyed by the content's id: the lists of every parent load together, so a page
 * costs the same statements whatever its length.
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
  for (const [model, type] of Object.entries(contentModels) as [keyof typeof contentModels, ContentType][]) {
    if (options.types && !options.types.includes(type as K)) continue;
    // Every model here has an `id`; typing the loop as one of them keeps `c.id` checked.
    builder.prismaObjectFields(model as 'Class', (t) => ({
      [name]: t.loadableList({
        type: options.type,
        description: options.description,
        load: async (ids: string[], ctx) => {
          const found = await options.load(ctx, type as K, ids);
          return ids.map((id) => found.get(id) ?? []);
        },
        resolve: (c) => c.id,
      }),
    }));
  }
}
