// Compiles the service to dist/ (gitignored): one ES module bundle of src/ and the packages it
// uses, plus chunks for what loads on demand (the schema engine, only when migrations are pending;
// nodemailer, with the first email). The service then runs on plain Node, with no TypeScript loader
// in memory. Bundling the packages too halves the time to ready: Node no longer finds, reads and
// compiles some 1,500 files one by one, nor scans each CommonJS package for its exports when an ES
// module imports it. Left out: packages that read files beside their own code at run time (PGlite's
// WebAssembly and data, the schema engine's WebAssembly), pg's optional native binding, esbuild.
//
//   node src/scripts/build.mjs          build now
//   import { buildIfStale } from ...     build when a source is newer than the last build (npm start)
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const entry = path.join(root, 'dist', 'main.js');

/** What the bundle is made of: src/ (generated client included) and the installed packages. */
const inputs = ['src', 'package.json', 'package-lock.json', 'tsconfig.json'].map((name) => path.join(root, name));

const EXTERNAL = ['@electric-sql/pglite', '@electric-sql/pglite/*', '@prisma/schema-engine-wasm', '@prisma/schema-engine-wasm/*', 'pg-native', 'esbuild'];

function newestMtime(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, name)));
  return newest;
}

/**
 * Bundles `entry` (a TypeScript module of this project) into `outdir` as the service is bundled:
 * one ES module of the code and the packages it uses, chunks for what loads on demand.
 */
export async function bundle(entry, outdir, external = []) {
  // esbuild is loaded only when a build is needed: a start without one does not pay for it.
  const esbuild = await import('esbuild');
  // Chunk names carry a hash: without this, every build would leave the last one's chunks behind.
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...EXTERNAL, ...external],
    // CommonJS packages in an ES module bundle still call require() (for Node's own modules).
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

export async function build() {
  await bundle(path.join(root, 'src', 'main.ts'), path.join(root, 'dist'));
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
