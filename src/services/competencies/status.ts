import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';

/** The seven status counters of the contract, in its order. */
export const statusKeys = ['completed', 'progress', 'waiting', 'expired', 'due', 'overdue', 'outdated'] as const;
export type StatusKey = (typeof statusKeys)[number];
export type StatusCounts = Record<StatusKey, number>;

/** An assignment is `due` when a deadline falls within this many days. */
export const DUE_WINDOW_DAYS = 30;

/** Assignments and their counters of one competency among the members of one department (null: none). */
export interface CounterRow extends StatusCounts {
  competencyId: string;
  departmentId: string | null;
  assigned: number;
}

export const noCounts = (): StatusCounts => ({ completed: 0, progress: 0, waiting: 0, expired: 0, due: 0, overdue: 0, outdated: 0 });

/** Adds up counter rows (already aggregated per competency and department). */
export function sumRows(rows: Iterable<CounterRow>): { assigned: number; status: StatusCounts } {
  const status = noCounts();
  let assigned = 0;
  for (const row of rows) {
    assigned += row.assigned;
    for (const key of statusKeys) status[key] += row[key];
  }
  return { assigned, status };
}

/**
 * Counts assignments and their status in one SQL statement, grouped by competency and by the
 * member's department. The reference (/api/docs, `organization:compliance`) defines every counter; in short, per assignment (member,
 * competency) the non-optional requirements are each in one state (completed, expired, outdated,
 * waiting, progress, none) and the assignment takes the first status that holds of: completed,
 * expired, outdated, waiting, overdue, due, progress, or none of them.
 *
 * `now` is the service's clock, so every counter of a call uses the same instant. Timestamps are
 * stored in UTC without a zone; the ISO text cast to `timestamp` keeps them comparable on both
 * databases whatever time zone the connection uses.
 */
export async function countAssignments(
  db: Db | Prisma.TransactionClient,
  scope: { organizationId: string; userIds: string[]; competencyIds?: string[]; now: Date },
): Promise<CounterRow[]> {
  const now = scope.now.toISOString();
  const competencies = scope.competencyIds ?? null;
  const rows = await db.$queryRaw<CounterRow[]>(Prisma.sql`
    WITH scope AS (
      SELECT m."userId", m."departmentId", m."createdAt" AS joined
      FROM "OrganizationMember" m
      WHERE m."organizationId" = ${scope.organizationId} AND m."userId" = ANY(${scope.userIds}::text[])
    ),
    assignment AS (
      -- Held directly since the direct assignment; through the department or all members since
      -- the later of joining and the competency's creation (the earlier of the two when both).
      SELECT s."userId", s."departmentId", c.id AS "competencyId",
        LEAST(cm."createdAt",
              CASE WHEN c."assignAll" OR cd."departmentId" IS NOT NULL THEN GREATEST(s.joined, c."createdAt") END) AS "assignedAt"
      FROM scope s
      JOIN "Competency" c ON c."organizationId" = ${scope.organizationId}
      LEFT JOIN "CompetencyMember" cm ON cm."competencyId" = c.id AND cm."userId" = s."userId"
      LEFT JOIN "CompetencyDepartment" cd ON cd."competencyId" = c.id AND cd."departmentId" = s."departmentId"
      WHERE (c."assignAll" OR cm."userId" IS NOT NULL OR cd."departmentId" IS NOT NULL)
        AND (${competencies}::text[] IS NULL OR c.id = ANY(${competencies}::text[]))
    ),
    item AS (
      SELECT a."userId", a."departmentId", a."competencyId",
        CASE
          WHEN r.id IS NULL THEN NULL
          WHEN p.status = 'completed' AND r."validityDays" IS NOT NULL
            AND COALESCE(p."completedAt", p."updatedAt") + r."validityDays" * INTERVAL '1 day' <= ${now}::timestamp THEN 'expired'
          WHEN p.status = 'completed' AND COALESCE(p."completedAt", p."updatedAt") < r."changedAt" THEN 'outdated'
          WHEN p.status = 'completed' THEN 'completed'
          WHEN p.status = 'waiting' THEN 'waiting'
          WHEN p.status IS NOT NULL THEN 'progress'
          ELSE 'none'
        END AS state,
        -- A date deadline lasts to the end of that day (UTC); days count from the assignment.
        CASE r."deadlineType"
          WHEN 'date' THEN (r."deadlineDate" + 1)::timestamp
          WHEN 'days' THEN a."assignedAt" + r."deadlineDays" * INTERVAL '1 day'
        END AS deadline
      FROM assignment a
      LEFT JOIN "Requirement" r ON r."competencyId" = a."competencyId" AND NOT r.optional
      LEFT JOIN "RequirementProgress" p ON p."requirementId" = r.id AND p."userId" = a."userId"
    ),
    per AS (
      SELECT "competencyId", "departmentId",
        CASE
          -- bool_and over no rows is NULL: nothing required means nothing missing.
          WHEN bool_and(state = 'completed') IS NOT FALSE THEN 'completed'
          WHEN bool_or(state = 'expired') THEN 'expired'
          WHEN bool_or(state = 'outdated') THEN 'outdated'
          WHEN bool_and(state IN ('completed', 'waiting')) THEN 'waiting'
          WHEN bool_or(state IN ('none', 'progress') AND deadline <= ${now}::timestamp) THEN 'overdue'
          WHEN bool_or(state IN ('none', 'progress')
            AND deadline <= ${now}::timestamp + ${Prisma.raw(`INTERVAL '${DUE_WINDOW_DAYS} days'`)}) THEN 'due'
          WHEN bool_or(state <> 'none') THEN 'progress'
        END AS status
      FROM item
      GROUP BY "userId", "competencyId", "departmentId"
    )
    SELECT "competencyId", "departmentId", count(*)::int AS assigned,
      (count(*) FILTER (WHERE status = 'completed'))::int AS completed,
      (count(*) FILTER (WHERE status = 'progress'))::int AS progress,
      (count(*) FILTER (WHERE status = 'waiting'))::int AS waiting,
      (count(*) FILTER (WHERE status = 'expired'))::int AS expired,
      (count(*) FILTER (WHERE status = 'due'))::int AS due,
      (count(*) FILTER (WHERE status = 'overdue'))::int AS overdue,
      (count(*) FILTER (WHERE status = 'outdated'))::int AS outdated
    FROM per
    GROUP BY "competencyId", "departmentId"`);
  return rows;
}
