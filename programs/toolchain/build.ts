// npm run program:build [-- --check] [--out <path>] [--allow-version-drift] [--fixture]
//
// Builds programs/vault into an SBPF v0 program with Debian's rustc and our own linker, following
// /work/shared/SBF-TOOLCHAIN.md: `core` as LTO bitcode in a cached sysroot, the program as a fat-LTO
// staticlib for the sbpf.json target, then linker.ts. `--fixture` rebuilds the linker's test fixture.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommandLineOrExit } from "../../lib/cli/args";
import { linkSbf } from "./linker";

const TOOLCHAIN_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(TOOLCHAIN_DIR, "../..");
const RUSTC = "/usr/bin/rustc";
const APT_PACKAGES = "rustc-web cargo-web rust-web-src";
const TARGET_SPEC = join(TOOLCHAIN_DIR, "sbpf.json");
const TARGET_NAME = "sbpf"; // rustc names a JSON target after the file's stem
const BUILTINS_STUB = join(TOOLCHAIN_DIR, "compiler_builtins.rs");
const PINNED_VERSION_FILE = join(TOOLCHAIN_DIR, "rust-toolchain.txt");

const VAULT_DIR = join(REPO_ROOT, "programs/vault");
const VAULT_SO = join(VAULT_DIR, "vault.so");
const FIXTURE_DIR = join(TOOLCHAIN_DIR, "fixtures");

/** Flags for the sysroot crates: bitcode only, so the program's fat LTO compiles just what it reaches. */
const SYSROOT_FLAGS = [
  "-Clinker-plugin-lto",
  "-Cpanic=immediate-abort",
  "-Copt-level=3",
  "-Ccodegen-units=1",
  "-Zforce-unstable-if-unmarked",
  "--cap-lints=allow",
];

/** Flags for the program crate; panic must match the sysroot's (`immediate-abort`). */
const PROGRAM_FLAGS = [
  "--crate-type=staticlib",
  "-Clto=fat",
  "-Ccodegen-units=1",
  "-Copt-level=3",
  "-Coverflow-checks=off",
  "-Cpanic=immediate-abort",
  "-Cdebuginfo=0",
  "-Cllvm-args=-bpf-stack-size=4096",
];

class BuildError extends Error {
  /** The process exit code; 3 tells CI the toolchain drifted (see .ci/run), 1 anything else. */
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const EXIT_VERSION_DRIFT = 3;

interface Crate {
  name: string;
  source: string;
  edition: string;
  staticlib: string;
}

function main(): void {
  const { values: args } = parseCommandLineOrExit(
    "program:build",
    "Usage: npm run program:build [-- --check] [--out <path>] [--allow-version-drift] [--fixture]",
    process.argv.slice(2),
    {
      check: { type: "boolean", default: false },
      out: { type: "string" },
      "allow-version-drift": { type: "boolean", default: false },
      fixture: { type: "boolean", default: false },
    },
  );
  const started = performance.now();
  const rustcVersion = checkRustc(args["allow-version-drift"]);
  const sysroot = ensureSysroot(rustcVersion);

  if (args.fixture) {
    const staticlib = join(FIXTURE_DIR, "libfixture.a");
    compileCrate(
      { name: "fixture", source: join(FIXTURE_DIR, "fixture.rs"), edition: "2021", staticlib },
      sysroot,
    );
    const linked = linkSbf([readFileSync(staticlib)]);
    report(`built ${relative(REPO_ROOT, staticlib)} (links to ${linked.length} bytes)`, started);
    return;
  }

  const vault: Crate = {
    name: "vault",
    source: join(VAULT_DIR, "src/lib.rs"),
    edition: readEdition(join(VAULT_DIR, "Cargo.toml")),
    staticlib: join(VAULT_DIR, "target/sbf/libvault.a"),
  };
  compileCrate(vault, sysroot);
  const program = linkSbf([readFileSync(vault.staticlib)]);

  if (args.check) {
    checkCommitted(program);
    report(`checked: ${relative(REPO_ROOT, VAULT_SO)} is up to date (${program.length} bytes)`, started);
    return;
  }
  const out = args.out === undefined ? VAULT_SO : resolve(args.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, program);
  report(`built ${displayPath(out)}: ${program.length} bytes`, started);
}

/** Returns `rustc --version`; refuses a missing rustc, and a version drift unless allowed. */
function checkRustc(allowDrift: boolean): string {
  const result = spawnSync(RUSTC, ["--version"], { encoding: "utf8" });
  if (result.error !== undefined || result.status !== 0) {
    throw new BuildError(
      `${RUSTC} is missing. Install Debian's Rust with:\n  apt-get install -y ${APT_PACKAGES}\n` +
        `(rustup's rustc is not used: the build needs Debian's library source and a pinned version.)`,
    );
  }
  const actual = result.stdout.trim();
  const pinned = readFileSync(PINNED_VERSION_FILE, "utf8").trim();
  if (actual !== pinned) {
    const message =
      `Debian's rustc differs from the pinned one, so the output will likely differ from the committed vault.so.\n` +
      `  pinned (${relative(REPO_ROOT, PINNED_VERSION_FILE)}): ${pinned}\n  installed (${RUSTC}): ${actual}`;
    if (!allowDrift) {
      throw new BuildError(
        `${message}\nRe-run with --allow-version-drift to build anyway.`,
        EXIT_VERSION_DRIFT,
      );
    }
    console.warn(`warning: ${message}`);
  }
  return actual;
}

/** Builds `core` and the compiler_builtins stub once per (target spec, rustc, flags); returns the sysroot. */
function ensureSysroot(rustcVersion: string): string {
  const key = createHash("sha256")
    .update(readFileSync(TARGET_SPEC))
    .update(rustcVersion)
    .update(readFileSync(BUILTINS_STUB))
    .update(SYSROOT_FLAGS.join(" "))
    .digest("hex")
    .slice(0, 16);
  const sysroot = join(TOOLCHAIN_DIR, ".cache", `sysroot-${key}`);
  if (existsSync(join(sysroot, "complete"))) return sysroot;

  const started = performance.now();
  console.log(
    `building core for ${TARGET_NAME} into ${relative(REPO_ROOT, sysroot)} (once per rustc/target spec)…`,
  );
  const staging = `${sysroot}.tmp-${process.pid}`;
  const libDir = join(staging, "lib/rustlib", TARGET_NAME, "lib");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(libDir, { recursive: true });
  const librarySource = join(rustcOutput(["--print", "sysroot"]), "lib/rustlib/src/rust/library");
  const common = ["-Zunstable-options", `--target=${TARGET_SPEC}`, ...SYSROOT_FLAGS, `--out-dir=${libDir}`];
  const remap = `--remap-path-prefix=${librarySource}=/rustc/library`;
  rustc([
    "--crate-name=core",
    "--crate-type=rlib",
    "--edition=2024",
    ...common,
    remap,
    join(librarySource, "core/src/lib.rs"),
  ]);
  rustc([
    "--crate-name=compiler_builtins",
    "--crate-type=rlib",
    "--edition=2024",
    ...common,
    `--sysroot=${staging}`,
    remap,
    BUILTINS_STUB,
  ]);
  writeFileSync(join(staging, "complete"), `${rustcVersion}\n`);
  rmSync(sysroot, { recursive: true, force: true });
  renameSync(staging, sysroot);
  console.log(`core built in ${seconds(started)}`);
  return sysroot;
}

/** Compiles a `#![no_std]` crate to a staticlib holding one relocatable eBPF object. */
function compileCrate(crate: Crate, sysroot: string): void {
  if (!existsSync(crate.source)) {
    throw new BuildError(`missing program source ${relative(REPO_ROOT, crate.source)}`);
  }
  mkdirSync(dirname(crate.staticlib), { recursive: true });
  // Relative paths plus the remap keep the checkout directory out of everything rustc records.
  rustc([
    `--crate-name=${crate.name}`,
    `--edition=${crate.edition}`,
    "-Zunstable-options",
    `--target=${TARGET_SPEC}`,
    `--sysroot=${sysroot}`,
    ...PROGRAM_FLAGS,
    `--remap-path-prefix=${REPO_ROOT}=.`,
    "-o",
    relative(REPO_ROOT, crate.staticlib),
    relative(REPO_ROOT, crate.source),
  ]);
}

function checkCommitted(program: Uint8Array): void {
  const label = relative(REPO_ROOT, VAULT_SO);
  if (!existsSync(VAULT_SO)) {
    throw new BuildError(`--check: ${label} does not exist; run npm run program:build`);
  }
  const committed = readFileSync(VAULT_SO);
  if (Buffer.compare(committed, program) === 0) return;
  const scratch = mkdtempSync(join(tmpdir(), "vault-check-"));
  const rebuilt = join(scratch, "vault.so");
  writeFileSync(rebuilt, program);
  throw new BuildError(
    `--check: ${label} differs from a fresh build.\n` +
      `  committed: ${committed.length} bytes, sha256 ${sha256(committed)}\n` +
      `  rebuilt:   ${program.length} bytes, sha256 ${sha256(program)} (written to ${rebuilt})\n` +
      `Run npm run program:build and commit ${label}.`,
  );
}

function readEdition(cargoToml: string): string {
  if (!existsSync(cargoToml)) return "2021";
  return /^\s*edition\s*=\s*"(\d{4})"/m.exec(readFileSync(cargoToml, "utf8"))?.[1] ?? "2021";
}

function rustc(args: string[]): void {
  const result = spawnSync(RUSTC, args, { cwd: REPO_ROOT, env: rustcEnv(), stdio: "inherit" });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) throw new BuildError(`rustc failed (exit ${result.status ?? "signal"})`);
}

function rustcOutput(args: string[]): string {
  const result = spawnSync(RUSTC, args, { cwd: REPO_ROOT, env: rustcEnv(), encoding: "utf8" });
  if (result.status !== 0) throw new BuildError(`rustc ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout.trim();
}

function rustcEnv(): NodeJS.ProcessEnv {
  return { ...process.env, RUSTC_BOOTSTRAP: "1" };
}

function displayPath(path: string): string {
  const fromRoot = relative(REPO_ROOT, path);
  return fromRoot.startsWith("..") ? path : fromRoot;
}

function report(what: string, started: number): void {
  console.log(`${what} in ${seconds(started)}`);
}

function seconds(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

try {
  main();
} catch (error) {
  console.error(error instanceof BuildError ? `program:build: ${error.message}` : error);
  process.exitCode = error instanceof BuildError ? error.exitCode : 1;
}
