import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, date, datetime, externalId, int, list, oneOf, text } from '../validation.ts';

export const requirementTypes = ['exam', 'class', 'document', 'journey', 'todo'] as const;
export type RequirementType = (typeof requirementTypes)[number];
export const todoTypes = ['default', 'document', 'exam', 'training'] as const;
export type TodoType = (typeof todoTypes)[number];
export const deadlineTypes = ['none', 'date', 'days'] as const;
export const progressStatuses = ['progress', 'waiting', 'completed', 'none'] as const;

/** The lists here replace the current ones, so an empty list is allowed: it clears them. */
const listOf = <T extends z.ZodType>(item: T, max = 1000) => list(item, max, 0);

export const organizationRef = z.object({ organization: code() });
export const competencyRef = z.object({ competency: code() });
export const requirementRef = z.object({ requirement: code() });
export const documentRef = z.object({ document: code() });

/** The competency may be named by its external identifier when the organization is given. */
export const requirementsOf = z.object({ competency: contract(text(1, 64), { format: 'code', description: 'the external identifier also works when organization is given' }), organization: code().optional() });

export const createCompetency = z.object({
  organization: code(),
  title: text(1, 255),
  externalId: externalId().optional(),
  description: text(1, 65535).optional(),
  documents: listOf(code()).optional(),
});

/** Empty `externalId` and `description` remove them. */
export const updateCompetency = z.object({
  competency: code(),
  title: text(1, 255).optional(),
  externalId: text(0, 64).optional(),
  description: text(0, 65535).optional(),
  documents: listOf(code()).optional(),
});

/** Each given part replaces the current one; departments by identification string, name or external id. */
export const setAssignments = z.object({
  competency: code(),
  all: bool().optional(),
  departments: listOf(text(1, 255)).optional(),
  members: listOf(code(), 10_000).optional(),
});

const requirementFields = {
  /** Empty removes it. */
  title: text(0, 255).optional(),
  optional: bool().optional(),
  /** Empty removes it. */
  description: text(0, 65535).optional(),
  priority: int(0, 1_000_000).optional(),
  /** `none` removes the deadline. */
  deadlineType: oneOf(deadlineTypes).optional(),
  deadlineDate: date().optional(),
  deadlineDays: int(1, 3650).optional(),
  /** 0 removes the limit: completions stay valid. */
  validityDays: int(0, 36500).optional(),
  /** The exam, class, library document or starting exam (journey) the requirement points at. */
  content: code().optional(),
  outcomes: listOf(text(1, 255), 100).optional(),
  todoType: oneOf(todoTypes).optional(),
  todoAttachments: bool().optional(),
  todoEducators: listOf(code(), 100).optional(),
  todoFields: listOf(text(1, 255), 100).optional(),
  documents: listOf(code()).optional(),
};

export const createRequirement = z.object({ competency: code(), type: oneOf(requirementTypes), ...requirementFields });
export type RequirementInput = z.output<typeof createRequirement>;

/** `renew` makes every completion made before now outdated, whatever else changes. */
export const updateRequirement = z.object({ requirement: code(), renew: bool().default(false), ...requirementFields });

export const recordProgress = z.object({
  requirement: code(),
  user: code().default('me'),
  status: oneOf(progressStatuses),
  /** When it was completed (imports of earlier completions); not in the future. */
  completedAt: datetime().optional(),
});

export const createDocument = z.object({
  organization: code(),
  title: text(1, 255),
  prefix: text(1, 64).optional(),
  archived: bool().default(false),
});

/** Empty `prefix` removes it. */
export const updateDocument = z.object({
  document: code(),
  title: text(1, 255).optional(),
  prefix: text(0, 64).optional(),
  archived: bool().optional(),
});
