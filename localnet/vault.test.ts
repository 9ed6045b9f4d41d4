// The demo vault on the localnet, driven by @solana/web3.js as the app would: deposit, getTransaction's
// logs and token balances, a withdrawal over the hourly cap refused with the program's 6020 in the
// validator's shape, and the keeper making a withdrawal claimable so it can be claimed.
import { readFile } from "node:fs/promises";

import {
  Keypair,
  LAMPORTS_PER_SOL,
  SendTransactionError,
  Transaction,
  type Connection,
  type PublicKey,
  type TokenBalance,
  type TransactionInstruction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { decodeReceiptState, decodeVaultState } from "../lib/vault/program/accounts";
import { findReceipt } from "../lib/vault/program/addresses";
import { decodeVaultEvents } from "../lib/vault/program/events";
import {
  buildClaimWithdrawalInstruction,
  buildDepositInstruction,
  buildRequestWithdrawalInstruction,
} from "../lib/vault/program/instructions";
import type { LocalnetVault } from "./genesis";
import type { LocalnetHandle } from "./localnet";
import {
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../lib/chain/spl-token";
import {
  closeConnection,
  connect,
  fundedWallet,
  hasProgramBinary,
  postRaw,
  startTestLocalnet,
  waitFor,
} from "./testing";

const USDC = 1_000_000n;
const HOURLY_CAP_EXCEEDED = 6020;

let localnet: LocalnetHandle;
let connection: Connection;
let prime: LocalnetVault;
const logLines: string[] = [];

interface Member {
  wallet: Keypair;
  usdc: PublicKey;
  shares: PublicKey;
}

async function send(instructions: TransactionInstruction[], signer: Keypair): Promise<string> {
  const latest = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer: signer.publicKey, recentBlockhash: latest.blockhash }).add(
    ...instructions,
  );
  transaction.sign(signer);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const { value } = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
  expect(value.err).toBeNull();
  return signature;
}

async function newMember(usdc: bigint): Promise<Member> {
  const wallet = await fundedWallet(connection, 2 * LAMPORTS_PER_SOL);
  const response = await postRaw(
    localnet.faucetUrl,
    JSON.stringify({ wallet: wallet.publicKey.toBase58(), amount: usdc.toString() }),
  );
  expect(response.status).toBe(200);
  const member = {
    wallet,
    usdc: findAssociatedTokenAddress(wallet.publicKey, localnet.addresses.usdcMint),
    shares: findAssociatedTokenAddress(wallet.publicKey, prime.shareMint),
  };
  await waitFor(async () => ((await connection.getAccountInfo(member.usdc)) === null ? undefined : true));
  return member;
}

function depositInstructions(member: Member, amount: bigint): TransactionInstruction[] {
  return [
    buildCreateAssociatedTokenAccountIdempotentInstruction(
      member.wallet.publicKey,
      member.wallet.publicKey,
      prime.shareMint,
    ),
    buildDepositInstruction(
      {
        depositor: member.wallet.publicKey,
        vault: prime.vault,
        authority: prime.authority,
        shareMint: prime.shareMint,
        reserve: prime.reserve,
        depositorAsset: member.usdc,
        depositorShares: member.shares,
      },
      { amount, minSharesOut: 0n },
    ),
  ];
}

/** A request accepting the fee the vault charges now, as the API's builder fills it from the fee it showed. */
function requestWithdrawalInstruction(
  member: Member,
  shares: bigint,
  maxFeeBps: number,
): TransactionInstruction {
  return buildRequestWithdrawalInstruction(
    {
      owner: member.wallet.publicKey,
      vault: prime.vault,
      receipt: findReceipt(prime.vault, member.wallet.publicKey),
      ownerShares: member.shares,
      escrow: prime.escrow,
    },
    { shares, maxFeeBps },
  );
}

async function tokenAmount(account: PublicKey): Promise<bigint> {
  return BigInt((await connection.getTokenAccountBalance(account)).value.amount);
}

async function vaultState() {
  const account = await connection.getAccountInfo(prime.vault);
  if (account === null) {
    throw new Error("The demo vault does not exist");
  }
  return decodeVaultState(account.data);
}

describe.skipIf(!hasProgramBinary)("the demo vault on the localnet", () => {
  beforeAll(async () => {
    localnet = await startTestLocalnet({
      keeper: { enabled: true, navIntervalSeconds: 1, stageIntervalSeconds: 1 },
      faucet: { requestsPerMinute: 1_000 },
      log: (line) => logLines.push(line),
    });
    connection = connect(localnet);
    const vault = localnet.addresses.vaults.find((candidate) => candidate.spec.name === "USDC Prime");
    if (vault === undefined) {
      throw new Error("Genesis did not create USDC Prime");
    }
    prime = vault;
  });

  afterAll(async () => {
    closeConnection(connection);
    await localnet.stop();
  });

  it("writes the demo vault's addresses to the addresses file", async () => {
    const document: unknown = JSON.parse(await readFile(localnet.config.addressesFile, "utf8"));
    expect(document).toMatchObject({
      rpcUrl: localnet.rpcUrl,
      wsUrl: localnet.wsUrl,
      programId: "4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB",
      protocolId: localnet.addresses.protocol.toBase58(),
      admin: localnet.addresses.admin.toBase58(),
      asset: { mint: localnet.addresses.usdcMint.toBase58(), symbol: "USDC", decimals: 6 },
      defaultVaultId: prime.vault.toBase58(),
      vaults: expect.arrayContaining([
        expect.objectContaining({ id: prime.vault.toBase58(), name: "USDC Prime", hourlyCap: "25000000000" }),
      ]),
    });
    const state = await vaultState();
    expect(state).toMatchObject({
      protocol: localnet.addresses.protocol,
      manager: localnet.addresses.manager,
      shareDecimals: 9,
      name: "USDC Prime",
      feeBps: 10,
      hourlyCap: 25_000n * USDC,
      dailyCap: 100_000n * USDC,
    });
  });

  it("deposits USDC, and getTransaction returns the logs, token balances and block time", async () => {
    const startedAt = Math.floor(Date.now() / 1000);
    const member = await newMember(1_000n * USDC);
    const before = await vaultState();
    const signature = await send(depositInstructions(member, 250n * USDC), member.wallet);

    const after = await vaultState();
    // The keeper strikes a NAV every second here; one landing between the two reads adds its gain.
    const added = after.totalAssets - before.totalAssets;
    if (after.navSequence === before.navSequence) {
      expect(added).toBe(250n * USDC);
    } else {
      expect(added).toBeGreaterThanOrEqual(250n * USDC);
    }
    const shares = await tokenAmount(member.shares);
    expect(shares).toBe(after.totalShares - before.totalShares);
    expect(shares).toBeGreaterThan(0n);
    expect(await tokenAmount(member.usdc)).toBe(750n * USDC);

    const transaction = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    const meta = transaction?.meta;
    expect(meta?.err).toBeNull();
    expect(meta?.logMessages).toEqual(
      expect.arrayContaining([
        "Program 4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB invoke [1]",
        "Program 4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB success",
      ]),
    );
    const events = decodeVaultEvents(meta?.logMessages ?? []);
    expect(events).toEqual([
      expect.objectContaining({
        name: "Deposited",
        data: expect.objectContaining({ assets: 250n * USDC, shares }),
      }),
    ]);
    const keys = transaction?.transaction.message.staticAccountKeys ?? [];
    const balanceOf = (
      balances: TokenBalance[] | null | undefined,
      account: PublicKey,
    ): string | undefined => {
      const index = keys.findIndex((key) => key.equals(account));
      return balances?.find((balance) => balance.accountIndex === index)?.uiTokenAmount.amount;
    };
    expect(balanceOf(meta?.preTokenBalances, member.usdc)).toBe("1000000000");
    expect(balanceOf(meta?.postTokenBalances, member.usdc)).toBe("750000000");
    expect(balanceOf(meta?.postTokenBalances, member.shares)).toBe(shares.toString());
    expect(
      BigInt(balanceOf(meta?.postTokenBalances, prime.reserve) ?? "0") -
        BigInt(balanceOf(meta?.preTokenBalances, prime.reserve) ?? "0"),
    ).toBe(250n * USDC);
    expect(meta?.postTokenBalances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          mint: localnet.addresses.usdcMint.toBase58(),
          owner: member.wallet.publicKey.toBase58(),
        }),
      ]),
    );
    // Its slot started while the test ran, however long the machine took.
    expect(transaction?.blockTime).toBeGreaterThanOrEqual(startedAt);
    expect(transaction?.blockTime).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it("refuses a withdrawal over the hourly cap with the program's 6020, in the validator's shape", async () => {
    const member = await newMember(30_000n * USDC);
    await send(depositInstructions(member, 30_000n * USDC), member.wallet);
    const shares = await tokenAmount(member.shares);
    const { feeBps } = await vaultState();
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({
      feePayer: member.wallet.publicKey,
      recentBlockhash: latest.blockhash,
    }).add(requestWithdrawalInstruction(member, shares, feeBps));
    transaction.sign(member.wallet);
    const raw = await postRaw(
      localnet.rpcUrl,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: [transaction.serialize().toString("base64"), { encoding: "base64" }],
      }),
    );
    expect(raw.json).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32002,
        message:
          "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1784",
        data: {
          accounts: null,
          err: { InstructionError: [0, { Custom: HOURLY_CAP_EXCEEDED }] },
          innerInstructions: null,
          replacementBlockhash: null,
          returnData: null,
          unitsConsumed: expect.any(Number),
          loadedAccountsDataSize: expect.any(Number),
          logs: expect.arrayContaining([
            "Program 4eZ1RNBKAGZY9ptCQh1TqcCAnxHW7CHL4xF99J6MWpVB failed: custom program error: 0x1784",
          ]),
        },
      },
    });
    const error = await connection
      .sendRawTransaction(transaction.serialize())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SendTransactionError);
    expect((error as SendTransactionError).transactionError.message).toContain(
      "custom program error: 0x1784",
    );
    expect(await tokenAmount(member.shares)).toBe(shares);
  });

  it("lets the keeper make a withdrawal claimable, and the claim pays out", async () => {
    const member = await newMember(100n * USDC);
    await send(depositInstructions(member, 100n * USDC), member.wallet);
    const shares = await tokenAmount(member.shares);
    // 40 whole shares: the share mint has 9 decimals (the asset's 6 plus the program's offset of 3).
    const requested = 40_000n * USDC;
    await send([requestWithdrawalInstruction(member, requested, (await vaultState()).feeBps)], member.wallet);
    const receiptAddress = findReceipt(prime.vault, member.wallet.publicKey);
    const receiptAccount = await connection.getAccountInfo(receiptAddress);
    const receipt = decodeReceiptState(receiptAccount?.data ?? new Uint8Array());
    expect(receipt.shares).toBe(requested);

    await waitFor(async () => {
      const state = await vaultState();
      return state.navSequence > receipt.navFloor && state.queueFunded >= receipt.queueEnd ? true : undefined;
    });

    const usdcBefore = await tokenAmount(member.usdc);
    const signature = await send(
      [
        buildClaimWithdrawalInstruction({
          owner: member.wallet.publicKey,
          vault: prime.vault,
          authority: prime.authority,
          receipt: receiptAddress,
          shareMint: prime.shareMint,
          escrow: prime.escrow,
          reserve: prime.reserve,
          ownerAsset: member.usdc,
        }),
      ],
      member.wallet,
    );
    const claimed = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    const event = decodeVaultEvents(claimed?.meta?.logMessages ?? []).find(
      (candidate) => candidate.name === "WithdrawalClaimed",
    );
    expect(event?.name).toBe("WithdrawalClaimed");
    const net = event?.name === "WithdrawalClaimed" ? event.data.net : 0n;
    expect(net).toBeGreaterThan(0n);
    expect(await tokenAmount(member.usdc)).toBe(usdcBefore + net);
    expect(await tokenAmount(member.shares)).toBe(shares - requested);
    expect(await connection.getAccountInfo(receiptAddress)).toBeNull();

    // The keeper mints each strike's yield into the reserve, so the reserve always covers the NAV.
    const state = await vaultState();
    expect(await tokenAmount(prime.reserve)).toBeGreaterThanOrEqual(state.totalAssets);
  });

  it("strikes NAVs on every demo vault with assets, without a failure; an empty one has nothing to price", async () => {
    for (const vault of localnet.addresses.vaults) {
      const account = await connection.getAccountInfo(vault.vault);
      const state = decodeVaultState(account?.data ?? new Uint8Array());
      const struck = (): true | undefined =>
        logLines.some((line) =>
          line.startsWith(`keeper: ${vault.spec.name} (${vault.vault.toBase58()}) NAV #`),
        ) || undefined;
      if (state.totalAssets > 0n) {
        expect(await waitFor(struck)).toBe(true);
      } else {
        expect(struck()).toBeUndefined();
      }
    }
    expect(logLines.filter((line) => line.includes("failed"))).toEqual([]);
  });
});
