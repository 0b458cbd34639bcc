import type { Context } from '../../context.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { OrganizationRole } from '../../auth/organization-policy.ts';
import { eventLevels, levels, type Level } from '../../auth/levels.ts';
import { PermissionError } from '../../errors.ts';
import { replacementKeys } from '../integrations/keys.ts';

/**
 * One registration per content type: everything the permission policy, transfer, tags, the
 * GraphQL lists and the contract catalogue need to know about a type. A new content type is one
 * entry here plus its own domain code.
 */
export interface ContentTypeEntry {
  /** Its permission levels, lowest first. */
  levels: readonly Level[];
  /**
   * The Prisma model of its records: a table with `id`, `externalId`, `title`, `ownerId` and,
   * unless it is an organization, `organizationId`. Null while the type has no records: then
   * every identification string of the type is unknown (403 NOT_FOUND).
   */
  model: Prisma.ModelName | null;
  /** What a row must match to exist for readers; rows that do not are gone (archived). */
  live?: Record<string, unknown>;
  /**
   * Whose memberships count on it: the organization in its `organizationId` column, or its own
   * (an organization is content of itself).
   */
  organization: 'column' | 'self';
  /** An organization role that, with every role above it, holds `level` on the type whatever the membership's content level. */
  roleLevel?: { role: OrganizationRole; level: Level };
  /** It takes permission rules and transfers (`<type>:permission`, `<type>:transfer`). */
  permissions: boolean;
  /** It takes tags (`<type>:tags`, `<type>:tag`). */
  tags: boolean;
  /** The Pothos Prisma object of its records, which the GraphQL side extends with per-content lists; null without one. */
  graphql: Prisma.ModelName | null;
  /** Makes `ownerId` the owner inside the transfer's transaction; by default only the owner column changes. */
  changeOwner?(ctx: Context, tx: Prisma.TransactionClient, id: string, ownerId: string): Promise<unknown>;
}

const defaults = { levels, organization: 'column', permissions: true, tags: true } as const;
type Given = Partial<ContentTypeEntry> & Pick<ContentTypeEntry, 'model'>;
type Entry<E extends Given> = Omit<typeof defaults, keyof E> & { graphql: E['model'] } & E;

/** An entry: the defaults (the common scale, an `organizationId` column, rules and tags), what it gives, and a GraphQL type named after its model. */
function entry<const E extends Given>(given: E): Entry<E> {
  return { ...defaults, graphql: given.model, ...given } as Entry<E>;
}

export const contentTypeRegistry = {
  // An organization's teachers run its classes.
  class: entry({ model: 'Class', roleLevel: { role: 'teacher', level: 'modify' } }),
  course: entry({ model: 'Course' }),
  event: entry({ model: 'Event', levels: eventLevels }),
  // An archived exam (deleted while it had results) is gone for every reader.
  exam: entry({ model: 'Exam', live: { archived: false } }),
  integration: entry({
    model: 'Integration',
    // The integration acts as its owner, and whoever knew its secret would act as the new one:
    // the secret (or LTI 1.3 key pair) is replaced, and the integration making the call is kept.
    changeOwner: async (ctx, tx, id, ownerId) => {
      if (id === ctx.viewer.integration.id) throw new PermissionError('You cannot transfer the integration making this call');
      const integration = await tx.integration.findUniqueOrThrow({ where: { id } });
      return tx.integration.update({ where: { id }, data: { ownerId, ...replacementKeys(ctx, integration) } });
    },
  }),
  organization: entry({ model: 'Organization', organization: 'self' }),
  // An archived Quiz set is gone for every reader.
  quiz: entry({ model: 'QuizSet', live: { archived: false } }),
  scorm: entry({ model: 'Scorm' }),
  tag: entry({ model: 'Tag', tags: false }),
  video: entry({ model: 'Video' }),
};

type Registry = typeof contentTypeRegistry;

/** A content type by its contract name: path prefix, parameter and `content.type` of records. */
export type ContentType = keyof Registry;
export type TaggableType = { [K in ContentType]: Registry[K]['tags'] extends false ? never : K }[ContentType];

export const contentTypes = Object.keys(contentTypeRegistry) as ContentType[];
export const permissionTypes = contentTypes.filter((type) => contentTypeRegistry[type].permissions);
export const taggableTypes = contentTypes.filter((type): type is TaggableType => contentTypeRegistry[type].tags);

export const contentTypeEntry = (type: ContentType): ContentTypeEntry => contentTypeRegistry[type];

/** Whether the type has records yet (an unbuilt one knows no identification string). */
export const hasRecords = (type: ContentType) => contentTypeEntry(type).model !== null;
