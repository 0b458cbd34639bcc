import * as graphs from '../../services/journeys/graph.service.ts';
import { datetime } from '../format.ts';
import type { Handler } from './types.ts';

/** `exam:journey:graph`: the draft (or published) graph of an exam's journey in the portable format. */

const graphRecord = (ctx: Parameters<Handler>[0], view: graphs.JourneyGraphView) => ({
  $schema: graphs.journeySchemaUrl(ctx),
  schema: view.schema,
  exam: view.exam.id,
  journey: view.journey.id,
  active: view.journey.enabled,
  version: view.journey.version,
  published: datetime(view.journey.publishedAt),
  graph: view.graph,
  unpublished_changes: view.unpublishedChanges,
  settings: view.settings,
  nodes: view.nodes,
  ...(view.issues ? { issues: view.issues, publishable: view.publishable } : {}),
  ...(view.ignored ? { ignored: view.ignored } : {}),
});

export const journeyRoutes: Record<string, Handler> = {
  'GET exam:journey:graph': async (ctx, args) => graphRecord(ctx, await graphs.getJourneyGraph(ctx, args)),
  'PUT exam:journey:graph': async (ctx, args) => graphRecord(ctx, await graphs.saveJourneyGraph(ctx, args)),
};
