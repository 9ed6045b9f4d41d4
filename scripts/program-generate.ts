// npm run program:generate [-- --check]
//
// Generates the vault program's instruction, account, PDA and error layer (lib/vault/generated/) from
// programs/vault/idl.json with Codama (@codama/nodes-from-anchor reads the Anchor IDL,
// @codama/renderers-js writes @solana/kit code), formatted with the repository's Prettier settings.
// Driven by the IDL alone: an instruction added to idl.json appears after one run. `--check`
// generates into a temporary folder and fails, naming the command to run, when lib/vault/generated/
// differs (npm test runs it beside the typecheck).
//
// Events: renderers-js renders no event nodes, and nodes-from-anchor keeps an event's data struct only
// inside its event node, so each event's struct is added as a defined type (types/<event>.ts, with its
// decoder); the 8-byte discriminator that prefixes it in a log stays in idl.json's `events`.
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import {
  definedTypeNodeFromAnchorV01,
  extractGenerics,
  rootNodeFromAnchor,
  type IdlV01,
} from "@codama/nodes-from-anchor";
import { renderVisitor } from "@codama/renderers-js";
import { visit } from "@codama/visitors-core";
import prettier from "prettier";

import { parseCommandLineOrExit } from "../lib/cli/args";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const IDL_PATH = join(REPO_ROOT, "programs/vault/idl.json");
const GENERATED = join(REPO_ROOT, "lib/vault/generated");
const COMMAND = "npm run program:generate";

/** Codama's tree of the IDL, with every event's data struct as a defined type of the program. */
function rootNodeWithEventTypes(idl: IdlV01): ReturnType<typeof rootNodeFromAnchor> {
  const root = rootNodeFromAnchor(idl);
  const [types, generics] = extractGenerics(idl.types ?? []);
  const eventTypes = (idl.events ?? []).map((event) => {
    const type = types.find((candidate) => candidate.name === event.name);
    if (type === undefined) {
      throw new Error(`programs/vault/idl.json has no type for its event ${event.name}`);
    }
    return definedTypeNodeFromAnchorV01(type, generics);
  });
  return {
    ...root,
    program: { ...root.program, definedTypes: [...(root.program.definedTypes ?? []), ...eventTypes] },
  };
}

async function generate(folder: string): Promise<void> {
  const idl = JSON.parse(await readFile(IDL_PATH, "utf8")) as IdlV01;
  const settings = (await prettier.resolveConfig(join(GENERATED, "index.ts"))) ?? {};
  await visit(
    rootNodeWithEventTypes(idl),
    renderVisitor(folder, {
      deleteFolderBeforeRendering: true,
      formatCode: true,
      prettierOptions: { ...settings, parser: "typescript" },
      syncPackageJson: false,
    }),
  );
}

/** Every file under `folder`, by path relative to it, with its text. */
async function filesOf(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  let entries;
  try {
    entries = await readdir(folder, { recursive: true, withFileTypes: true });
  } catch {
    return files;
  }
  for (const entry of entries) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(relative(folder, path), await readFile(path, "utf8"));
    }
  }
  return files;
}

async function check(): Promise<number> {
  const scratch = await mkdtemp(join(process.env.TMPDIR ?? tmpdir(), "program-generate-"));
  try {
    await generate(scratch);
    const expected = await filesOf(scratch);
    const committed = await filesOf(GENERATED);
    const differing = [...new Set([...expected.keys(), ...committed.keys()])]
      .filter((path) => expected.get(path) !== committed.get(path))
      .sort();
    if (differing.length > 0) {
      console.error(
        `lib/vault/generated/ is not what programs/vault/idl.json generates (${differing.join(", ")}).\n` +
          `Run \`${COMMAND}\` and commit the result.`,
      );
      return 1;
    }
    console.log(`lib/vault/generated/ matches programs/vault/idl.json (${expected.size} files)`);
    return 0;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const { values } = parseCommandLineOrExit(
    "program:generate",
    "Usage: npm run program:generate [-- --check]",
    process.argv.slice(2),
    { check: { type: "boolean" } },
  );
  if (values.check === true) {
    return check();
  }
  await generate(GENERATED);
  console.log(`Generated lib/vault/generated/ from programs/vault/idl.json`);
  return 0;
}

process.exitCode = await main();
