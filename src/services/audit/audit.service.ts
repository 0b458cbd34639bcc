import type { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../context.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { newId } from '../../ids.ts';

/**
 * Records a write for the user it is attributed to, inside the write's own transaction; a write
 * of the system (an operator's command, a job) is recorded without an actor.
 */
export async function audit(ctx: Context | SystemContext, tx: Prisma.TransactionClient, action: string, subject?: string): Promise<void> {
  // Any write may touch credentials (a rotated secret, a disabled owner) or what a start of an
  // exam reads (its period, settings, questions): forget what is cached of them.
  ctx.credentials.clear();
  ctx.examStarts.clear();
  const actor = 'viewer' in ctx ? ctx.viewer : undefined;
  await tx.auditEvent.create({
    data: { id: newId('AuditEvent'), actorId: actor?.user.id ?? null, integrationId: actor?.integration.id ?? null, action, subject },
  });
}
