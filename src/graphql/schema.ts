import { builder } from './builder.ts';
import './users/user.type.ts';
import './users/users.mutations.ts';
import './integrations/integration.type.ts';
import './instance/instance.ts';
import './organizations/organization.type.ts';

/** The GraphQL schema: every domain registers its types on the builder when imported above. */
export const schema = builder.toSchema({ sortSchema: true });
