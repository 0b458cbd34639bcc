import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, datetime, externalId, int, list, text } from '../validation.ts';

export const classRef = z.object({ class: code() });
export const assignmentRef = z.object({ assignment: code() });

/**
 * Membership expiry: whole days from now (at least 1), or a datetime that must still be ahead
 * (checked by the service, which knows the time). Absent: the membership does not expire.
 */
const expires = contract(
  z.union([int(1, 36_500), datetime()], { error: 'must be whole days (at least 1) or a datetime (YYYY-MM-DD HH:ii:ss, UTC)' }).optional(),
  { description: 'days, or the moment the membership expires' },
);

const codes = () => list(code(), 1000);

export const addMembers = z.object({ class: code(), users: codes(), expires, notify: contract(bool().default(false), { description: 'notify by email or SMS' }) });
export const removeMembers = z.object({ class: code(), users: codes() });
export const addManyMembers = z.object({ classes: codes(), users: codes(), expires, notify: contract(bool().default(false), { description: 'notify by email or SMS' }) });
export const userRef = z.object({ user: code() });
export const addUserClasses = z.object({ user: code(), classes: codes(), expires, notify: contract(bool().default(false), { description: 'notify by email or SMS' }) });
export const removeUserClasses = z.object({ user: code(), classes: codes() });

const title = text(1, 255);
const description = text(0, 65_535);

/** Optional fields may also be null (GraphQL clients send null for "not set"). */
export const createClass = z.object({
  title,
  externalId: externalId().nullish(),
  description: description.nullish(),
  start: datetime().nullish(),
  end: datetime().nullish(),
  organization: code().nullish(),
});

/** Only given fields change; null clears an optional field (organization: null leaves the organization). */
export const updateClass = z.object({
  class: code(),
  title: title.optional(),
  externalId: externalId().nullable().optional(),
  description: description.nullable().optional(),
  start: datetime().nullable().optional(),
  end: datetime().nullable().optional(),
  organization: code().nullable().optional(),
});

export const createAssignment = z.object({
  class: code(),
  title,
  description: description.nullish(),
  starts: datetime(),
  ends: datetime(),
  active: bool().default(true),
});

export const updateAssignment = z.object({
  assignment: code(),
  title: title.optional(),
  description: description.nullable().optional(),
  starts: datetime().optional(),
  ends: datetime().optional(),
  active: bool().optional(),
});

export const gradeSubmission = z.object({ assignment: code(), user: code(), grade: text(1, 64) });
