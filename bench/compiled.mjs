// Runs a benchmark as `npm start` runs the service: compiled by esbuild to plain JavaScript, with
// the options of src/scripts/build.mjs, instead of through tsx's loader. tsx compiles with
// `keepNames`, which gives every function its name when it is created: a closure made per call
// then also costs a property definition, and the REST path measured about a third more
// instructions per request under tsx than compiled (bench/cpu-per-request.ts with
// BENCH_MEASURE=instructions). The benchmark is bundled into dist/bench/<name>/ and run in this
// process, with its arguments.
//
//   node bench/compiled.mjs bench/faces.ts                 (what `npm run bench` does)
//   node bench/compiled.mjs bench/exam-day.ts
//   node bench/compiled.mjs bench/cpu-per-request.ts
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundle, root } from '../src/scripts/build.mjs';

// graphql-js reads NODE_ENV once, when it is loaded: set before the bundle is.
process.env.NODE_ENV ??= 'production';
const entry = process.argv[2];
if (!entry?.endsWith('.ts')) {
  process.stderr.write('usage: node bench/compiled.mjs bench/<name>.ts [arguments]\n');
  process.exit(2);
}
const name = path.basename(entry, '.ts');
const outdir = path.join(root, 'dist', 'bench', name);
// autocannon starts its workers from its own files.
await bundle(path.resolve(entry), outdir, ['autocannon']);
await import(pathToFileURL(path.join(outdir, `${name}.js`)).href);
