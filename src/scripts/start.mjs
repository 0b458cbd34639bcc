// `npm start`: builds dist/ when the sources changed, then runs the compiled service in this very
// process. No child process: npm passes a signal on to its child, the script's shell, which the
// script replaces (`exec node …` in package.json), so SIGTERM to `npm start` reaches the service
// itself and nothing outlives it.
import { pathToFileURL } from 'node:url';
import { buildIfStale, entry } from './build.mjs';

// graphql-js skips its development checks (a multi-realm test on every failed instanceof, several
// per field) and Prisma formats errors minimally; set NODE_ENV to something else to keep them.
process.env.NODE_ENV ??= 'production';
await buildIfStale();
await import(pathToFileURL(entry).href);
