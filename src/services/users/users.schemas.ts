import { z } from 'zod';
import { contract } from '../contract-meta.ts';
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

export const userRef = z.object({ user: contract(code(), { description: 'the literal `me` means the current user' }) });

export const createUser = z.object({
  username,
  password: contract(text(4, 64).optional(), { description: 'when absent a random initial password is generated' }),
  firstName: personName(64),
  lastName: personName(64),
  fullName: personName(255).optional(),
  displayName: personName(255).optional(),
  email: email(),
  phone: phone().optional(),
  gender: oneOf(['male', 'female', 'other']).optional(),
  birthdate: date().optional(),
  exam: contract(bool().default(false), { description: 'true means the account may log in only to reach exams' }),
  group: contract(text(1, 64).optional(), { description: 'user group name' }),
  template: contract(oneOf(templates).optional(), { description: 'default none' }),
  customFields: z.record(z.string(), text(0, 255)).default({}),
  language: contract(text(2, 16).optional(), { description: 'default: language of the application owner' }),
  timezone: contract(text(1, 64).optional(), { description: 'default: timezone of the application owner' }),
  color: oneOf(colors).default('default'),
  mustChangePassword: bool().default(false),
  notify: contract(bool().default(false), { description: 'notify by email or SMS' }),
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

export const searchUser = z.object({ query: contract(text(1, 255), { description: 'matches email, username or code' }) });

export const createLoginLink = z.object({
  user: code(),
  redirect: contract(text(1, 2048)
    .pipe(z.string().regex(/^(\/[^\s]*|\[[a-z_]+:[^\]\s]+\])$/, "must be a URI path such as /home, or [content_type:tag]"))
    .optional(), { description: 'URI path, or a content type and tag in the form [{content_type}:{tag}]' }),
  exam: contract(code().optional(), { description: 'the user must already be on the exam; mutually exclusive with redirect' }),
  expires: contract(z
    .union([int(1, 30), date()], { error: 'must be whole days from 1 to 30, or a date (YYYY-MM-DD)' })
    .optional(), { default: 1, description: 'days (1-30), or a date' }),
  logins: int(1, 255).optional(),
  template: text(1, 64).optional(),
  short: contract(bool().default(false), { description: 'shortened link; only if the feature is enabled' }),
});
export type CreateLoginLinkInput = z.input<typeof createLoginLink>;

export const deleteLoginLink = z.object({ user: code(), url: contract(url(), { description: 'the link to invalidate' }) });

export const assume = z.object({ user: contract(text(1, 255), { description: 'identification string, username or email' }), password: contract(text(1, 255).optional(), { description: 'password or user secret' }) });
export const revokeAssume = z.object({ token: text(1, 255) });
