import type { GraphQLInterfaceType, GraphQLResolveInfo } from 'graphql';
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import { DateResolver, DateTimeResolver, EmailAddressResolver, JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import type PrismaTypes from '../generated/pothos-prisma.ts';
import { getDatamodel } from '../generated/pothos-prisma.ts';
import type { Context } from '../context.ts';
import { typeOfId } from '../ids.ts';

/** Asked of the schema itself: ids.ts also knows prefixes of types that have no GraphQL face yet. */
function isNodeType(info: GraphQLResolveInfo, typename: string): boolean {
  const node = info.schema.getType('Node') as GraphQLInterfaceType | undefined;
  return !!node && info.schema.getImplementations(node).objects.some((type) => type.name === typename);
}

/**
 * The Pothos builder: plugin-prisma (nested selections become one Prisma query), plugin-relay
 * (global `Node` ids and cursor connections), plugin-errors, plugin-dataloader. Global ids are the
 * contract's identification strings themselves: their prefix names the type, so one id serves both faces.
 */
export const builder = new SchemaBuilder<{
  Context: Context;
  // Fields are non-null unless marked nullable, so generated client types say what is always there.
  DefaultFieldNullability: false;
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  PrismaTypes: PrismaTypes;
  // Permission filters read the viewer's rules first, so relation `query` callbacks may be async.
  AsyncSelections: true;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    Date: { Input: Date; Output: Date };
    EmailAddress: { Input: string; Output: string };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    JSON: { Input: unknown; Output: unknown };
    ID: { Input: string; Output: string };
  };
}>({
  plugins: [ErrorsPlugin, PrismaPlugin, RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    edgesFieldOptions: { nullable: { list: false, items: false } },
    nodeFieldOptions: { nullable: false },
    encodeGlobalID: (_typename, id) => String(id),
    decodeGlobalID: (globalID) => ({ typename: typeOfId(globalID) ?? 'Unknown', id: globalID }),
    // An id that names no Node type (unknown prefix, or a type without a GraphQL face yet) is
    // simply not found, like an id of a record the viewer may not read.
    nodeQueryOptions: {
      description: 'An object by its identification string (usr_…, int_…); null when there is none the caller may read.',
      resolve: (_root, { id }, _ctx, info, resolveNode) => (isNodeType(info, id.typename) ? resolveNode(id) : null),
    },
    nodesQueryOptions: {
      description: 'Objects by their identification strings, in the same order; null for each the caller may not read.',
      resolve: async (_root, args, _ctx, info, resolveNodes) => {
        const ids = args.ids;
        const known = ids.filter((id) => isNodeType(info, id.typename));
        // plugin-relay 4.8 hands `resolveNodes` args.ids whatever it is called with, so filter there.
        args.ids = known;
        const found = await resolveNodes(known);
        return ids.map((id) => (known.includes(id) ? found[known.indexOf(id)] : null));
      },
    },
  },
  errors: {
    // Service errors travel as `extensions.code` (see errors.ts); no union result types by default.
    defaultTypes: [],
  },
});

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('Date', DateResolver);
builder.addScalarType('EmailAddress', EmailAddressResolver);
builder.addScalarType('JSONObject', JSONObjectResolver);
builder.addScalarType('JSON', JSONResolver);

builder.queryType({ description: 'Reads of the learning platform.' });
builder.mutationType({ description: 'Writes of the learning platform; each calls the same service as the REST contract.' });
builder.subscriptionType({ description: 'Live updates over server-sent events.' });
