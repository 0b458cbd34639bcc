import type { Integration, User } from '../generated/prisma/client.ts';

/**
 * Who is calling. The application acts as its owner, with the owner's permissions; with an
 * `assume` token it acts as the assumed user. `user` is the one every action is attributed to.
 */
export interface Viewer {
  user: User;
  owner: User;
  integration: Integration;
  assumeTokenId?: string;
}
