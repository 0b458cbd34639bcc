// `npm start`: builds dist/ when the sources changed, then runs the compiled service in this very
// process. No child process: a signal sent to `npm start` (which npm passes on to its child) reaches
// the service itself, and nothing outlives it.
import { pathToFileURL } from 'node:url';
import { buildIfStale, entry } from './build.mjs';

await buildIfStale();
await import(pathToFileURL(entry).href);
