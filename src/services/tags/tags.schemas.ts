import { z } from 'zod';
import { code, externalId, text } from '../validation.ts';
import { taggableTypes, type TaggableType } from '../content/content-types.ts';

export { pageWindow, paging } from '../paging.ts';

/** `#rgb` or `#rrggbb` in any case, stored as lowercase `#rrggbb` so equal colours compare equal. */
export const color = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'must be a HEX colour (#rgb or #rrggbb)' })
      .regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'must be a HEX colour (#rgb or #rrggbb)')
      .transform((hex) => {
        const digits = hex.slice(1).toLowerCase();
        return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
      }),
  );

/**
 * The class names of an icon font, such as `fa-solid fa-star`: 1-8 CSS class names separated by
 * single spaces (runs of whitespace are collapsed), 1-255 characters. Anything else (quotes,
 * angle brackets, `;`) could break out of the `class` attribute a dashboard puts it in.
 */
const CLASS_NAMES = /^-?[_a-z][_a-z0-9-]*( -?[_a-z][_a-z0-9-]*){0,7}$/i;
export const icon = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().replace(/\s+/g, ' ') : v),
    z
      .string({ error: 'must be icon class names' })
      .min(1, 'must be 1 to 255 characters')
      .max(255, 'must be 1 to 255 characters')
      .regex(CLASS_NAMES, 'must be 1-8 CSS class names separated by spaces, such as fa-solid fa-star'),
  );

const title = text(1, 255);

export const tagRef = z.object({ tag: code() });

/** Optional fields may also be null (GraphQL clients send null for "not set"). */
export const createTag = z.object({
  title,
  externalId: externalId().nullish(),
  color: color(),
  icon: icon().nullish(),
  organization: code().nullish(),
});

/** Only given fields change; null clears an optional one (organization: null takes the tag out of its organization). */
export const updateTag = z.object({
  tag: code(),
  title: title.optional(),
  externalId: externalId().nullable().optional(),
  color: color().optional(),
  icon: icon().nullable().optional(),
  organization: code().nullable().optional(),
});

/** `<p>` and `tag` of the `<type>:tag` operations: the content parameter is named after its type. */
const contentTagSchemas = Object.fromEntries(taggableTypes.map((type) => [type, z.object({ [type]: code(), tag: code() })]));
export const contentTag = (type: TaggableType) => contentTagSchemas[type] as z.ZodObject<Record<string, ReturnType<typeof code>>>;

/** `<p>` of the `<type>:tags` operations (whose input the contract does not show). */
const contentSchemas = Object.fromEntries(taggableTypes.map((type) => [type, z.object({ [type]: code() })]));
export const contentRef = (type: TaggableType) => contentSchemas[type] as z.ZodObject<Record<string, ReturnType<typeof code>>>;
