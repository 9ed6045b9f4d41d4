// Dependencies between the folders of lib/ point one way (README.md, "What is here"): the relative
// imports of every non-test file under lib/ are read, each file is placed in its part (its folder
// lib/<folder>/…; a file directly in lib/ is a part of its own), and a part may import only parts of
// lower layers. Any import against the order, and any circle between parts, fails, naming the files;
// so does an import circle between files (type-only imports count), even inside one part, and an
// import of test support (tests/, e2e/) from a production file.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");
const LIB = join(ROOT, "lib");

/** Bottom first: each part imports only parts of the layers before its own. */
const LAYERS: readonly (readonly string[])[] = [
  ["chain", "cli", "cluster.ts", "csp.ts", "ip-network.ts", "observability", "work-pool.ts"],
  // lib/vault's rooms, bottom first: Codama's output; the program's wire (IDL, accounts, PDAs, events,
  // errors, instructions); the vault's state and rules; the operations (builders and the check of what
  // was built); what reads indexed records, and the way to the chain.
  ["vault/generated"],
  ["vault/program"],
  ["vault/model"],
  ["vault/operations"],
  ["vault/reads", "vault/send"],
  ["store", "actions"],
  ["events", "env-schema.ts"],
  ["webhooks"],
  ["indexer"],
  ["web-config.ts"],
  ["config.ts"],
  ["api"],
  ["web", "operator"],
  ["server", "client", "keeper"],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** lib/api/x.ts → "api"; lib/vault/model/x.ts → "vault/model"; lib/config.ts (or an import of "../config") → "config.ts". */
function partOf(file: string): string {
  const [head, ...rest] = relative(LIB, file).split("/");
  // A room's file, or the room itself (lib/vault/generated, imported as a folder).
  if (head === "vault" && (rest.length > 1 || (rest.length === 1 && !/\.tsx?$/.test(rest[0])))) {
    return `vault/${rest[0]}`;
  }
  return rest.length === 0 ? `${head.replace(/\.tsx?$/, "")}.ts` : head;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]*|@\/[^"]*)"/g;

/** What an import names, relative ("../vault/x") or from the root ("@/lib/vault/x", tsconfig's paths). */
function importTarget(file: string, specifier: string): string {
  return specifier.startsWith("@/") ? join(ROOT, specifier.slice(2)) : resolve(dirname(file), specifier);
}

/** part → imported part → the files that import it. */
function importGraph(): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const file of sourceFiles(LIB)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const target = importTarget(file, match[1]);
      if (!target.startsWith(LIB + "/")) continue;
      const from = partOf(file);
      const to = partOf(target);
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, Set<string>>();
      graph.set(from, edges);
      const files = edges.get(to) ?? new Set<string>();
      edges.set(to, files);
      files.add(relative(ROOT, file));
    }
  }
  return graph;
}

/** The file an import names: the path as written, with .ts or .tsx, or its folder's index; null outside .ts(x). */
function importedFile(target: string): string | null {
  const candidates = [
    target,
    `${target}.ts`,
    `${target}.tsx`,
    join(target, "index.ts"),
    join(target, "index.tsx"),
  ];
  return (
    candidates.find((path) => /\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile()) ?? null
  );
}

/** Non-test file under lib/ → the lib/ files it imports (each with no further files to name). */
/**
 * Codama's output (npm run program:generate) is left out: its instruction files import the program's
 * address from programs/, whose parser imports them back. That is the renderer's layout, rewritten on
 * every generation; our code only enters it through lib/vault/program/instructions.ts.
 */
const GENERATED = `${LIB}/vault/generated/`;

function fileGraph(): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const file of sourceFiles(LIB)) {
    if (file.startsWith(GENERATED)) continue;
    const from = relative(ROOT, file);
    const edges = new Map<string, Set<string>>();
    graph.set(from, edges);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = importedFile(importTarget(file, match[1]));
      if (target !== null && target.startsWith(LIB + "/")) edges.set(relative(ROOT, target), new Set());
    }
  }
  return graph;
}

/** Strongly connected components (Tarjan) with more than one node (a part, or a file). */
function circles(graph: Map<string, Map<string, Set<string>>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (part: string): void => {
    index.set(part, next);
    low.set(part, next);
    next += 1;
    stack.push(part);
    onStack.add(part);
    for (const to of graph.get(part)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(part, Math.min(low.get(part) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(part, Math.min(low.get(part) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(part) === index.get(part)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== part);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const part of graph.keys()) if (!index.has(part)) visit(part);
  return found;
}

function layerOf(part: string): number {
  const layer = LAYERS.findIndex((parts) => parts.includes(part));
  if (layer === -1) throw new Error(`lib/${part} has no layer in tests/architecture.test.ts (and README.md)`);
  return layer;
}

/** Where test support lives: a production file under lib/ imports none of it. */
const TEST_SUPPORT = ["tests", "e2e"].map((folder) => join(ROOT, folder));

describe("lib/ import structure", () => {
  it("imports no test support", () => {
    const found: string[] = [];
    for (const file of sourceFiles(LIB)) {
      for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const target = importTarget(file, match[1]);
        if (TEST_SUPPORT.some((folder) => target.startsWith(folder + "/"))) {
          found.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
        }
      }
    }
    expect(found, found.join("\n")).toEqual([]);
  });

  it("imports only from lower layers", () => {
    const upward: string[] = [];
    for (const [from, edges] of importGraph()) {
      for (const [to, files] of edges) {
        if (layerOf(to) >= layerOf(from)) upward.push(`${from} -> ${to}: ${[...files].sort().join(", ")}`);
      }
    }
    expect(upward, upward.join("\n")).toEqual([]);
  });

  it("keeps lib/vault in rooms: at most 12 files directly in it, every folder a room of the order", () => {
    const entries = readdirSync(join(LIB, "vault"), { withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    expect(files.length, files.join(", ")).toBeLessThanOrEqual(12);
    const rooms = entries.filter((entry) => entry.isDirectory()).map((entry) => `vault/${entry.name}`);
    for (const room of rooms) expect(LAYERS.flat(), `lib/${room} has no layer`).toContain(room);
  });

  // Implied by the order, but named on its own: a circle is what the issue forbids outright.
  it("has no circle between parts", () => {
    const edges = circleEdges(importGraph());
    expect(edges, edges.join("\n")).toEqual([]);
  });

  // The order says nothing inside a part: lib/api/endpoints.ts → ops/get-open-api-document.ts → openapi.ts →
  // endpoints.ts was one such circle.
  it("has no circle between files", () => {
    const edges = circleEdges(fileGraph());
    expect(edges, edges.join("\n")).toEqual([]);
  });
});

/** Every import inside a circle, as "from -> to" (and, between parts, ": the importing files"). */
function circleEdges(graph: Map<string, Map<string, Set<string>>>): string[] {
  const edges: string[] = [];
  for (const component of circles(graph)) {
    const members = new Set(component);
    for (const from of component) {
      for (const [to, files] of graph.get(from) ?? []) {
        if (!members.has(to)) continue;
        const importers = files.size === 0 ? "" : `: ${[...files].sort().join(", ")}`;
        edges.push(`${from} -> ${to}${importers}`);
      }
    }
  }
  return edges;
}

/** An endpoint's definition names its operation id once: as a property, or as the API reference's first argument. */
const OPERATION_ID = /operationId: "|docsAsset\(\s*"/g;

describe("the edge's layout", () => {
  it("defines at most one endpoint per lib/api file, in a file named after its operation id", () => {
    const crowded: string[] = [];
    const misnamed: string[] = [];
    for (const file of sourceFiles(join(LIB, "api"))) {
      const text = readFileSync(file, "utf8");
      const count = text.match(OPERATION_ID)?.length ?? 0;
      if (count > 1) crowded.push(`${relative(ROOT, file)}: ${count}`);
      const id = /operationId: "(\w+)"|docsAsset\(\s*"(\w+)"/.exec(text);
      const operationId = id?.[1] ?? id?.[2];
      if (operationId === undefined) continue;
      const expected = operationId.replace(/(?<!^)(?=[A-Z])/g, "-").toLowerCase();
      if (!file.endsWith(`/${expected}.ts`)) misnamed.push(`${relative(ROOT, file)}: ${operationId}`);
    }
    expect(crowded, crowded.join("\n")).toEqual([]);
    expect(misnamed, misnamed.join("\n")).toEqual([]);
  });

  it("hands /api to Next.js through one catch-all route file", () => {
    const routeFiles = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? walk(join(dir, entry.name))
          : entry.name === "route.ts"
            ? [join(dir, entry.name)]
            : [],
      );
    })(join(ROOT, "app", "api")).map((file) => relative(ROOT, file));
    expect(routeFiles).toEqual(["app/api/[...path]/route.ts"]);
  });
});
