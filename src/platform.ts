import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Platform } from './context.ts';
import type { Db } from './db/client.ts';
import { SecretBox } from './auth/secrets.ts';
import { InstanceSettings } from './services/instance/settings.service.ts';
import { Notifier, recordingTransport, type Transport } from './services/notifications/notifications.service.ts';
import { smtpTransport } from './services/notifications/smtp.ts';
import { CredentialCache } from './auth/credential-cache.ts';
import { LiveResults } from './services/plays/live-results.ts';
import { ExamStarts } from './services/plays/exam-starts.ts';
import { answerWriter, playClaimer } from './services/plays/player-statements.ts';
import { finishOverduePlay, playFinisher } from './services/plays/plays.service.ts';
import { assumeTokenLoader } from './auth/assume-tokens.ts';

/** Wires the long-lived dependencies every request shares. Email goes out by SMTP when SMTP_URL is set. */
export function createPlatform(deps: { config: Config; db: Db; log: Logger; secretKey: Buffer; transport?: Transport }): Platform {
  // Group commits in progress at once: the embedded database has one connection; PostgreSQL's pool of 10 keeps room for other calls.
  const batches = deps.config.database.kind === 'pglite' ? 1 : 4;
  // The embedded database runs on this thread: its batches wait for connections still being accepted (batcher.ts Arrivals).
  const waitForArrivals = deps.config.database.kind === 'pglite';
  const platform: Platform = {
    config: deps.config,
    db: deps.db,
    log: deps.log,
    secrets: new SecretBox(deps.secretKey),
    credentials: new CredentialCache(deps.config.AUTH_CACHE_TTL_MS, assumeTokenLoader(deps.db, batches, waitForArrivals)),
    examStarts: new ExamStarts(deps.config.PLAYER_CACHE_TTL_MS),
    answers: answerWriter(deps.db, batches),
    claims: playClaimer(deps.db, batches, finishOverduePlay, waitForArrivals),
    finishes: playFinisher(() => platform, batches),
    settings: new InstanceSettings(deps.db, { maintenance: deps.config.MAINTENANCE }),
    notifier: new Notifier(
      deps.db,
      deps.transport ?? (deps.config.SMTP_URL ? smtpTransport(deps.config.SMTP_URL, deps.config.mailFrom) : recordingTransport),
      deps.log,
    ),
    live: new LiveResults({ redisUrl: deps.config.REDIS_URL, log: deps.log }),
  };
  return platform;
}
