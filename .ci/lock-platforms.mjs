// npm run lock:platforms — completes package-lock.json with the other platforms' native packages.
//
// The registry these machines reach does not serve every platform's build of a native package (for
// example litesvm-darwin-arm64 answers 404), so npm writes a lock without them, and `npm ci` then
// refuses the lock as out of sync with package.json. Each missing optional dependency is added as an
// entry that names its os/cpu/libc (read off the package name), so npm ci accepts the lock and skips
// the entry on any machine it was not built for, while a machine it was built for fetches it by
// version from its own registry as usual.
//
// `--check` only reports missing entries and exits 1 when there are any.
import console from "node:console";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const LOCK = join(dirname(fileURLToPath(import.meta.url)), "..", "package-lock.json");
const OSES = [
  "darwin",
  "linux",
  "win32",
  "android",
  "freebsd",
  "openbsd",
  "netbsd",
  "sunos",
  "aix",
  "openharmony",
];
const CPUS = ["arm64", "x64", "arm", "ia32", "riscv64", "ppc64", "s390x", "loong64", "mips64el", "wasm32"];

/** The os/cpu/libc a platform package is for, read off its name, or null when the name does not say. */
export function platformOf(name) {
  const parts = name.replace(/^@[^/]+\//, "").split("-");
  const os = OSES.find((o) => parts.includes(o));
  const cpu = CPUS.find((c) => parts.includes(c));
  if (cpu === "wasm32") return { cpu: ["wasm32"] };
  if (os === undefined || cpu === undefined) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === "linux" && parts.includes("musl")) entry.libc = ["musl"];
  else if (os === "linux" && parts.some((p) => p.startsWith("gnu"))) entry.libc = ["glibc"];
  return entry;
}

/** Where npm would place `dep` required by the package at `path`: nested first, then each parent. */
function resolves(packages, path, dep) {
  let base = path;
  for (;;) {
    const candidate = `${base === "" ? "" : `${base}/`}node_modules/${dep}`;
    if (packages[candidate] !== undefined) return true;
    if (base === "") return false;
    const at = base.lastIndexOf("/node_modules/");
    base = at === -1 ? "" : base.slice(0, at);
  }
}

export function missingOptionalEntries(lock) {
  const missing = [];
  for (const [path, pkg] of Object.entries(lock.packages)) {
    for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
      if (!resolves(lock.packages, path, dep)) missing.push({ path, dep, range });
    }
  }
  return missing;
}

const USAGE = "Usage: npm run lock:platforms [-- --check]";

function main() {
  // Strict, as every command line here (lib/cli/args.ts, which this plain-node script cannot import).
  let check;
  try {
    check = parseArgs({ options: { check: { type: "boolean" } }, strict: true }).values.check === true;
  } catch (error) {
    console.error(`lock:platforms: ${error.message.split(/\.\s|\n/, 1)[0]}\n\n${USAGE}`);
    process.exit(2);
  }
  const lock = JSON.parse(readFileSync(LOCK, "utf8"));
  const missing = missingOptionalEntries(lock);
  if (check) {
    for (const m of missing)
      console.error(
        `missing from package-lock.json: ${m.dep}@${m.range} (needed by ${m.path || "the root"})`,
      );
    if (missing.length > 0) {
      console.error("run `npm run lock:platforms` after installing packages");
      process.exitCode = 1;
    }
    return;
  }
  for (const { dep, range } of missing) {
    const platform = platformOf(dep);
    if (platform === null) throw new Error(`${dep} is missing from the lock and its name names no platform`);
    const version = range.replace(/^[\^~=]/, "");
    lock.packages[`node_modules/${dep}`] = { version, optional: true, ...platform };
  }
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`package-lock.json: added ${missing.length} platform entries`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
