import type { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../context.ts';
import { newId } from '../../ids.ts';

/** Records a write for the user it is attributed to, inside the write's own transaction. */
export async function audit(ctx: Context, tx: Prisma.TransactionClient, action: string, subject?: string): Promise<void> {
  // Any write may touch credentials (a rotated secret, a disabled owner) or what a start of an
  // exam reads (its period, settings, questions): forget what is cached of them.
  ctx.credentials.clear();
  ctx.examStarts.clear();
  await tx.auditEvent.create({
    data: { id: newId('AuditEvent'), actorId: ctx.viewer.user.id, integrationId: ctx.viewer.integration.id, action, subject },
  });
}
