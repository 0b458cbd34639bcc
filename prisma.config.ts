import { defineConfig } from 'prisma/config';

// The migration history and schema live under prisma/. Migrations are created and applied by
// src/scripts/migrate.ts (Prisma's schema engine in WebAssembly), so no engine binary is downloaded.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
