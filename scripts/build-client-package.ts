// Builds packages/client (@vault-gateway/client): the typed client (lib/client/index.ts) bundled by
// esbuild into ESM (dist/index.js) and CommonJS (dist/index.cjs) for plain Node and bundlers, with its
// two runtime dependencies, @solana/web3.js and openapi-fetch, left as imports and every other module
// it uses (the check, the flow, the IDL and the codecs generated from it) inside the bundle; and its declarations by tsc
// (dist/types, entered by dist/index.d.ts and dist/index.d.cts). Refuses to build when the client's
// import graph reaches the pages (lib/web, components, app).
//
//   npx tsx scripts/build-client-package.ts [--out <dir>]   (default packages/client/dist)
import { execFile } from "node:child_process";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { build, type Metafile } from "esbuild";

import { parseCommandLineOrExit } from "../lib/cli/args";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE = join(ROOT, "packages/client");
const ENTRY = join(ROOT, "lib/client/index.ts");

/** What the package may import at run time: its package.json's dependencies, nothing else. */
async function runtimeDependencies(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(PACKAGE, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  return Object.keys(manifest.dependencies);
}

const PAGES = /^(lib\/web\/|components\/|app\/)/;

/** The pages' files the bundle took in, as repository paths (none, or the build fails). */
export function pagesIn(metafile: Metafile): string[] {
  return Object.keys(metafile.inputs).filter((input) => PAGES.test(input));
}

export interface ClientPackageBuild {
  outDir: string;
  /** Bytes of the ESM and CJS bundles. */
  sizes: { esm: number; cjs: number };
  /** Repository files inside the bundle (lib/…), for the record. */
  inputs: string[];
}

async function bundle(format: "esm" | "cjs", outfile: string, external: string[]): Promise<Metafile> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile,
    bundle: true,
    format,
    platform: "neutral",
    target: "es2022",
    // Packages' builds for any platform (@solana/kit exports only per-platform builds: the browser's,
    // which Node runs), then their ESM, then CommonJS; JSON (the IDL) inlined.
    mainFields: ["browser", "module", "main"],
    conditions: format === "esm" ? ["browser", "import", "default"] : ["browser", "require", "default"],
    external,
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
  });
  if (result.metafile === undefined) {
    throw new Error("esbuild returned no metafile");
  }
  return result.metafile;
}

const execFileAsync = promisify(execFile);

/**
 * tsc keeps the sources' extensionless relative specifiers; Node's ESM resolution (and TypeScript's
 * node16/nodenext, which partners' projects use) needs the file's extension, so each gets ".js".
 */
async function addExtensions(directory: string): Promise<void> {
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) {
      continue;
    }
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, "utf8");
    const fixed = text.replace(/(from |import\()"(\.\.?\/[^"]+?)(?<!\.js|\.json)"/g, '$1"$2.js"');
    if (fixed !== text) {
      await writeFile(file, fixed);
    }
  }
}

async function declarations(outDir: string): Promise<void> {
  const typesDir = join(outDir, "types");
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  await execFileAsync(
    tsc,
    [
      "--declaration",
      "--emitDeclarationOnly",
      "--skipLibCheck",
      "--strict",
      "--resolveJsonModule",
      "--esModuleInterop",
      "--module",
      "esnext",
      "--moduleResolution",
      "bundler",
      "--target",
      "es2022",
      "--rootDir",
      ROOT,
      "--outDir",
      typesDir,
      ENTRY,
    ],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  await addExtensions(typesDir);
  const entry = relative(outDir, join(typesDir, "lib/client/index.js")).replace(/\\/g, "/");
  const reexport = `export * from "./${entry}";\n`;
  await writeFile(join(outDir, "index.d.ts"), reexport);
  await writeFile(join(outDir, "index.d.cts"), reexport);
}

export async function buildClientPackage(outDir = join(PACKAGE, "dist")): Promise<ClientPackageBuild> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const external = await runtimeDependencies();
  const [esm, cjs] = await Promise.all([
    bundle("esm", join(outDir, "index.js"), external),
    bundle("cjs", join(outDir, "index.cjs"), external),
  ]);
  const pages = pagesIn(esm);
  if (pages.length > 0) {
    throw new Error(`The client's bundle reaches the pages: ${pages.join(", ")}`);
  }
  await declarations(outDir);
  const size = (metafile: Metafile) =>
    Object.values(metafile.outputs).reduce((total, output) => total + output.bytes, 0);
  return {
    outDir,
    sizes: { esm: size(esm), cjs: size(cjs) },
    inputs: Object.keys(esm.inputs).filter((input) => !input.startsWith("node_modules/")),
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseCommandLineOrExit(
    "build-client-package",
    "Usage: npx tsx scripts/build-client-package.ts [--out <dir>]   (default packages/client/dist)",
    process.argv.slice(2),
    { out: { type: "string" } },
  );
  const out = values.out;
  const built = await buildClientPackage(out === undefined ? undefined : resolve(out));
  console.log(
    `built ${relative(ROOT, built.outDir)}: index.js ${built.sizes.esm} B, index.cjs ${built.sizes.cjs} B, ` +
      `${built.inputs.length} repository files inside`,
  );
}
