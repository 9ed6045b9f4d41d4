// npm run sign -- --keypair <file> --vault <address> (--deposit <amount> | --withdraw <raw shares> | --claim | --cancel)
// (lib/operator/sign-cli.ts): checks, signs and sends the transaction a build endpoint answered.
import { runCommand } from "../lib/operator/cli";
import { runSignCli, SIGN_USAGE } from "../lib/operator/sign-cli";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks).toString("utf8");
}

runCommand("sign", `Usage: ${SIGN_USAGE}`, () =>
  runSignCli(process.argv.slice(2), readStdin, (line) => console.log(line), process.env),
);
