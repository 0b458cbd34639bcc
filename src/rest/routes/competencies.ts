import type { Competency } from '../../generated/prisma/client.ts';
import * as competencies from '../../services/competencies/competencies.service.ts';
import * as requirements from '../../services/competencies/requirements.service.ts';
import type { ContentSummary, DocumentSummary, JourneySummary } from '../../services/competencies/content.ts';
import { compact, date } from '../format.ts';
import type { Handler } from './types.ts';

const summary = (c: Competency) => ({ competency: c.id, id: c.externalId, title: c.title });

/** The type-specific hash of a requirement record; null when the content is unavailable. */
function contentHash(type: string, content: requirements.RequirementContent | null) {
  if (!content) return null;
  switch (type) {
    case 'exam':
    case 'class': {
      const c = content as ContentSummary;
      return { [type]: c.id, id: c.externalId, title: c.title };
    }
    case 'document': {
      const d = content as DocumentSummary;
      return { document: d.id, prefix: d.prefix, title: d.title, archived: d.archived };
    }
    default: {
      const j = content as JourneySummary & { outcomes: string[] };
      return { exam: j.exam, title: j.title, active: j.active, outcomes: j.outcomes };
    }
  }
}

function requirementRecord({ requirement: r, content, todo, documents }: requirements.RequirementView) {
  const deadline =
    r.deadlineType === 'date' ? { type: 'date', date: date(r.deadlineDate) } : r.deadlineType === 'days' ? { type: 'days', days: r.deadlineDays } : undefined;
  return compact({
    requirement: r.id,
    title: r.title,
    type: r.type,
    optional: r.optional,
    description: r.description ?? undefined,
    deadline,
    documents: documents.length ? documents.map((d) => d.id) : undefined,
    [r.type]: todo
      ? compact({ type: todo.type, attachments: todo.attachments, educators: todo.educators?.map((e) => ({ user: e.id, name: e.name })), fields: todo.fields })
      : contentHash(r.type, content),
  });
}

export const competencyRoutes: Record<string, Handler> = {
  'GET organization:competencies': async (ctx, args) => {
    const { organization, competencies: list } = await competencies.listCompetencies(ctx, args);
    return {
      organization: organization.id,
      competencies: list.map((c) => ({
        ...summary(c.competency),
        description: c.competency.description,
        requirements: c.requirements,
        documents: c.documents,
        assignments: c.assignments,
        assigned: c.assigned,
        status: c.status,
      })),
    };
  },
  'GET organization:competency:requirements': async (ctx, args) => {
    const { organization, competency, requirements: list } = await requirements.listRequirements(ctx, args);
    return { organization: organization.id, ...summary(competency), requirements: list.map(requirementRecord) };
  },
  'GET organization:compliance': async (ctx, args) => {
    const report = await competencies.getCompliance(ctx, args);
    return {
      organization: report.organization.id,
      scope: report.scope,
      competencies: report.competencies.map(summary),
      departments: report.departments.map((d) => ({
        department: d.department?.title ?? null,
        id: d.department?.externalId ?? null,
        parent: d.parent?.title ?? null,
        level: d.level,
        members: d.members,
        competencies: d.competencies.map((c) => ({ competency: c.competency.id, assigned: c.assigned, status: c.status })),
      })),
      assigned: report.assigned,
      status: report.status,
    };
  },
};
