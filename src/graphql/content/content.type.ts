import { builder } from '../builder.ts';
import * as content from '../../services/content/content.service.ts';
import { minimalTypes } from '../../services/content/content.schemas.ts';
import { contentTypeRegistry } from '../../services/content/content-types.ts';

/**
 * Course, Event, Scorm and Video: the minimal content records. The four have the same fields and
 * operations, so one loop defines them; each reads with view permission, changes with modify and
 * is deleted with admin (services/content/content.service.ts).
 */

const plurals = { course: 'courses', event: 'events', scorm: 'scorms', video: 'videos' } as const;
const names = { course: 'A course', event: 'An event (its permission levels add finances)', scorm: 'A SCORM package', video: 'A video' };
const pluralNames = { course: 'Courses', event: 'Events', scorm: 'SCORM packages', video: 'Videos' };

const CreateContentInput = builder.inputType('CreateContentInput', {
  description: 'A new course, event, SCORM package or video, owned by the caller.',
  fields: (t) => ({
    title: t.string({ required: true, description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    description: t.string({ description: 'Description.' }),
    organization: t.id({ description: 'An organization whose content the caller may change (content level modify or more, or a manager).' }),
  }),
});

const UpdateContentInput = builder.inputType('UpdateContentInput', {
  description: 'Changes to a course, event, SCORM package or video: only given fields change; null clears an optional one.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The record to change.' }),
    title: t.string({ description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    description: t.string({ description: 'Description.' }),
    organization: t.id({ description: 'An organization whose content the caller may change; null makes it personal.' }),
  }),
});

for (const type of minimalTypes) {
  // The four models have the same columns; typing the loop as one of them keeps the fields checked.
  // The GraphQL type of each is the one its content registration names.
  const name = contentTypeRegistry[type].graphql;
  const model = name as 'Course';

  builder.prismaNode(model, {
    id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
    // node(id) answers null, not an error, for a record that is missing or not the caller's to view.
    nullable: true,
    description: `${names[type]}: minimal content with a title, an external identifier, an owner and an organization.`,
    findUnique: async (id, ctx) => ({ id, AND: [await content.viewableContentWhere(ctx, type)] }),
    fields: (t) => ({
      title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
      externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier (1-64 characters).' }),
      description: t.exposeString('description', { nullable: true, description: 'Description.' }),
      organization: t.relation('organization', {
        nullable: true,
        description: 'The organization whose members hold their content level on it; null for personal content.',
      }),
      owner: t.relation('owner', { description: 'The owner, who holds admin on it.' }),
      createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    }),
  });

  builder.queryFields((t) => ({
    [plurals[type]]: t.prismaConnection({
      type: model,
      cursor: 'id',
      description: `${pluralNames[type]} the caller may view, oldest first.`,
      args: { search: t.arg.string({ description: 'Matches the title or the external identifier.' }) },
      resolve: (query, _root, args, ctx) => content.listContents(ctx, type, { search: args.search ?? undefined }, query),
    }),
    [type]: t.prismaField({
      type: model,
      description: `One of the ${pluralNames[type].toLowerCase()} by identification string (NOT_FOUND or PERMISSION_DENIED otherwise).`,
      args: { id: t.arg.id({ required: true }) },
      resolve: (query, _root, args, ctx) => content.getContent(ctx, type, args, query),
    }),
  }));

  builder.mutationFields((t) => ({
    [`create${name}`]: t.prismaField({
      type: model,
      description: 'Creates a record owned by the caller.',
      args: { input: t.arg({ type: CreateContentInput, required: true }) },
      resolve: (query, _root, args, ctx) => content.createContent(ctx, type, { ...args.input }, query),
    }),
    [`update${name}`]: t.prismaField({
      type: model,
      description: 'Changes a record; needs modify permission on it.',
      args: { input: t.arg({ type: UpdateContentInput, required: true }) },
      resolve: (query, _root, args, ctx) => content.updateContent(ctx, type, { ...args.input }, query),
    }),
    [`delete${name}`]: t.id({
      description: 'Deletes a record with its permission rules and tag attachments; needs admin permission. Returns its identification string.',
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => content.deleteContent(ctx, type, args),
    }),
  }));
}
