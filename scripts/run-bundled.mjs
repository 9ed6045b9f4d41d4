// Runs a TypeScript command-line script on plain Node, for a command that should answer at once
// (`npm run keys`): esbuild bundles the script's own modules into one file (the packages it imports
// stay external, loaded from node_modules as usual) and Node imports that. Under tsx each module goes
// through tsx's loader: ~0.6 s of CPU for the keys CLI, which is most of its run on a busy machine.
// The bundle is kept under node_modules/.cache, named by its content, so a run after a change builds
// a new one and concurrent runs never read a half-written file.
// Usage: node scripts/run-bundled.mjs <script.ts> [its arguments…]
import console from "node:console";
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

import { build } from "esbuild";

const [script, ...args] = process.argv.slice(2);
if (script === undefined || !script.endsWith(".ts")) {
  console.error("Usage: node scripts/run-bundled.mjs <script.ts> [its arguments…]");
  process.exit(2);
}

/**
 * Each module keeps its own import.meta (its source file's URL, directory and name), as under tsx: a
 * script that checks whether it is the one Node ran, or finds files beside itself, behaves the same.
 */
const ownImportMeta = {
  name: "own-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async ({ path }) => {
      if (path.includes(`${sep}node_modules${sep}`)) {
        return undefined;
      }
      const source = await readFile(path, "utf8");
      const own = {
        "import.meta.url": JSON.stringify(pathToFileURL(path).href),
        "import.meta.dirname": JSON.stringify(dirname(path)),
        "import.meta.filename": JSON.stringify(path),
      };
      const contents = source.replace(
        /\bimport\.meta\.(url|dirname|filename)\b/g,
        (text) => own[/** @type {keyof typeof own} */ (text)],
      );
      return { contents, loader: extname(path).slice(1).replace(/^[cm]/, "") };
    });
  },
};

const result = await build({
  entryPoints: [resolve(script)],
  plugins: [ownImportMeta],
  bundle: true,
  write: false,
  platform: "node",
  format: "esm",
  packages: "external",
  target: `node${process.versions.node}`,
  logLevel: "warning",
}).catch(() => {
  // esbuild has printed what is wrong (logLevel).
  process.exit(1);
});
const code = result.outputFiles[0]?.contents;
if (code === undefined) {
  throw new Error(`esbuild produced nothing for ${script}`);
}
const directory = resolve("node_modules/.cache/run-bundled");
const name = `${basename(script, ".ts")}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`;
const file = join(directory, name);
const exists = await stat(file).then(
  () => true,
  () => false,
);
if (!exists) {
  await mkdir(directory, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, code);
  await rename(partial, file);
}
// The script sees the arguments as if Node had run it: [node, script, ...args].
process.argv = [process.argv[0] ?? process.execPath, resolve(script), ...args];
await import(pathToFileURL(file).href);
