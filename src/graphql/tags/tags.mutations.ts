import { builder } from '../builder.ts';
import * as tags from '../../services/tags/tags.service.ts';
import type { TaggableType } from '../../services/content/content-types.ts';
import { TaggableContentType, TaggedContentType, TagType } from './tag.type.ts';

const CreateTagInput = builder.inputType('CreateTagInput', {
  description: 'A new tag owned by the caller.',
  fields: (t) => ({
    title: t.string({ required: true, description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    color: t.string({ required: true, description: 'HEX colour, #rgb or #rrggbb (stored as lowercase #rrggbb).' }),
    icon: t.string({ description: 'Class names of an icon font, such as `fa-solid fa-star` (1-8 names, 1-255 characters).' }),
    organization: t.id({ description: "An organization whose content the caller may change (content level modify or higher); its members then see the tag through their content level." }),
  }),
});

const UpdateTagInput = builder.inputType('UpdateTagInput', {
  description: 'Changes to a tag the caller may modify: only given fields change; null clears an optional one (organization: null makes it personal).',
  fields: (t) => ({
    tag: t.id({ required: true, description: 'The tag to change.' }),
    title: t.string({ description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    color: t.string({ description: 'HEX colour, #rgb or #rrggbb.' }),
    icon: t.string({ description: 'Class names of an icon font.' }),
    organization: t.id({ description: 'An organization whose content the caller may change.' }),
  }),
});

/** The answer of tagContent and untagContent. */
const ContentTagChangeType = builder.objectRef<tags.ContentTagResult & { success: boolean }>('ContentTagChange').implement({
  description: 'A tag attached to or detached from a piece of content.',
  fields: (t) => ({
    tag: t.field({ type: TagType, description: 'The tag.', resolve: (r) => r.tag }),
    content: t.field({ type: TaggedContentType, description: 'The content.', resolve: (r) => r.content }),
    success: t.exposeBoolean('success', {
      description: 'Attaching: always true (attaching an attached tag changes nothing). Detaching: false when the tag was not attached.',
    }),
  }),
});

type ContentTagArgs = { contentType: TaggableType; content: string; tag: string };
/** The service arguments: the content parameter is named after its type, as in REST. */
const contentTagInput = (args: ContentTagArgs) => ({ [args.contentType]: args.content, tag: args.tag });

builder.mutationFields((t) => {
  const contentTagArgDefs = {
    contentType: t.arg({ type: TaggableContentType, required: true, description: 'The type of the content.' }),
    content: t.arg.id({ required: true, description: 'The identification string of the content.' }),
    tag: t.arg.id({ required: true, description: 'The tag; the caller needs view permission on it.' }),
  };
  return {
    createTag: t.prismaField({
      type: 'Tag',
      description: 'Creates a tag owned by the caller.',
      args: { input: t.arg({ type: CreateTagInput, required: true }) },
      resolve: (query, _root, args, ctx) => tags.createTag(ctx, { ...args.input }, query),
    }),
    updateTag: t.prismaField({
      type: 'Tag',
      description: 'Changes a tag; needs modify permission on it.',
      args: { input: t.arg({ type: UpdateTagInput, required: true }) },
      resolve: (query, _root, args, ctx) => tags.updateTag(ctx, { ...args.input }, query),
    }),
    deleteTag: t.id({
      description: 'Deletes a tag and takes it off all content; needs admin permission on it. Returns its identification string.',
      args: { tag: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => (await tags.deleteTag(ctx, args)).id,
    }),
    tagContent: t.field({
      type: ContentTagChangeType,
      description: 'Attaches a tag to content; needs modify permission on the content and view on the tag. Attaching twice changes nothing.',
      args: contentTagArgDefs,
      resolve: (_root, args, ctx) => tags.attachTag(ctx, args.contentType, contentTagInput(args), 'content'),
    }),
    untagContent: t.field({
      type: ContentTagChangeType,
      description: 'Detaches a tag from content; needs modify permission on the content and view on the tag. success is false when it was not attached.',
      args: contentTagArgDefs,
      resolve: (_root, args, ctx) => tags.detachTag(ctx, args.contentType, contentTagInput(args), 'content'),
    }),
  };
});
