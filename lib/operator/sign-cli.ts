// npm run sign -- --keypair <file> --vault <address> (--deposit <amount> | --withdraw <raw shares> | --claim | --cancel)
//   [--url <rpc>] [--ws-url <ws>] [--max-compute-unit-price <micro-lamports>] < build-response.json
// Finishes the curl walkthrough in docs/partner.md without a wallet app: reads what POST /api/vault/{id}/deposit
// or /withdraw answered (the envelope, or its data) on standard input, checks the transaction against
// what the flags ask for with the same check the typed client and the pages use
// (lib/vault/operations/verify-transaction.ts: programs, vault instruction, accounts, amount, fee payer, price, a
// deposit's min_shares_out against the answer's estimatedSharesReceived less the default 50 bps),
// simulates it and prints the wallet's balance changes, then signs with the keypair, sends, confirms and
// prints the signature for POST /api/history. Nothing is signed that does not pass the check.
import { Connection } from "@solana/web3.js";
import { z } from "zod";

import { formatDisplay } from "../vault/model/token-amount";
import {
  runVaultTransaction,
  transactionCheck,
  type TransactionPreview,
} from "../vault/send/transaction-flow";
import type { OperationRequest } from "../vault/operations/verify-transaction";
import { parseFlags, requireFlag, resolveCluster, type OperatorEnv } from "./cli";
import { OperatorError } from "./errors";
import { readKeypairFile } from "./keypair-file";
import { parseAddress } from "./vault-cli";

const builtSchema = z.object({
  transaction: z.string().min(1),
  lastValidBlockHeight: z.number().int().nonnegative(),
  // A deposit's preview, which the check holds its min_shares_out to (it reads what it needs).
  details: z.unknown().optional(),
});
/** The build answer as curl prints it (the spec's envelope), or its data alone. */
const inputSchema = z.union([z.object({ success: z.literal(true), data: builtSchema }), builtSchema]);

export const SIGN_USAGE =
  "npm run sign -- --keypair <file> --vault <address> (--deposit <amount> | --withdraw <raw shares> | --claim | --cancel) " +
  "[--url <rpc>] [--ws-url <ws>] [--max-compute-unit-price <micro-lamports>] [--max-partner-fee-bps <bps>] < build-response.json";

function operationOf(values: {
  deposit?: string;
  withdraw?: string;
  claim?: boolean;
  cancel?: boolean;
}): OperationRequest {
  const chosen = [
    values.deposit !== undefined,
    values.withdraw !== undefined,
    values.claim === true,
    values.cancel === true,
  ];
  if (chosen.filter(Boolean).length !== 1) {
    throw new OperatorError(`name exactly one of --deposit, --withdraw, --claim or --cancel (${SIGN_USAGE})`);
  }
  if (values.cancel === true) {
    return { operation: "cancel" };
  }
  if (values.deposit !== undefined) {
    const amount = Number(values.deposit);
    if (!/^\d+(\.\d+)?$/.test(values.deposit) || !(amount > 0)) {
      throw new OperatorError(`--deposit must be a positive amount in the asset's units, like 250 or 12.5`);
    }
    return { operation: "deposit", amount: { ui: amount } };
  }
  if (values.withdraw !== undefined) {
    if (!/^[1-9]\d*$/.test(values.withdraw)) {
      throw new OperatorError(
        "--withdraw must be the raw share amount the request was built for, e.g. 100000000000",
      );
    }
    return { operation: "initiate", shares: BigInt(values.withdraw) };
  }
  return { operation: "claim" };
}

function parseInput(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OperatorError("standard input is not JSON: pipe the build endpoint's answer into this command");
  }
  const parsed = inputSchema.safeParse(json);
  if (!parsed.success) {
    throw new OperatorError(
      "standard input holds no built transaction ({ success: true, data: { transaction, lastValidBlockHeight } })",
    );
  }
  return "data" in parsed.data ? parsed.data.data : parsed.data;
}

function changeLine(preview: TransactionPreview): string {
  const { changes, verified } = preview;
  const signed = (raw: bigint, decimals: number) =>
    `${raw > 0n ? "+" : ""}${formatDisplay(raw, decimals, { maxFraction: decimals })}`;
  return [
    `asset ${signed(changes.asset, verified.tokens.assetDecimals)}`,
    `shares ${signed(changes.shares, verified.tokens.shareDecimals)}`,
    `SOL ${signed(changes.lamports, 9)}`,
    // The partner fee is part of the asset paid: said apart, with whom it goes to.
    ...(verified.partnerFee === null
      ? []
      : [
          `of it a partner fee of ${verified.partnerFee.feeBps} bps to ${verified.partnerFee.partner.toBase58()}`,
        ]),
  ].join(", ");
}

export async function runSignCli(
  argv: readonly string[],
  readStdin: () => Promise<string>,
  print: (line: string) => void,
  env: OperatorEnv,
): Promise<void> {
  const { values } = parseFlags(argv, {
    keypair: { type: "string" },
    vault: { type: "string" },
    deposit: { type: "string" },
    withdraw: { type: "string" },
    claim: { type: "boolean" },
    cancel: { type: "boolean" },
    url: { type: "string" },
    "ws-url": { type: "string" },
    "max-compute-unit-price": { type: "string" },
    "max-partner-fee-bps": { type: "string" },
  });
  const keypair = await readKeypairFile(requireFlag(values.keypair, "--keypair"), "wallet keypair");
  const vault = parseAddress("--vault", values.vault);
  const request = operationOf(values);
  const priceText = values["max-compute-unit-price"];
  if (priceText !== undefined && !/^\d+$/.test(priceText)) {
    throw new OperatorError("--max-compute-unit-price must be a whole number of micro-lamports");
  }
  const partnerText = values["max-partner-fee-bps"];
  if (partnerText !== undefined && !/^\d{1,5}$/.test(partnerText)) {
    throw new OperatorError("--max-partner-fee-bps must be a whole number of basis points, like 25");
  }
  const built = parseInput(await readStdin());
  // The WebSocket beside the RPC (web3.js's default: the RPC's port + 1, as the local chain has it).
  // The local chain unless --url, RPC_URL or CLUSTER names another: the walkthrough runs against it.
  const connection = new Connection(resolveCluster(values.url, { CLUSTER: "localnet", ...env }).rpcUrl, {
    commitment: "confirmed",
    ...(values["ws-url"] === undefined ? {} : { wsEndpoint: values["ws-url"] }),
  });
  const wallet = keypair.publicKey.toBase58();
  const result = await runVaultTransaction(
    {
      connection,
      verify: transactionCheck(connection, { vault: vault.toBase58(), wallet }, request, {
        ...(priceText === undefined ? {} : { maxComputeUnitPriceMicroLamports: Number(priceText) }),
        // A deposit that pays a partner fee is signed only when asked (default 0: refused).
        ...(partnerText === undefined ? {} : { maxPartnerFeeBps: Number(partnerText) }),
      }),
      signTransaction: async (transaction) => {
        transaction.sign([keypair]);
        return transaction;
      },
      events: {
        stage: (stage) => print(`${stage}…`),
        rebuilt: () => undefined,
        previewed: (preview) => print(`checked; simulated for ${wallet}: ${changeLine(preview)}`),
      },
    },
    // One answer to sign: an expired one is built again with curl, not here.
    async () => built,
    async () => null,
  );
  print(`confirmed: ${result.signature}`);
  print("record it: POST /api/history { wallet, vault_id, signature }");
}
