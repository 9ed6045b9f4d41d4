// npm run test:rust [-- <cargo test args>]
//
// Runs the vault crate's host unit tests with Debian's cargo/rustc (offline; the crate has no
// dependencies). Without /usr/bin/rustc: installs it when running as root with apt-get, else SKIPS.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const VAULT_DIR = join(REPO_ROOT, "programs/vault");
const RUSTC = "/usr/bin/rustc";
const CARGO = "/usr/bin/cargo";
const APT_GET = "/usr/bin/apt-get";
const APT_PACKAGES = ["rustc-web", "cargo-web", "rust-web-src"];

function main(): number {
  if (!existsSync(RUSTC) || !existsSync(CARGO)) {
    if (process.getuid?.() !== 0 || !existsSync(APT_GET)) return skip();
    console.log(
      `${RUSTC} is missing; installing Debian's Rust: apt-get install -y ${APT_PACKAGES.join(" ")}`,
    );
    if (!run(APT_GET, ["update"]) || !run(APT_GET, ["install", "-y", ...APT_PACKAGES])) {
      console.error("test:rust: apt-get failed to install Rust");
      return 1;
    }
  }
  const ok = run(
    CARGO,
    ["test", "--offline", "--manifest-path", join(VAULT_DIR, "Cargo.toml"), ...process.argv.slice(2)],
    {
      ...process.env,
      // rustup's toolchain may come first on PATH; everything cargo spawns must be Debian's.
      PATH: `/usr/bin:${process.env.PATH ?? ""}`,
      RUSTC,
      RUSTDOC: "/usr/bin/rustdoc",
      CARGO_TARGET_DIR: join(VAULT_DIR, "target/host"),
    },
  );
  return ok ? 0 : 1;
}

function skip(): number {
  console.warn(
    `\n*** SKIPPED: vault host unit tests (${RUSTC} is not installed).\n` +
      `*** Install Debian's Rust to run them: apt-get install -y ${APT_PACKAGES.join(" ")}\n`,
  );
  return 0;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, env, stdio: "inherit" });
  if (result.error !== undefined) console.error(`test:rust: cannot run ${command}: ${result.error.message}`);
  return result.status === 0;
}

process.exitCode = main();
