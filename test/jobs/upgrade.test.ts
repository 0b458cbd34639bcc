import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { MIGRATIONS_DIR, migrate } from '../../src/db/migrate.ts';
import { freshPGlite } from '../../src/db/schema-engine.ts';
import { Notifier } from '../../src/services/notifications/notifications.service.ts';

/**
 * Work that was waiting in the outboxes when the service is upgraded to the job kit becomes jobs
 * in the same migration, so nothing pending is lost by the upgrade.
 */

it('the jobs migration turns pending deliveries, messages and export links into jobs', { timeout: 120_000 }, async () => {
  const folders = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const jobsMigration = folders.find((f) => f.endsWith('_jobs'))!;
  const before = await mkdtemp(path.join(tmpdir(), 'before-jobs-'));
  const pglite = await freshPGlite();
  const database = await openDatabase({ kind: 'pglite-instance', pglite });
  try {
    for (const folder of folders.filter((f) => f < jobsMigration)) await cp(path.join(MIGRATIONS_DIR, folder), path.join(before, folder), { recursive: true });
    await cp(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), path.join(before, 'migration_lock.toml'));
    await migrate({ kind: 'pglite', pglite }, before);

    // Written directly: the database is at a migration before the job kit, which today's services do not write to.
    const db = database.prisma;
    const due = new Date('2026-01-02T03:04:05.678Z');
    const valid = new Date('2026-02-01T23:59:59.999Z');
    await db.user.create({ data: { id: 'usr_upgrade', username: 'upgrade', email: 'u@example.com', passwordHash: 'x', firstName: 'U', lastName: 'P', fullName: 'U P', displayName: 'U P' } });
    await db.organization.create({ data: { id: 'org_upgrade', title: 'Upgrade' } });
    await db.webhook.create({ data: { id: 'whk_upgrade', organizationId: 'org_upgrade', title: 'Hook', triggerEvent: 'api', endpoint: 'https://hooks.partner.example/', signingSecretCipher: 'sealed' } });
    await db.webhookDelivery.createMany({
      data: [
        { id: 'dlv_pending', webhookId: 'whk_upgrade', event: 'api', payload: { body: '{}' }, attempts: 2, nextAttemptAt: due },
        { id: 'dlv_done', webhookId: 'whk_upgrade', event: 'api', payload: { body: '{}' }, status: 'delivered', attempts: 1 },
      ],
    });
    await db.notification.createMany({
      data: [
        { id: 'ntf_pending', channel: 'sms', recipient: '+1 5550199', subject: '', body: 'waiting', attempts: 1, nextAttemptAt: due },
        { id: 'ntf_sent', channel: 'sms', recipient: '+1 5550199', subject: '', body: 'gone', status: 'recorded', attempts: 1 },
      ],
    });
    await db.question.create({ data: { id: 'qst_upgrade', externalId: 'q', scope: 'folder:usr_upgrade:/API', ownerId: 'usr_upgrade', type: 'generic', content: 'c' } });
    await db.storedFile.create({ data: { id: 'fil_upgrade', filename: 'q.json', contentType: 'application/json', size: 2, sha256: 'x', data: Buffer.from('{}') } });
    await db.questionExport.create({ data: { id: 'qex_upgrade', questionId: 'qst_upgrade', tokenHash: 'h', tokenCipher: 'c', fileId: 'fil_upgrade', validUntil: valid } });

    // The jobs migration comes first among those pending; later migrations follow it.
    expect(await migrate({ kind: 'pglite', pglite })).toEqual(folders.filter((f) => f >= jobsMigration));
    const jobs = await db.job.findMany({ orderBy: { task: 'asc' }, select: { task: true, payload: true, status: true, runAt: true, attempts: true, dedupeKey: true } });
    expect(jobs).toEqual([
      { task: 'notifications.deliver', payload: { notification: 'ntf_pending' }, status: 'pending', runAt: due, attempts: 1, dedupeKey: 'ntf_pending' },
      { task: 'questions.expire-export', payload: { export: 'qex_upgrade' }, status: 'pending', runAt: valid, attempts: 0, dedupeKey: 'qex_upgrade' },
      { task: 'webhooks.deliver', payload: { delivery: 'dlv_pending' }, status: 'pending', runAt: due, attempts: 2, dedupeKey: 'dlv_pending' },
    ]);

    // And the kit takes them from there: the waiting message goes out as its second attempt.
    expect(await new Notifier(db).deliverPending()).toBe(1);
    expect(await db.notification.findUniqueOrThrow({ where: { id: 'ntf_pending' } })).toMatchObject({ status: 'recorded', attempts: 2 });
  } finally {
    await database.close();
    await pglite.close();
    await rm(before, { recursive: true, force: true });
  }
});
