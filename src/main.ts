import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { openMigratedDatabase } from './startup.ts';
import { loadSecretKey } from './auth/secret-key.ts';
import { createPlatform } from './platform.ts';
import { bootstrap } from './services/bootstrap/bootstrap.service.ts';
import { createApp, type App } from './app.ts';
import { startWorkers } from './jobs/workers.ts';
import { stopOnSignals } from './http/shutdown.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const log = createLogger(config.LOG_LEVEL);
const database = await openMigratedDatabase(config, log);

const secretKey = loadSecretKey(config);
if (secretKey.source !== 'env' && config.database.kind === 'postgres') {
  log.warn('SECRET_KEY is not set: secrets are sealed with a key file in DATA_DIR; every instance must share the same key');
}
const platform = createPlatform({ config, db: database.prisma, log, secretKey: secretKey.key });
if (config.WEBHOOK_ALLOW_PRIVATE) log.warn('WEBHOOK_ALLOW_PRIVATE is set: webhooks may call loopback, private and link-local addresses');

const boot = await bootstrap(platform);
if (boot.generated) {
  // Printed once, on purpose to stdout and not to the log: these are the only credentials of a new instance.
  process.stdout.write(
    `\nA new instance: an administrator (username "admin") owns this API application.\n` +
      `  app:    ${boot.generated.app}\n  secret: ${boot.generated.secret}\n` +
      `Store them now; they are not shown again (read them later with GET integration:keys).\n\n`,
  );
}

// Jobs report to the app's metrics; the first outcome comes after `app` is set.
const workers = startWorkers(platform, undefined, (outcome) => app.metrics.recordJob(outcome));
const app: App = createApp(platform, { workers, pool: database.pool });
stopOnSignals({
  server: app.server.server,
  close: () => app.close(),
  log,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onStopping: () => app.markStopping(),
  workers,
  release: [() => database.close()],
});

await app.listen(config.PORT, config.HOST);
log.info({ url: config.baseUrl, graphql: `${config.baseUrl}/graphql` }, 'service listening');
// Start-up lines are written before /health reports ready, for whoever waits on either.
log.flush(() => app.markReady());
