// `npm start`: builds dist/ when the sources changed, then runs the compiled service in this very
// process. No child process: npm passes a signal on to its child, the script's shell, which the
// script replaces (`exec node …` in package.json), so SIGTERM to `npm start` reaches the service
// itself and nothing outlives it.
import { pathToFileURL } from 'node:url';
import { buildIfStale, entry } from './build.mjs';

await buildIfStale();
await import(pathToFileURL(entry).href);
