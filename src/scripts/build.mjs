// Compiles the service to dist/ (gitignored): one ES module bundle of src/ with the packages left
// as imports, plus chunks for what loads on demand (the schema engine, only when migrations are
// pending). The service then runs on plain Node, with no TypeScript loader in memory.
//
//   node src/scripts/build.mjs          build now
//   import { buildIfStale } from ...     build when a source is newer than the last build (npm start)
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const entry = path.join(root, 'dist', 'main.js');

/** What the bundle is made of: src/ (generated client included), and the dependency versions. */
const inputs = [path.join(root, 'src'), path.join(root, 'package.json'), path.join(root, 'tsconfig.json')];

function newestMtime(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, name)));
  return newest;
}

export async function build() {
  // esbuild is loaded only when a build is needed: a start without one does not pay for it.
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'src', 'main.ts')],
    outdir: path.join(root, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** Builds when dist/ is missing or older than a source; answers whether it did. */
export async function buildIfStale() {
  const built = statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= Math.max(...inputs.map(newestMtime))) return false;
  process.stderr.write('Building dist/ from src/ …\n');
  await build();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await build();
