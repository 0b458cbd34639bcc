import { builder } from '../builder.ts';
import { addContentListField } from '../content/content-models.ts';
import * as tags from '../../services/tags/tags.service.ts';
import type { ContentRecord } from '../../services/content/records.ts';
import { taggableTypes, type TaggableType } from '../../services/content/content-types.ts';

export const TaggableContentType = builder.enumType('TaggableContentType', {
  values: taggableTypes,
  description: 'Content types that carry tags, by their contract name (the `content.type` of the REST records).',
});

export const TaggedContentType = builder.objectRef<ContentRecord>('TaggedContent').implement({
  description: 'A piece of content a tag is attached to.',
  fields: (t) => ({
    type: t.field({ type: TaggableContentType, description: 'The content type.', resolve: (c) => c.type as TaggableType }),
    id: t.exposeID('id', { description: 'The identification string of the content.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier, or null.' }),
    title: t.exposeString('title', { description: 'Title.' }),
  }),
});

/** A tag. Readable with view permission on it: its owner, rules, and members of its organization with a content level. */
export const TagType = builder.prismaNode('Tag', {
  id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
  // node(id) answers null, not an error, for a tag that is missing or not the caller's to view.
  nullable: true,
  description: 'A label with a colour and an icon, attached to content of any taggable type.',
  findUnique: async (id, ctx) => ({ id, AND: [await tags.viewableTagsWhere(ctx)] }),
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier (1-64 characters).' }),
    color: t.exposeString('color', { description: 'HEX colour, lowercase #rrggbb.' }),
    icon: t.exposeString('icon', { nullable: true, description: 'Class names of an icon font, such as `fa-solid fa-star`; null when unset.' }),
    organization: t.relation('organization', {
      nullable: true,
      description: 'The organization whose members see the tag through their content level; null for a personal tag.',
    }),
    owner: t.relation('owner', { description: 'The user who created the tag; holds admin on it.' }),
    taggedContent: t.loadableList({
      type: TaggedContentType,
      description: 'The content the tag is attached to that the caller may view, by type then title.',
      load: async (ids: string[], ctx) => {
        const found = await tags.taggedContent(ctx, ids);
        return ids.map((id) => found.get(id)!);
      },
      resolve: (tag) => tag.id,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last changed.' }),
  }),
});

builder.queryFields((t) => ({
  tags: t.prismaConnection({
    type: 'Tag',
    cursor: 'id',
    description: 'Tags the caller may view, by title.',
    args: { search: t.arg.string({ description: 'Matches the title or the external identifier.' }) },
    resolve: (query, _root, args, ctx) => tags.listTags(ctx, { search: args.search ?? undefined }, query),
  }),
  tag: t.prismaField({
    type: 'Tag',
    description: 'One tag by identification string (NOT_FOUND or PERMISSION_DENIED otherwise).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => tags.getTag(ctx, { tag: args.id }, query),
  }),
}));

addContentListField('tags', {
  type: TagType,
  description: 'Tags attached to it that the caller may view, by title.',
  types: taggableTypes,
  load: (ctx, type, ids) => tags.tagsOfContent(ctx, type, ids),
});
