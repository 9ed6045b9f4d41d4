// npm run localnet: a Solana JSON-RPC (8899) and PubSub (8900) endpoint over LiteSVM, with the vault
// program, the demo vaults, a faucet and a keeper. Flags and variables: `npm run localnet -- --help`.
import { exitOnCommandLineError } from "../lib/cli/args";
import { ConfigError, parseLocalnetConfig, usage } from "./config";
import { startLocalnet, type LocalnetHandle } from "./localnet";

function banner(localnet: LocalnetHandle): string {
  const { addresses, config } = localnet;
  if (localnet.empty !== null) {
    return [
      `Localnet ready, empty${localnet.restored ? ` (restored from ${config.stateDir ?? ""})` : ""}`,
      `  JSON-RPC   ${localnet.rpcUrl}`,
      `  PubSub     ${localnet.wsUrl}`,
      `  Payer      ${localnet.empty.payer.publicKey.toBase58()}  ${localnet.empty.payerKeypairFile}`,
      `  Program    ${addresses.programId.toBase58()}  (not deployed; its dev keypair: ${localnet.empty.programKeypairFile})`,
      `  Next       npm run program:deploy -- --url ${localnet.rpcUrl} --keypair ${localnet.empty.payerKeypairFile} --program-keypair ${localnet.empty.programKeypairFile}`,
    ].join("\n");
  }
  const lines = [
    `Localnet ready${localnet.restored ? ` (restored from ${config.stateDir ?? ""})` : ""}`,
    `  JSON-RPC   ${localnet.rpcUrl}`,
    `  PubSub     ${localnet.wsUrl}`,
    `  Faucet     POST ${localnet.faucetUrl} {"wallet": "<address>"}  (SOL: requestAirdrop)`,
    `  Program    ${addresses.programId.toBase58()}${addresses.programDeployed ? "" : "  (not deployed: no binary)"}`,
    `  USDC mint  ${addresses.usdcMint.toBase58()}`,
    `  Manager    ${addresses.manager.toBase58()}`,
  ];
  if (addresses.programDeployed) {
    for (const vault of addresses.vaults) {
      lines.push(`  Vault      ${vault.vault.toBase58()}  ${vault.spec.name}`);
    }
  }
  lines.push(`  Addresses  ${config.addressesFile}`);
  if (localnet.keeper !== null) {
    const keeper = config.keeper;
    lines.push(
      `  Keeper     NAV every ${keeper.navIntervalSeconds} s at ${keeper.apyBps / 100}% APY, staging every ${keeper.stageIntervalSeconds} s, ${
        keeper.deliverMaxPerPass === 0
          ? "delivering no claims (owners claim)"
          : `delivering up to ${keeper.deliverMaxPerPass} claimable withdrawals per vault and pass`
      }`,
    );
  }
  if (config.stateDir !== null) {
    lines.push(`  State      ${config.stateDir} (saved every ${config.saveIntervalSeconds} s and on exit)`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usage());
    return;
  }
  const config = parseLocalnetConfig(argv, process.env);
  const localnet = await startLocalnet(config);
  console.log(banner(localnet));
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`localnet: ${signal}, stopping${config.stateDir === null ? "" : " and saving the chain"}`);
    localnet.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("localnet: stopping failed", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  if (exitOnCommandLineError("localnet", usage(), error)) {
    return;
  }
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else if (error instanceof Error && "code" in error && error.code === "EADDRINUSE") {
    console.error(`localnet: ${error.message}; is another localnet or validator running? (see --rpc-port)`);
  } else {
    console.error("localnet: failed to start", error);
  }
  process.exit(1);
});
