import { z } from 'zod';
import { createAccount, createApiIntegration } from '../services/bootstrap/bootstrap.service.ts';
import { rotateIntegrationKeysAsSystem } from '../services/integrations/integrations.service.ts';
import { createUser as createUserSchema } from '../services/users/users.schemas.ts';
import { createIntegration as createIntegrationSchema } from '../services/integrations/integrations.schemas.ts';
import { asSystem } from '../jobs/system.ts';
import { randomToken } from '../ids.ts';
import { text } from '../services/validation.ts';
import { commandHelp, fieldLines, parse, RefusedError, validate, withPlatform, type Command } from './command-line.ts';

/** The same rules as the REST contract's `POST user` and `POST integration`, defined once in the schemas. */
const userInput = createUserSchema.pick({ username: true, email: true, firstName: true, lastName: true, password: true });
const integrationInput = createIntegrationSchema.pick({ title: true }).extend({ owner: text(1, 64) });
const integrationRef = z.object({ integration: text(1, 64) });

export const createUserCommand: Command = {
  synopsis: 'create-user --username U --email E --first-name F --last-name L [--admin] [--password P]',
  summary: '    Creates a user. Without --password, one is generated and printed once.\n    --admin makes the user an instance administrator.',
  async run(argv, io) {
    const values = parse(argv, {
      username: { type: 'string' },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
    });
    if (values.help) return commandHelp(this);
    const input = validate(
      userInput,
      { username: values.username, email: values.email, firstName: values['first-name'], lastName: values['last-name'], password: values.password },
      ['username', 'email', 'firstName', 'lastName'],
    );
    const password = input.password ?? randomToken(16);
    const user = await withPlatform(io, async (platform) => {
      if (await platform.db.user.findUnique({ where: { username: input.username }, select: { id: true } })) {
        throw new RefusedError(`username '${input.username}' is already taken`);
      }
      return createAccount(platform, { ...input, password, admin: values.admin === true }).catch((error: unknown) => {
        // Another process took the name between the check and the insert.
        if ((error as { code?: string }).code === 'P2002') throw new RefusedError(`username '${input.username}' is already taken`);
        throw error;
      });
    });
    return (
      fieldLines({ user: user.id, username: user.username, admin: user.admin, ...(input.password === undefined ? { password } : {}) }) +
      (input.password === undefined ? '(generated: store it now, it is not shown again)\n' : '')
    );
  },
};

export const createIntegrationCommand: Command = {
  synopsis: 'create-integration --owner <username or usr_ id> --title T',
  summary: '    Creates an API integration owned by that user and prints its app and secret once.',
  async run(argv, io) {
    const values = parse(argv, { owner: { type: 'string' }, title: { type: 'string' } });
    if (values.help) return commandHelp(this);
    const { owner: ownerRef, title } = validate(integrationInput, { owner: values.owner, title: values.title }, ['owner', 'title']);
    const created = await withPlatform(io, async (platform) => {
      // An identification string first: a username may look like one, an id is never a username.
      const owner =
        (await platform.db.user.findUnique({ where: { id: ownerRef } })) ?? (await platform.db.user.findUnique({ where: { username: ownerRef } }));
      if (!owner) throw new RefusedError(`no user with username or identification string '${ownerRef}'`);
      if (!owner.enabled) io.stderr(`warning: ${owner.username} is disabled; the credentials work once the user is enabled\n`);
      return createApiIntegration(platform, owner, title);
    });
    return (
      fieldLines({ integration: created.integration.id, owner: created.integration.ownerId, app: created.app, secret: created.secret }) +
      '(store the secret now; an administrator or the owner can read it again with GET integration:keys)\n'
    );
  },
};

export const rotateSecretCommand: Command = {
  synopsis: 'rotate-secret --integration <int_ id or app>',
  summary:
    "    Replaces an integration's secret (an LTI 1.3 integration: its key pair) and prints the new one.\n" +
    '    The previous secret stops working at once; the app id stays.',
  async run(argv, io) {
    const values = parse(argv, { integration: { type: 'string' } });
    if (values.help) return commandHelp(this);
    const { integration: ref } = validate(integrationRef, { integration: values.integration }, ['integration']);
    const { integration, keys } = await withPlatform(io, (platform) => rotateIntegrationKeysAsSystem(asSystem(platform), ref));
    const { pem, ...oneLine } = keys;
    return (
      fieldLines({ integration: integration.id, ...oneLine }) +
      (pem ? `pem:\n${pem.trimEnd()}\n` : '') +
      '(the previous secret no longer works; give the new one to whoever uses this integration)\n'
    );
  },
};
