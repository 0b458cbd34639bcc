import type { Context } from '../../context.ts';
import type { Exam, Journey, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError, JourneyInvalidError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { findExam } from '../exams/access.ts';
import { JOURNEY_SCHEMA_VERSION, defaultJourneySettings, journeyLimits, type JourneyGraph, type JourneyNode, type JourneySettings } from './format.ts';
import {
  contentOf, hasErrors, overLimits, parseJourneyGraph, renderJourneyNodes, validateJourneyGraph, type Issue, type ParsedGraph, type RenderedNode,
} from './graph-validation.ts';
import * as s from './graph.schemas.ts';
import { JOURNEY_SCHEMA_PATH } from './json-schema.ts';

/**
 * The draft graph of an exam's journey: reading it (GET `exam:journey:graph`, `Exam.journey`),
 * replacing it (PUT, `saveJourneyGraph`) and switching the journey on or off. Publishing, the
 * engine and the users' state live beside it.
 */

/** The address of the JSON Schema of the portable format (the `$schema` of GET). */
export const journeySchemaUrl = (ctx: Pick<Context, 'config'>) => `${ctx.config.baseUrl}${JOURNEY_SCHEMA_PATH}`;

export type GraphKind = 'draft' | 'published';

export interface JourneyGraphView {
  exam: Exam;
  journey: Journey;
  graph: GraphKind;
  schema: number;
  settings: JourneySettings;
  nodes: RenderedNode[];
  unpublishedChanges: boolean;
  /** Only for the draft. */
  issues?: Issue[];
  publishable?: boolean;
  /** Only after a save that ignored unknown fields. */
  ignored?: string[];
}

/** The draft as a graph of the portable format. */
export const draftOf = (journey: Pick<Journey, 'settings' | 'nodes'>): JourneyGraph => ({
  schema: JOURNEY_SCHEMA_VERSION,
  settings: { ...defaultJourneySettings, ...(journey.settings as Partial<JourneySettings>) },
  nodes: journey.nodes as unknown as JourneyNode[],
});

/** The published graph, or null before the first publish. */
export const publishedOf = (journey: Pick<Journey, 'published'>): JourneyGraph | null => (journey.published as unknown as JourneyGraph | null) ?? null;

/** JSON with the keys of every hash sorted: jsonb keeps its own key order, so stored values compare by this. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Whether the draft differs from the published version (always, before the first publish). */
export function hasUnpublishedChanges(journey: Pick<Journey, 'settings' | 'nodes' | 'published'>): boolean {
  const published = publishedOf(journey);
  if (!published) return true;
  const draft = draftOf(journey);
  return canonical({ settings: draft.settings, nodes: draft.nodes }) !== canonical({ settings: published.settings, nodes: published.nodes });
}

/** The content a journey already uses, in its draft or its published version: kept without control. */
function usedContent(journey: Pick<Journey, 'settings' | 'nodes' | 'published'> | null): Set<string> {
  if (!journey) return new Set();
  return new Set([...contentOf(draftOf(journey).nodes), ...contentOf(publishedOf(journey)?.nodes ?? [])]);
}

/** The journey's graph for output; issues and publishable for the draft only. */
async function journeyGraphView(ctx: Context, exam: Exam, journey: Journey, graph: GraphKind = 'draft'): Promise<JourneyGraphView> {
  const stored = graph === 'draft' ? draftOf(journey) : publishedOf(journey)!;
  // Parsing a stored graph again gives it the format's field order (jsonb keeps its own).
  const { graph: normal } = parseJourneyGraph({ nodes: stored.nodes, settings: stored.settings, schema: stored.schema });
  const [nodes, issues] = await Promise.all([
    renderJourneyNodes(ctx, exam, normal.nodes),
    graph === 'draft' ? validateJourneyGraph(ctx, exam, stored, { used: usedContent(journey) }).then((v) => v.issues) : undefined,
  ]);
  return {
    exam,
    journey,
    graph,
    schema: normal.schema,
    settings: normal.settings,
    nodes,
    unpublishedChanges: hasUnpublishedChanges(journey),
    ...(issues ? { issues, publishable: !hasErrors(issues) } : {}),
  };
}

async function requireFeature(ctx: Context): Promise<void> {
  await ctx.settings.require('journeys', ctx.viewer.user);
}

/** The journey an exam starts; refused when it starts none. */
async function journeyOf(ctx: Context, exam: Exam): Promise<Journey> {
  const journey = await ctx.db.journey.findUnique({ where: { examId: exam.id } });
  if (!journey) throw new ArgumentError('exam', 'the exam starts no journey (PUT exam:journey:graph creates one)', 'NO_JOURNEY');
  return journey;
}

/**
 * The journey the exam named by `code` starts, for `action` on it: the journeys feature, the exam
 * (unknown to a caller who may not view it, PERMISSION_DENIED without the level), and a journey
 * (NO_JOURNEY when it starts none).
 */
export async function examJourney(ctx: Context, code: string, action: 'exam:journey:read' | 'exam:journey:update'): Promise<{ exam: Exam; journey: Journey }> {
  await requireFeature(ctx);
  const exam = await findExam(ctx, code, action);
  return { exam, journey: await journeyOf(ctx, exam) };
}

/** GET `exam:journey:graph`: the draft, or the published version once there is one. */
export async function getJourneyGraph(ctx: Context, raw: Record<string, unknown>): Promise<JourneyGraphView> {
  const input = parseInput(s.graphRef, raw);
  const { exam, journey } = await examJourney(ctx, input.exam, 'exam:journey:read');
  if (input.graph === 'published' && !journey.published) {
    throw new ArgumentError('graph', 'the journey has not been published yet; only its draft can be read', 'NOT_PUBLISHED');
  }
  return journeyGraphView(ctx, exam, journey, input.graph);
}

/** A journey with its starting exam, and its draft and published views made once, on first use. */
export interface LoadedJourney {
  exam: Exam;
  journey: Journey;
  draft(): Promise<JourneyGraphView>;
  published(): Promise<JourneyGraphView | null>;
}

export function loadedJourney(ctx: Context, exam: Exam, journey: Journey): LoadedJourney {
  let draft: Promise<JourneyGraphView> | undefined;
  let published: Promise<JourneyGraphView | null> | undefined;
  return {
    exam,
    journey,
    draft: () => (draft ??= journeyGraphView(ctx, exam, journey, 'draft')),
    published: () => (published ??= journey.published ? journeyGraphView(ctx, exam, journey, 'published') : Promise.resolve(null)),
  };
}

/**
 * `Exam.journey` from rows loaded with an exam the viewer may already see (view is what reading a
 * journey needs): null when it starts none or the feature is off for the viewer.
 */
export async function journeyOfLoaded(ctx: Context, exam: Exam & { journey: Journey | null }): Promise<LoadedJourney | null> {
  if (!exam.journey || !(await ctx.settings.isEnabled('journeys', ctx.viewer.user))) return null;
  return loadedJourney(ctx, exam, exam.journey);
}

/**
 * The refusal of a graph with errors: the first issues (errors first), how many problems there are
 * (at least, when validation stopped early) and the first ignored fields.
 */
function journeyInvalid({ issues, problems, exact, ignored }: ParsedGraph): JourneyInvalidError {
  const count = `${exact ? '' : 'at least '}${problems} problem${problems === 1 ? '' : 's'}`;
  const first = issues.filter((i) => i.level === 'error').slice(0, 3).map((i) => i.message).join('; ');
  const more = problems > 3 || !exact ? '; …' : '';
  return new JourneyInvalidError(`The journey graph has ${count}, nothing was saved: ${first}${more}`, issues.slice(0, journeyLimits.problems), ignored, { problems, exact });
}

/**
 * PUT `exam:journey:graph`: replaces the draft. Strict: the problems are reported together
 * (JOURNEY_INVALID with the issues) and nothing is saved if there is any error; warnings are
 * saved with the draft. A graph over the node or size limit, or with more problems than a refusal
 * lists, is refused as soon as that is known. Creates and enables the journey when the exam started none.
 */
export async function saveJourneyGraph(ctx: Context, raw: Record<string, unknown>): Promise<JourneyGraphView> {
  const input = parseInput(s.saveGraph, raw);
  const given = { nodes: input.nodes, settings: input.settings, schema: input.schema };
  // It tells nothing of the exam, so it comes before the exam is looked up: no database work for it.
  const tooLarge = overLimits(given);
  if (tooLarge) throw journeyInvalid(tooLarge);
  await requireFeature(ctx);
  const exam = await findExam(ctx, input.exam, 'exam:journey:update');
  const current = await ctx.db.journey.findUnique({ where: { examId: exam.id } });
  const base = current ? draftOf(current).settings : defaultJourneySettings;

  const parsed = await validateJourneyGraph(ctx, exam, given, { base, used: usedContent(current) });
  if (hasErrors(parsed.issues)) throw journeyInvalid(parsed);

  const data = { settings: parsed.graph.settings as unknown as Prisma.InputJsonObject, nodes: parsed.graph.nodes as unknown as Prisma.InputJsonArray };
  const journey = await ctx.db.$transaction(async (tx) => {
    // An upsert: two first saves at once must not collide on the exam's one journey.
    const saved = await tx.journey.upsert({
      where: { examId: exam.id },
      create: { id: newId('Journey'), examId: exam.id, enabled: true, ...data },
      update: data,
    });
    await audit(ctx, tx, 'exam.journey.update', exam.id);
    return saved;
  });
  const view = await journeyGraphView(ctx, exam, journey, 'draft');
  return parsed.ignored.length ? { ...view, ignored: parsed.ignored } : view;
}

/** GraphQL's setJourneyEnabled: switched off, users do not enter (those inside go on). */
export async function setJourneyEnabled(ctx: Context, raw: Record<string, unknown>): Promise<LoadedJourney> {
  const input = parseInput(s.setEnabled, raw);
  const { exam, journey } = await examJourney(ctx, input.exam, 'exam:journey:update');
  if (journey.enabled === input.enabled) return loadedJourney(ctx, exam, journey);
  const updated = await ctx.db.$transaction(async (tx) => {
    const row = await tx.journey.update({ where: { id: journey.id }, data: { enabled: input.enabled } });
    await audit(ctx, tx, input.enabled ? 'exam.journey.enable' : 'exam.journey.disable', exam.id);
    return row;
  });
  return loadedJourney(ctx, exam, updated);
}
