// What every operator command shares: flags parsed strictly (lib/cli/args.ts: an unknown flag or a
// missing value is a one-line reason and the command's usage, exit code 2), the RPC URL from --url,
// RPC_URL or the CLUSTER preset, explorer links for that cluster, and one exit path that prints an
// expected failure as one line and exits non-zero.
import { exitOnCommandLineError, parseCommandLine, UsageError, type OptionsSpec } from "../cli/args";
import { ChainUnavailableError, RpcError } from "../chain/rpc";
import { ConfigError } from "../env-schema";
import {
  CLUSTER_PRESETS,
  clusterOfRpcUrl,
  explorerUrl,
  isClusterName,
  type ClusterName,
  type ExplorerTarget,
} from "../cluster";
import { TransactionFailedError } from "./chain-client";
import { OperatorError } from "./errors";

export type { OptionsSpec };

/** Strict flags (lib/cli/args.ts); positionals are each command's to check. */
export function parseFlags<const O extends OptionsSpec>(
  argv: readonly string[],
  options: O,
): ReturnType<typeof parseCommandLine<O>> {
  return parseCommandLine(argv, options, { maxPositionals: Number.POSITIVE_INFINITY });
}

/** The operator's environment as the CLIs read it (RPC_URL, CLUSTER), handed in by the script. */
export type OperatorEnv = Readonly<Record<string, string | undefined>>;

export interface Cluster {
  name: ClusterName;
  rpcUrl: string;
  link(target: ExplorerTarget): string;
}

/** The RPC endpoint: --url, else RPC_URL, else CLUSTER's preset. */
export function resolveCluster(url: string | undefined, env: OperatorEnv): Cluster {
  const clusterText = env.CLUSTER === undefined || env.CLUSTER === "" ? undefined : env.CLUSTER;
  if (clusterText !== undefined && !isClusterName(clusterText)) {
    throw new OperatorError(
      `CLUSTER must be localnet, devnet, testnet, mainnet-beta or custom; got "${clusterText}"`,
    );
  }
  const rpcUrl =
    url ??
    (env.RPC_URL === "" ? undefined : env.RPC_URL) ??
    (clusterText === undefined ? null : CLUSTER_PRESETS[clusterText].rpcUrl);
  if (rpcUrl === null || rpcUrl === undefined) {
    throw new OperatorError("name the RPC endpoint: --url <rpc>, RPC_URL or CLUSTER");
  }
  try {
    const protocol = new URL(rpcUrl).protocol;
    if (protocol !== "http:" && protocol !== "https:") {
      throw new Error(protocol);
    }
  } catch {
    throw new OperatorError(`--url must be an http(s) URL; got "${rpcUrl}"`);
  }
  const name = clusterText ?? clusterOfRpcUrl(rpcUrl);
  return { name, rpcUrl, link: (target) => explorerUrl(target, name, rpcUrl) };
}

export type Subcommand = (argv: string[], out: (line: string) => void, env: OperatorEnv) => Promise<void>;

/**
 * A command line of several commands: the first argument names one; none, `help` or `--help` prints
 * the usage, an unknown one is a UsageError that lists the commands. `env`: the operator's RPC_URL and
 * CLUSTER (scripts pass process.env); --url overrides them.
 */
export function commandLine(
  usage: string,
  commands: Readonly<Record<string, Subcommand>>,
): (argv: readonly string[], out: (line: string) => void, env?: OperatorEnv) => Promise<void> {
  return async (argv, out, env = {}) => {
    const [command, ...rest] = argv;
    if (command === undefined || command === "help" || command === "--help") {
      out(usage);
      return;
    }
    const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (run === undefined) {
      throw new UsageError(`unknown command "${command}" (${Object.keys(commands).join(", ")})`);
    }
    return run(rest, out, env);
  };
}

export function requireFlag(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") {
    throw new OperatorError(`${flag} is required`);
  }
  return value;
}

/**
 * Runs a command; a wrong command line is its reason and `usage` on stderr and exit code 2 (--help: the
 * usage and 0), an expected failure one line on stderr and exit code 1.
 */
export function runCommand(name: string, usage: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      exitOnCommandLineError(name, usage, error);
      if (
        error instanceof OperatorError ||
        error instanceof TransactionFailedError ||
        error instanceof ConfigError
      ) {
        console.error(`${name}: ${error.message}`);
      } else if (error instanceof ChainUnavailableError || error instanceof RpcError) {
        console.error(`${name}: ${error.message}`);
      } else {
        console.error(`${name}: unexpected failure`, error);
      }
      process.exit(1);
    },
  );
}
