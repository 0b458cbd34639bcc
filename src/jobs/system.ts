import type { Platform } from '../context.ts';
import { withPlatform } from '../platform-fields.ts';

/**
 * The system as an actor: work done on nobody's request (a job run by a worker: a webhook
 * delivery, an expired export's clean-up, a timer). A request's Context carries a viewer whose
 * permissions every service checks; a SystemContext carries none, and there is no viewer to
 * borrow. A service offers work to the system with a function whose first parameter is a
 * SystemContext: it acts on the system's own authority, and the type keeps the two apart (a
 * request cannot pass its Context there, a task cannot call a function that expects a viewer).
 */
export interface SystemContext extends Platform {
  actor: 'system';
}

export function asSystem(platform: Platform): SystemContext {
  return withPlatform(platform, { actor: 'system' as const });
}
