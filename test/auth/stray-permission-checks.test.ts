import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every permission decision is a row of the action table (src/auth/actions.ts) answered by the
 * policy (src/auth): no code outside src/auth tests "is administrator", "is owner" or an
 * organization role by hand, or throws a permission refusal of its own. Business rules that are
 * not permissions throw PermissionError with a code of their own (403 with that code), which is
 * allowed. A line below that is not a permission decision is listed with the reason.
 */

const root = join(import.meta.dirname, '../..');

/** What betrays a decision taken by hand. */
const strayPatterns: { what: string; pattern: RegExp }[] = [
  { what: 'tests instance administration', pattern: /\.admin\b(?!\s*:)/ },
  { what: 'tests ownership', pattern: /\b(?:ownerId|createdById)\s*[!=]==|[!=]==\s*(?:[\w?]+\.)*(?:ownerId|createdById)\b/ },
  { what: 'tests an organization role', pattern: /\.(?:manager|canManageMembers|canReport)\b/ },
  // The owner of the calling application: a role of the table (user:assume), not a comparison.
  { what: 'tests the application owner', pattern: /[!=]==\s*(?:ctx\.)?viewer\.owner\.id\b|\bviewer\.owner\.id\s*[!=]==/ },
  { what: 'names the permission refusal', pattern: /'PERMISSION_DENIED'/ },
  // A PermissionError whose last argument is an UPPER_SNAKE code other than PERMISSION_DENIED is a business rule.
  { what: 'throws a permission refusal', pattern: /new PermissionError\((?!.*,\s*'[A-Z][A-Z_]+'\)\s*;?\s*$)/ },
  // A refusal helper fed a boolean decided by hand, instead of a row of the table asked through may/assertMay.
  { what: 'asserts a boolean decided by hand', pattern: /\bassert(?:Allowed|Permitted|Permission)\s*\(/ },
  { what: 'defines a refusal helper that takes a boolean', pattern: /\(\s*(?:allowed|permitted|may|ok)\s*:\s*boolean\b/ },
];

export interface Stray {
  file: string;
  line: string;
  what: string;
}

/** The lines of `source` that look like a permission decision taken by hand. */
export function strayChecks(file: string, source: string): Stray[] {
  return source.split('\n').flatMap((text) => {
    const line = text.trim();
    if (line.startsWith('//') || line.startsWith('*') || line.startsWith('/*')) return [];
    return strayPatterns.filter((p) => p.pattern.test(line)).map((p) => ({ file, line, what: p.what }));
  });
}

/** Lines that match a pattern but decide no permission: file, a fragment of the line, and why. */
const notPermissions: { file: string; fragment: string; why: string }[] = [
  { file: 'src/cli/accounts.ts', fragment: 'admin: user.admin', why: 'prints a user' },
  { file: 'src/cli/accounts.ts', fragment: 'admin: values.admin === true', why: 'creates an account from the command line' },
  {
    file: 'src/services/journeys/graph-validation.ts',
    fragment: 'graph.settings.educators.filter((id) => id !== exam.ownerId)',
    why: 'the owner holds admin; the policy is asked about the other educators',
  },
  { file: 'src/services/bootstrap/bootstrap.service.ts', fragment: 'admin: input.admin ?? false', why: 'creates the first user, an administrator if asked' },
  { file: 'src/services/bootstrap/bootstrap.service.ts', fragment: 'existing.admin ? existing', why: 'makes the first user an administrator' },
  { file: 'src/services/grading/grading.service.ts', fragment: 'export const isOwn', why: "the `own` flag a preset shows; changing it is the table's grading-preset:update" },
  { file: 'src/services/questions/questions.service.ts', fragment: 'list.find((t) => t.ownerId === ctx.viewer.user.id)', why: 'among tags of one title, prefers the caller’s own' },
  {
    file: 'src/services/questions/questions.service.ts',
    fragment: "current.ownerId !== (existing?.ownerId ?? me.id)) throw refused('question:organization:update')",
    why: 'a concurrent create: the organization was decided for another owner; the refusal is the row’s',
  },
  { file: 'src/services/organizations/content-organization.ts', fragment: 'const owner = content.ownerId === ctx.viewer.user.id', why: 'loads the owner, once assertMay allowed' },
  { file: 'src/services/competencies/access.ts', fragment: "if (access.canReport) return { scope: 'organization'", why: 'chooses the scope of a report assertMay allowed' },
  { file: 'src/services/exams/settings.rules.ts', fragment: 'this.known.manager ??', why: "a remembered answer of can('exam:settings:manage')" },
  { file: 'src/services/plays/plays.service.ts', fragment: 'const playError = (rule: string, code: string)', why: 'rules of a play, each with its own code' },
  {
    file: 'src/services/users/users.service.ts',
    fragment: 'if (user.id === ctx.viewer.user.id || user.id === ctx.viewer.owner.id)',
    why: 'the calling account, refused below whatever the permissions (disable, delete)',
  },
  { file: 'src/services/users/users.service.ts', fragment: "'You cannot disable the account making this call'", why: 'protects the calling account, whatever the permissions' },
  { file: 'src/services/users/users.service.ts', fragment: "'You cannot delete the account making this call'", why: 'protects the calling account, whatever the permissions' },
  {
    file: 'src/services/users/assume.service.ts',
    fragment: 'record.issuerId !== ctx.viewer.owner.id',
    why: "scopes the lookup to the application owner's own tokens: another's is answered as one that does not exist",
  },
  { file: 'src/services/content/content-types.ts', fragment: "'You cannot transfer the integration making this call'", why: 'protects the calling integration, whatever the permissions' },
  { file: 'src/services/integrations/integrations.service.ts', fragment: "'You cannot delete the integration making this call'", why: 'protects the calling integration, whatever the permissions' },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const outsideAuth = () =>
  sourceFiles(join(root, 'src'))
    .map((path) => relative(root, path))
    // The error model defines the refusal's code.
    .filter((file) => !file.startsWith('src/auth/') && file !== 'src/errors.ts' && file !== 'src/error-codes.ts')
    .flatMap((file) => strayChecks(file, readFileSync(join(root, file), 'utf8')));

const explained = (stray: Stray) => notPermissions.some((n) => n.file === stray.file && stray.line.includes(n.fragment));

describe('permission decisions outside the policy', () => {
  it('no code outside src/auth tests administrators, owners or organization roles by hand, or throws its own refusal', () => {
    const strays = outsideAuth().filter((s) => !explained(s));
    expect(strays.map((s) => `${s.file}: ${s.what}: ${s.line}`)).toEqual([]);
  });

  it('every listed exception still names a line of the source', () => {
    const strays = outsideAuth();
    const stale = notPermissions.filter((n) => !strays.some((s) => s.file === n.file && s.line.includes(n.fragment)));
    expect(stale).toEqual([]);
  });

  it('finds the checks it is meant to find, and leaves business rules and comments alone', () => {
    const found = (line: string) => strayChecks('x.ts', line).map((s) => s.what);
    expect(found('  if (!ctx.viewer.user.admin) throw new PermissionError(\'Only administrators\');')).toEqual(['tests instance administration', 'throws a permission refusal']);
    expect(found('  if (preset.ownerId !== ctx.viewer.user.id) return;')).toEqual(['tests ownership']);
    expect(found('  if (ctx.viewer.user.id === target.createdById) return;')).toEqual(['tests ownership']);
    expect(found('  if (user?.createdById === me.id) return;')).toEqual(['tests ownership']);
    expect(found('  assertOrganization(access.manager, "x");')).toEqual(['tests an organization role']);
    expect(found("  throw new AppError(403, 'PERMISSION_DENIED', 'No');")).toEqual(['names the permission refusal']);
    expect(found("  throw new ArgumentError(name, 'only managers may', 'PERMISSION_DENIED');")).toEqual(['names the permission refusal']);
    expect(found("  description: 'One tag (NOT_FOUND or PERMISSION_DENIED otherwise).',")).toEqual([]);
    expect(found("  throw new PermissionError('You may not', 'PERMISSION_DENIED');")).toEqual(['names the permission refusal']);
    expect(found("  if (!rules.archive) throw new PermissionError('Archiving is off', 'ARCHIVE_DISABLED');")).toEqual([]);
    expect(found('  // if (!viewer.user.admin) throw new PermissionError()')).toEqual([]);
    expect(found("  const data = { admin: true, ownerId: me.id };")).toEqual([]);
    expect(found("  assertAllowed(member === 1, 'Only active members');")).toEqual(['asserts a boolean decided by hand']);
    expect(found("export function assertAllowed(allowed: boolean, message = 'Permission denied'): void {")).toEqual(['asserts a boolean decided by hand', 'defines a refusal helper that takes a boolean']);
    expect(found("  assertMay(ctx.viewer.user, 'class:assignments:work', membership);")).toEqual([]);
    expect(found('  const managed = may(ctx.viewer.user, \'user:manage\', user) || user.id === ctx.viewer.owner.id;')).toEqual(['tests the application owner']);
    expect(found('  if (ctx.viewer.owner.id !== record.issuerId) return;')).toEqual(['tests the application owner']);
    expect(found("  const managed = may(ctx.viewer.user, 'user:assume', { target: user, viewer: ctx.viewer });")).toEqual([]);
    expect(found('  issuerId: ctx.viewer.owner.id,')).toEqual([]);
  });

  it('the policy offers no refusal helper that takes a boolean decided elsewhere', () => {
    const helpers = sourceFiles(join(root, 'src/auth'))
      .map((path) => relative(root, path))
      .flatMap((file) => strayChecks(file, readFileSync(join(root, file), 'utf8')))
      .filter((s) => s.what === 'defines a refusal helper that takes a boolean' || s.what === 'asserts a boolean decided by hand');
    expect(helpers.map((s) => `${s.file}: ${s.line}`)).toEqual([]);
  });
});
