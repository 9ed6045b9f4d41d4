// npm run protocol -- init|show|set-bounds|set-admin|accept-admin|pause-vault … (lib/operator/protocol-cli.ts; --help lists them).
import { runCommand } from "../lib/operator/cli";
import { PROTOCOL_USAGE, runProtocolCli } from "../lib/operator/protocol-cli";

runCommand("protocol", PROTOCOL_USAGE, () =>
  runProtocolCli(process.argv.slice(2), (line) => console.log(line), process.env),
);
