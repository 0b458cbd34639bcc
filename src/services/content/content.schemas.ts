import { z } from 'zod';
import { code, externalId, text } from '../validation.ts';

export { pageWindow, paging } from '../paging.ts';

/** Course, event, SCORM and video: the minimal content records, all with the same fields. */
export const minimalTypes = ['course', 'event', 'scorm', 'video'] as const;
export type MinimalType = (typeof minimalTypes)[number];

const title = text(1, 255);
const description = text(0, 65_535);

/** Optional fields may also be null (GraphQL clients send null for "not set"). */
export const createContent = z.object({
  title,
  externalId: externalId().nullish(),
  description: description.nullish(),
  organization: code().nullish(),
});

/** Only given fields change; null clears an optional one (organization: null makes it personal). */
export const updateContent = z.object({
  id: code(),
  title: title.optional(),
  externalId: externalId().nullable().optional(),
  description: description.nullable().optional(),
  organization: code().nullable().optional(),
});

export const contentRef = z.object({ id: code() });
