import { builder } from '../builder.ts';
import { given } from '../grading/grading-preset.type.ts';
import * as graphs from '../../services/journeys/graph.service.ts';
import { publishJourney, type PublishResult } from '../../services/journeys/publish.service.ts';
import type { Issue } from '../../services/journeys/graph-validation.ts';
import { mirrorDescription } from '../operation-prose.ts';

/** An exam's journey: `Exam.journey`, `saveJourneyGraph` and `setJourneyEnabled` (GET and PUT exam:journey:graph). */

const JourneyIssueType = builder.objectRef<Issue>('JourneyIssue').implement({
  description: 'A problem of a journey graph: errors block saving and publishing, warnings inform.',
  fields: (t) => ({
    level: t.exposeString('level', { description: 'error or warning.' }),
    code: t.exposeString('code', { description: 'A stable issue code; clients may switch on it.' }),
    node: t.exposeString('node', { nullable: true, description: 'Key of the node at fault; null for the graph or its settings.' }),
    output: t.exposeString('output', { nullable: true, description: "Output of the node at fault (a condition's branch for its rules)." }),
    message: t.exposeString('message', { description: 'What is wrong, in words.' }),
  }),
});

/** The graph of a view in the portable format, as GET exam:journey:graph shows it. */
const portable = (view: graphs.JourneyGraphView) => ({ schema: view.schema, settings: view.settings, nodes: view.nodes });

const JourneyType = builder.objectRef<graphs.LoadedJourney>('Journey').implement({
  description: 'The journey an exam starts: its draft graph being edited and its published version (GET exam:journey:graph).',
  fields: (t) => ({
    id: t.id({ description: 'Its identification string.', resolve: (j) => j.journey.id }),
    enabled: t.boolean({ description: 'Users enter it (switched off, those inside go on).', resolve: (j) => j.journey.enabled }),
    version: t.int({ description: 'The published version, 0 before the first publish.', resolve: (j) => j.journey.version }),
    published: t.field({ type: 'DateTime', nullable: true, description: 'When the current version was published.', resolve: (j) => j.journey.publishedAt }),
    draft: t.field({
      type: 'JSON',
      description: 'The draft in the portable format ({schema, settings, nodes}); nodes ordered by position, every output listed in next.',
      resolve: async (j) => portable(await j.draft()),
    }),
    settings: t.field({ type: 'JSONObject', description: 'The settings of the draft.', resolve: async (j) => ({ ...(await j.draft()).settings }) }),
    issues: t.field({ type: [JourneyIssueType], description: 'The issues of the draft, errors first.', resolve: async (j) => (await j.draft()).issues ?? [] }),
    publishable: t.boolean({ description: 'The draft has no errors.', resolve: async (j) => (await j.draft()).publishable ?? false }),
    unpublishedChanges: t.boolean({ description: 'The draft differs from the published version (always true before the first publish).', resolve: async (j) => (await j.draft()).unpublishedChanges }),
    publishedGraph: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The published version in the portable format; null before the first publish.',
      resolve: async (j) => {
        const view = await j.published();
        return view ? portable(view) : null;
      },
    }),
  }),
});

builder.prismaObjectFields('Exam', (t) => ({
  journey: t.field({
    type: JourneyType,
    nullable: true,
    description: 'The journey it starts; null when it starts none or the journeys feature is off.',
    select: { journey: true },
    resolve: (exam, _args, ctx) => graphs.journeyOfLoaded(ctx, exam),
  }),
}));

const SaveJourneyGraphInput = builder.inputType('SaveJourneyGraphInput', {
  description: mirrorDescription('A journey graph replacing the draft (PUT exam:journey:graph).', 'PUT exam:journey:graph'),
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The starting exam (modify permission).' }),
    nodes: t.field({ type: 'JSON', required: true, description: 'The nodes of the portable format (a list, or JSON text of one).' }),
    settings: t.field({ type: 'JSON', description: 'Settings (a hash or JSON text), merged over the current ones.' }),
    schema: t.int({ description: 'The version of the format; default 1.' }),
  }),
});

const SaveJourneyGraphPayload = builder.objectRef<{ journey: graphs.LoadedJourney; ignored: string[] }>('SaveJourneyGraphPayload').implement({
  description: 'The saved draft.',
  fields: (t) => ({
    journey: t.field({ type: JourneyType, description: 'The journey, with the saved draft.', resolve: (p) => p.journey }),
    ignored: t.stringList({ description: 'Unknown fields that were ignored, as paths (nodes[3].foo).', resolve: (p) => p.ignored }),
  }),
});

const SetJourneyEnabledInput = builder.inputType('SetJourneyEnabledInput', {
  description: "Switches an exam's journey on or off.",
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The starting exam (modify permission).' }),
    enabled: t.boolean({ required: true, description: 'Switched off, users do not enter (those inside go on).' }),
  }),
});

const PublishJourneyInput = builder.inputType('PublishJourneyInput', {
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The starting exam.' }),
    remap: t.field({ type: 'JSONObject', description: 'Removed node key -> an existing draft node key, or "" to stop those users.' }),
  }),
});

const PublishJourneyPayload = builder.objectRef<{ journey: graphs.LoadedJourney; result: PublishResult }>('PublishJourneyPayload').implement({
  description: 'What POST exam:journey:publish answers.',
  fields: (t) => ({
    journey: t.field({ type: JourneyType, description: 'The journey, with its new version.', resolve: (p) => p.journey }),
    unchanged: t.boolean({ description: 'The draft equalled the published version: nothing was published.', resolve: (p) => p.result.unchanged ?? false }),
    remapped: t.field({ type: 'JSONObject', nullable: true, description: 'Removed node -> the node its users moved to (null: stopped); null when nobody moved.', resolve: (p) => p.result.remapped ?? null }),
    issues: t.field({ type: [JourneyIssueType], description: 'Warnings that remain.', resolve: (p) => p.result.issues ?? [] }),
    warning: t.string({ nullable: true, description: 'Set when the journey is disabled: users do not enter it until it is enabled.', resolve: (p) => p.result.warning ?? null }),
  }),
});

builder.mutationFields((t) => ({
  publishJourney: t.field({
    type: PublishJourneyPayload,
    description:
      "Publishes the draft of an exam's journey as its next version (POST exam:journey:publish): refused with error-level issues, or with users on removed nodes and no remap entry for them.",
    args: { input: t.arg({ type: PublishJourneyInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const result = await publishJourney(ctx, given(args.input));
      const { exam, journey } = await graphs.examJourney(ctx, args.input.exam, 'exam:journey:read');
      return { journey: graphs.loadedJourney(ctx, exam, journey), result };
    },
  }),
  saveJourneyGraph: t.field({
    type: SaveJourneyGraphPayload,
    description:
      'Replaces the draft of the journey an exam starts, creating and enabling the journey when it started none. Strict: the problems are reported together (JOURNEY_INVALID with the first 100 in extensions.issues, counted in extensions.problems and extensions.exact) and nothing is saved.',
    args: { input: t.arg({ type: SaveJourneyGraphInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      // The graph goes as it is: its nulls mean "unconnected" and "no title", not "not given".
      const { nodes, settings, ...rest } = args.input;
      const view = await graphs.saveJourneyGraph(ctx, { ...given(rest), nodes, ...(settings === null || settings === undefined ? {} : { settings }) });
      return { journey: { ...graphs.loadedJourney(ctx, view.exam, view.journey), draft: () => Promise.resolve(view) }, ignored: view.ignored ?? [] };
    },
  }),
  setJourneyEnabled: t.field({
    type: JourneyType,
    description: "Switches an exam's journey on or off.",
    args: { input: t.arg({ type: SetJourneyEnabledInput, required: true }) },
    resolve: (_root, args, ctx) => graphs.setJourneyEnabled(ctx, given(args.input)),
  }),
}));
