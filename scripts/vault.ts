// npm run vault -- create|show|config|pause|resume … (lib/operator/vault-cli.ts; --help lists them).
import { runCommand } from "../lib/operator/cli";
import { runVaultCli, VAULT_USAGE } from "../lib/operator/vault-cli";

runCommand("vault", VAULT_USAGE, () =>
  runVaultCli(process.argv.slice(2), (line) => console.log(line), process.env),
);
