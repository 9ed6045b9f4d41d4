// The local chain's keeper is the operator keeper (lib/keeper), run in this process against the chain's
// own RPC: the dev manager strikes each demo vault's NAV from `simulated:<apy>` yield (minted into the
// reserve with the USDC mint authority, so the NAV stays backed) within the protocol's bounds, and funds
// the withdrawal queue. The intervals are the localnet's `--keeper-*` settings.
import { soleLeaderLock } from "../lib/indexer/leader-lock";
import { Keeper } from "../lib/keeper/keeper";
import { parseNavSource } from "../lib/keeper/nav-source";
import { ChainClient } from "../lib/operator/chain-client";
import type { Chain } from "./chain";
import type { KeeperConfig } from "./config";
import type { DevRoles, LocalnetVault } from "./genesis";

export interface LocalKeeperOptions {
  chain: Chain;
  rpcUrl: string;
  roles: DevRoles;
  vaults: readonly LocalnetVault[];
  config: KeeperConfig;
  log: (line: string) => void;
}

/** `simulated:<apy>` for an APY in basis points: 1000 → "simulated:10", 1234 → "simulated:12.34". */
export function simulatedNavSource(apyBps: number): string {
  const fraction = apyBps % 100;
  return `simulated:${Math.floor(apyBps / 100)}${fraction === 0 ? "" : `.${String(fraction).padStart(2, "0")}`}`;
}

/** Seconds between the keeper's looks at the chain: half its shortest interval, at most a second. */
export function localTickSeconds(
  config: Pick<KeeperConfig, "navIntervalSeconds" | "stageIntervalSeconds">,
): number {
  return Math.min(2, config.navIntervalSeconds, config.stageIntervalSeconds) / 2;
}

export function localKeeper(options: LocalKeeperOptions): Keeper {
  const { chain, roles, config } = options;
  return new Keeper({
    client: new ChainClient(options.rpcUrl),
    manager: roles.manager,
    mintAuthority: roles.mintAuthority,
    navSource: parseNavSource(simulatedNavSource(config.apyBps)),
    // The only keeper of this chain: its process is the chain's.
    lock: soleLeaderLock(),
    vaults: options.vaults.map((vault) => vault.vault),
    settings: {
      navIntervalSeconds: config.navIntervalSeconds,
      stageIntervalSeconds: config.stageIntervalSeconds,
      stageMaxShares: config.stageMaxShares,
      deliverMaxPerPass: config.deliverMaxPerPass,
      tickSeconds: localTickSeconds(config),
    },
    name: "localnet",
    log: options.log,
    // The chain's clock, which the program checks the bounds' interval against (a restored chain's
    // clock, or one between slots, may trail the wall clock).
    now: () => (chain.blockTime(chain.slot) ?? Math.floor(Date.now() / 1000)) * 1000,
  });
}
