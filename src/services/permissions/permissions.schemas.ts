import { z } from 'zod';
import { levelsOf } from '../../auth/permissions.ts';
import type { Level } from '../../auth/levels.ts';
import type { ContentType } from '../content/content-types.ts';
import { code, oneOf } from '../validation.ts';

/**
 * Inputs of the permission operations of one content type. The content comes in the type's own
 * parameter (`class`, `quiz`, …) in the contract, or under another name (GraphQL `content`); the
 * parsed value always calls it `content`.
 */
const withContent = <T extends z.ZodRawShape>(parameter: string, shape: T) =>
  z.object({ [parameter]: code(), ...shape }).transform((v) => {
    const { [parameter]: content, ...rest } = v as Record<string, unknown>;
    return { content: content as string, ...(rest as z.output<z.ZodObject<T>>) };
  });

export const permissionInput = (type: ContentType, parameter: string) =>
  withContent(parameter, { user: code(), permission: oneOf(levelsOf(type) as [Level, ...Level[]]) });

export const transferInput = (parameter: string) => withContent(parameter, { user: code() });

/** The GraphQL `permission` query: the user defaults to the caller. */
export const summaryInput = (parameter: string) => withContent(parameter, { user: code().default('me') });
