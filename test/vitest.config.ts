import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The repository root, wherever the config file lives.
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: {
    // graphql has a CommonJS build (main) and an ES build (module) and no exports map. Node gives
    // yoga and Pothos the CommonJS one; our code must get that same copy, or graphql's
    // instanceof checks see two realms ("Cannot use GraphQLSchema from another module or realm").
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each file opens its own database (in-memory PGlite, or a PostgreSQL schema of its own).
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
