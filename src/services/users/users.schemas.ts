import { z } from 'zod';
import { bool, code, date, email, int, oneOf, phone, text, url } from '../validation.ts';

export const templates = [
  'corporate_test',
  'corporate_user',
  'corporate_reporter',
  'corporate_supervisor',
  'corporate_teacher',
  'corporate_admin',
  'streaming',
] as const;

export const colors = ['default', 'branding', 'red', 'blue', 'yellow', 'green', 'purple', 'gray'] as const;

const username = text(4, 64).pipe(
  z.string().regex(/^[\p{L}\p{N}._@+-]+$/u, 'may contain letters, digits and . _ @ + - only'),
);

/**
 * Person names are stored trimmed, so a name made only of spaces counts as empty and the derived
 * full name never carries stray blanks.
 */
const personName = (max: number) => z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), text(1, max));

export const userRef = z.object({ user: code() });

export const createUser = z.object({
  username,
  password: text(4, 64).optional(),
  firstName: personName(64),
  lastName: personName(64),
  fullName: personName(255).optional(),
  displayName: personName(255).optional(),
  email: email(),
  phone: phone().optional(),
  gender: oneOf(['male', 'female', 'other']).optional(),
  birthdate: date().optional(),
  exam: bool().default(false),
  group: text(1, 64).optional(),
  template: oneOf(templates).optional(),
  customFields: z.record(z.string(), text(0, 255)).default({}),
  language: text(2, 16).optional(),
  timezone: text(1, 64).optional(),
  color: oneOf(colors).default('default'),
  mustChangePassword: bool().default(false),
  notify: bool().default(false),
});
export type CreateUserInput = z.input<typeof createUser>;

export const setUserActive = z.object({ user: code(), active: bool().optional() });

export const setUserName = z.object({
  user: code(),
  firstName: personName(64),
  lastName: personName(64),
  fullName: personName(255).optional(),
  displayName: personName(255).optional(),
});

export const setUserGroup = z.object({ user: code(), group: text(1, 64) });

export const searchUser = z.object({ query: text(1, 255) });

export const createLoginLink = z.object({
  user: code(),
  redirect: text(1, 2048)
    .pipe(z.string().regex(/^(\/[^\s]*|\[[a-z_]+:[^\]\s]+\])$/, "must be a URI path such as /home, or [content_type:tag]"))
    .optional(),
  exam: code().optional(),
  expires: z
    .union([int(1, 30), date()], { error: 'must be whole days from 1 to 30, or a date (YYYY-MM-DD)' })
    .optional(),
  logins: int(1, 255).optional(),
  template: text(1, 64).optional(),
  short: bool().default(false),
});
export type CreateLoginLinkInput = z.input<typeof createLoginLink>;

export const deleteLoginLink = z.object({ user: code(), url: url() });

export const assume = z.object({ user: text(1, 255), password: text(1, 255).optional() });
export const revokeAssume = z.object({ token: text(1, 255) });
