// A partner's key on the local chain (issue 32): a deposit built for a key with a 25 bps partner fee
// pays the partner's asset account in the same transaction, GET /api/partner/earnings (JSON and CSV)
// shows it from the indexed chain records, a key without a partner deposits as before, the build
// refuses a fee the protocol does not allow or a partner without an asset account, and the typed
// client refuses a fee above its maximum or paid to anyone else before the signer is asked.
import {
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { bearerKeySource } from "../../../lib/api/credentials";
import { createFirstPartySessionSource } from "../../../lib/api/first-party-session";
import { depositResponse } from "../../../lib/api/schemas/deposit";
import { createSessionToken } from "../../../lib/api/session-token";
import { partnerEarningsResponse } from "../../../lib/api/schemas/partner";
import { findAssociatedTokenAddress } from "../../../lib/chain/spl-token";
import { parseSessionSettings } from "../../../lib/web-config";
import { createIndexer } from "../../../lib/server/indexer";
import {
  TransactionCheckError,
  createVaultClient,
  type TransactionCheckCode,
  type TransactionSigner,
} from "../../../lib/client";
import { VAULT_PROGRAM_ID, findIdlInstruction } from "../../../lib/vault/program/idl";
import { missingPartnerAccounts } from "../../../lib/vault/reads/partner-accounts";
import { USDC, dataOf } from "../harness";
import { endpointSuite, errorBody, expectError } from "./setup";

const api = endpointSuite();

const DEPOSIT = findIdlInstruction("deposit");
const PARTNER_DEPOSIT = findIdlInstruction("deposit_with_partner_fee");

function vaultInstructionOf(base64: string) {
  const transaction = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  const keys = transaction.message.staticAccountKeys;
  const found = transaction.message.compiledInstructions.find((instruction) =>
    keys[instruction.programIdIndex]?.equals(VAULT_PROGRAM_ID),
  );
  if (found === undefined) throw new Error("no vault instruction");
  return { data: found.data, accounts: found.accountKeyIndexes.map((index) => keys[index]) };
}

function startsWith(data: Uint8Array, discriminator: readonly number[]): boolean {
  return discriminator.every((byte, index) => data[index] === byte);
}

async function tokenBalance(owner: PublicKey, mint: PublicKey): Promise<bigint> {
  const balance = await api.harness.connection.getTokenAccountBalance(
    findAssociatedTokenAddress(owner, mint),
  );
  return BigInt(balance.value.amount);
}

/** A partner wallet with its asset account (the faucet opens it), and a key carrying it. */
async function partnerKey(feeBps: number, scope: "read" | "write" = "write") {
  const partner = await api.harness.fundedWallet(0n);
  const { secret } = await api.harness.createKey({
    scope,
    partner: { wallet: partner.publicKey.toBase58(), feeBps },
  });
  return { partner: partner.publicKey, secret };
}

function signerOf(wallet: Keypair, asked: { count: number }): TransactionSigner {
  return {
    publicKey: wallet.publicKey,
    async signTransaction(transaction) {
      asked.count += 1;
      transaction.sign([wallet]);
      return transaction;
    },
  };
}

describe("a deposit built with a partner's key", () => {
  it("pays 2.5 USDC of 1,000 to the partner's asset account and mints shares for 997.5 USDC; earnings show it", async () => {
    const { partner, secret } = await partnerKey(25);
    const mint = api.harness.localnet.addresses.usdcMint;
    const depositor = await api.harness.fundedWallet(1_000n * USDC);
    const result = await api.harness.request("POST", api.depositPath(), {
      key: secret,
      body: { wallet: depositor.publicKey.toBase58(), amount: "1000000000" },
    });
    expect(result.status, result.text).toBe(200);
    const { data } = depositResponse.parse(result.body);
    expect(data.details.partnerFee).toEqual({
      partner: partner.toBase58(),
      partnerAsset: findAssociatedTokenAddress(partner, mint).toBase58(),
      feeBps: 25,
      fee: { mint: mint.toBase58(), symbol: "USDC", amount: "2500000", decimals: 6, uiAmount: 2.5 },
      feeHuman: "2.50 USDC",
      netAmount: { mint: mint.toBase58(), symbol: "USDC", amount: "997500000", decimals: 6, uiAmount: 997.5 },
      netAmountHuman: "997.50 USDC",
    });
    // A fresh vault: 1,000 raw shares per raw USDC unit, for the net amount.
    expect(data.details.estimatedSharesReceived.amount).toBe("997500000000");
    expect(data.message).toBe(
      `Deposit 1,000.00 USDC into USDC Prime for about 997.50 vUSDC; of it, a partner fee of 2.50 USDC (25 bps) goes to ${partner.toBase58()}`,
    );
    expect(startsWith(vaultInstructionOf(data.transaction).data, PARTNER_DEPOSIT.discriminator)).toBe(true);
    // The simulation at build time: the wallet pays the whole 1,000.
    expect(data.expectedBalanceChanges?.asset.amount).toBe("-1000000000");

    const signature = await api.harness.signAndSend(data.transaction, depositor);
    expect(await tokenBalance(partner, mint)).toBe(2_500_000n);
    expect(await tokenBalance(depositor.publicKey, mint)).toBe(0n);
    const shareMint = new PublicKey(data.details.estimatedSharesReceived.mint);
    expect(await tokenBalance(depositor.publicKey, shareMint)).toBe(997_500_000_000n);

    // The partner's earnings, once the indexer has read the transaction (JSON, then the same in CSV).
    const indexer = createIndexer(api.harness.context, { intervalMs: 60_000, schema: api.harness.schema });
    try {
      await indexer.runOnce();
    } finally {
      await indexer.stop();
    }
    const earnings = partnerEarningsResponse.parse(
      (await api.harness.request("GET", "/api/partner/earnings", { key: secret })).body,
    ).data;
    const day = new Date().toISOString().slice(0, 10);
    const usdc = (amount: string, uiAmount: number) => ({
      mint: mint.toBase58(),
      symbol: "USDC",
      amount,
      decimals: 6,
      uiAmount,
    });
    const figures = {
      deposits: 1,
      depositedAmount: usdc("1000000000", 1_000),
      depositedAmountHuman: "1000.00 USDC",
      feesPaid: usdc("2500000", 2.5),
      feesPaidHuman: "2.50 USDC",
      holders: 1,
      attributedShares: {
        mint: shareMint.toBase58(),
        symbol: "vUSDC",
        amount: "997500000000",
        decimals: 9,
        uiAmount: 997.5,
      },
    };
    expect(earnings).toMatchObject({
      partner: partner.toBase58(),
      feeBps: 25,
      from: null,
      vaults: [
        {
          vaultId: api.harness.vaultId,
          vaultName: "USDC Prime",
          ...figures,
          days: [{ date: expect.any(String), ...figures }],
        },
      ],
    });
    // Valued at the share price now (no NAV struck since: what was deposited, rounded down).
    const valueNow = BigInt(earnings.vaults[0]?.attributedValueNow.amount ?? "0");
    expect(valueNow).toBeLessThanOrEqual(997_500_000n);
    expect(valueNow).toBeGreaterThanOrEqual(997_499_999n);
    expect([day, new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)]).toContain(
      earnings.vaults[0]?.days[0]?.date,
    );

    const csv = await api.harness.request("GET", "/api/partner/earnings?format=csv", { key: secret });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(csv.text.split("\r\n")).toEqual([
      "date,vault_id,vault_name,asset,deposits,deposited_raw,deposited,fees_paid_raw,fees_paid,holders,attributed_shares_raw,attributed_value_now_raw,attributed_value_now",
      `${earnings.vaults[0]?.days[0]?.date},${api.harness.vaultId},USDC Prime,USDC,1,1000000000,1000,2500000,2.5,1,997500000000,${valueNow},${earnings.vaults[0]?.attributedValueNow.uiAmount}`,
      "",
    ]);

    // The same from the windows and the vault filter; an empty window has nothing.
    const windowed = dataOf(
      await api.harness.request(
        "GET",
        `/api/partner/earnings?from=2020-01-01&vault_id=${api.harness.vaultId}`,
        {
          key: secret,
        },
      ),
    );
    expect(windowed.vaults).toEqual(earnings.vaults);
    const flex = dataOf(
      await api.harness.request("GET", `/api/partner/earnings?vault_id=${api.harness.flexVaultId}`, {
        key: secret,
      }),
    );
    expect(flex.vaults).toEqual([]);
    const before = dataOf(
      await api.harness.request("GET", "/api/partner/earnings?to=2020-01-01", { key: secret }),
    );
    expect(before.vaults).toEqual([]);

    // partner.fee_paid in the partner's feed, and in no one else's.
    const feed = dataOf(
      await api.harness.request("GET", "/api/events?types=partner.fee_paid", { key: secret }),
    ).events;
    expect(feed).toMatchObject([
      {
        type: "partner.fee_paid",
        signature,
        wallet: depositor.publicKey.toBase58(),
        data: { partner: partner.toBase58(), fee: { amount: "2500000" }, feeBps: 25 },
      },
    ]);
    const others = dataOf(
      await api.harness.request("GET", "/api/events?types=partner.fee_paid", { key: api.readKey }),
    );
    expect(others.events).toEqual([]);
  });

  it("deposits with no partner fee for a key without a partner, exactly as before", async () => {
    const { partner } = await partnerKey(25);
    const mint = api.harness.localnet.addresses.usdcMint;
    const depositor = await api.harness.fundedWallet(10n * USDC);
    const data = dataOf(
      await api.harness.request("POST", api.depositPath(), {
        key: api.writeKey,
        body: { wallet: depositor.publicKey.toBase58(), amount: "10000000" },
      }),
    );
    expect(data.details).not.toHaveProperty("partnerFee");
    const instruction = vaultInstructionOf(String(data.transaction));
    expect(startsWith(instruction.data, DEPOSIT.discriminator)).toBe(true);
    expect(instruction.accounts).toHaveLength(DEPOSIT.accounts.length);
    await api.harness.signAndSend(String(data.transaction), depositor);
    expect(await tokenBalance(depositor.publicKey, mint)).toBe(0n);
    expect(await tokenBalance(partner, mint)).toBe(0n);
  });

  it("refuses a fee above the protocol's maximum (422) and a partner without an asset account (409)", async () => {
    const depositor = (await api.harness.fundedWallet(10n * USDC)).publicKey.toBase58();
    // The protocol's max_partner_fee_bps is 100 at initialize_protocol.
    const above = await partnerKey(101);
    expectError(
      await api.harness.request("POST", api.depositPath(), {
        key: above.secret,
        body: { wallet: depositor, amount: "10000000" },
      }),
      errorBody(
        422,
        "PARTNER_FEE_ABOVE_MAXIMUM",
        "The partner fee of 101 bps is above the protocol's maximum partner fee of 100 bps",
      ),
    );
    const partner = Keypair.generate().publicKey;
    const { secret } = await api.harness.createKey({
      scope: "write",
      partner: { wallet: partner.toBase58(), feeBps: 25 },
    });
    const missing = await api.harness.request("POST", api.depositPath(), {
      key: secret,
      body: { wallet: depositor, amount: "10000000" },
    });
    expectError(
      missing,
      errorBody(
        409,
        "PARTNER_ACCOUNT_MISSING",
        new RegExp(`^The partner ${partner.toBase58()} has no token account`),
      ),
    );
    expect((missing.body as { context: unknown }).context).toEqual({
      partner: partner.toBase58(),
      partnerAsset: findAssociatedTokenAddress(partner, api.harness.localnet.addresses.usdcMint).toBase58(),
    });
  });

  it("names the partner's missing asset account and the vaults it blocks, as the keys CLI warns at creation", async () => {
    const vaults = await api.harness.context.store.indexer.vaults();
    expect(vaults.length).toBeGreaterThan(0);
    const reads: number[] = [];
    const readAccount = (addresses: readonly PublicKey[]) => {
      reads.push(addresses.length);
      return api.harness.connection.getMultipleAccountsInfo([...addresses]);
    };
    const mint = api.harness.localnet.addresses.usdcMint;
    const unopened = Keypair.generate().publicKey;
    const missing = await missingPartnerAccounts(readAccount, unopened, vaults);
    // Every local vault holds USDC: one account, every vault's deposits blocked by it.
    expect(missing).toEqual([
      { mint, account: findAssociatedTokenAddress(unopened, mint), vaults: vaults.map((row) => row.vault) },
    ]);
    // One read of one account: the vaults share their asset, so its account is asked for once.
    expect(reads).toEqual([1]);
    // Restricted to one vault, only that vault is named.
    const [first] = vaults;
    if (first === undefined) throw new Error("no vault");
    expect((await missingPartnerAccounts(readAccount, unopened, [first]))[0]?.vaults).toEqual([first.vault]);
    // Once the partner has the account (the faucet opens it), nothing is missing.
    const opened = await api.harness.fundedWallet(0n);
    expect(await missingPartnerAccounts(readAccount, opened.publicKey, vaults)).toEqual([]);
  });

  it("answers 403 to an earnings read with a key that carries no partner", async () => {
    expectError(
      await api.harness.request("GET", "/api/partner/earnings", { key: api.readKey }),
      errorBody(
        403,
        "FORBIDDEN",
        "This API key carries no partner; partner earnings are read with a partner's key (keys create --partner-wallet)",
      ),
    );
    const { secret } = await partnerKey(25, "read");
    expectError(
      await api.harness.request("GET", "/api/partner/earnings?format=xml", { key: secret }),
      errorBody(400, "INVALID_REQUEST", /format/),
    );
  });
});

describe("the typed client and a partner fee", () => {
  /** A client over the real API whose fetch may rewrite the deposit build's transaction (a lying gateway). */
  function clientWith(
    apiKey: string,
    maxPartnerFeeBps: number | undefined,
    rewrite?: (instruction: TransactionInstruction) => TransactionInstruction,
  ) {
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (rewrite === undefined || !url.endsWith("/deposit") || response.status !== 200) return response;
      const body = (await response.json()) as { data: { transaction: string } };
      const honest = VersionedTransaction.deserialize(Buffer.from(body.data.transaction, "base64"));
      const message = TransactionMessage.decompile(honest.message);
      message.instructions = message.instructions.map((instruction) =>
        instruction.programId.equals(VAULT_PROGRAM_ID) ? rewrite(instruction) : instruction,
      );
      const forged = new VersionedTransaction(message.compileToV0Message());
      body.data.transaction = Buffer.from(forged.serialize()).toString("base64");
      return new Response(JSON.stringify(body), { status: 200, headers: response.headers });
    };
    return createVaultClient({
      baseUrl: api.harness.url,
      apiKey,
      vaultId: api.harness.vaultId,
      rpc: api.harness.connection,
      fetch: lying,
      ...(maxPartnerFeeBps === undefined ? {} : { maxPartnerFeeBps }),
    });
  }

  async function refusedBeforeSigning(
    client: ReturnType<typeof createVaultClient>,
    code: TransactionCheckCode,
  ): Promise<void> {
    const mint = api.harness.localnet.addresses.usdcMint;
    const wallet = await api.harness.fundedWallet(100n * USDC);
    const asked = { count: 0 };
    const refusal = await client
      .deposit({ wallet: wallet.publicKey.toBase58(), amount: "100000000" }, signerOf(wallet, asked))
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusal).toBeInstanceOf(TransactionCheckError);
    expect((refusal as TransactionCheckError).code).toBe(code);
    expect(asked.count).toBe(0);
    expect(await tokenBalance(wallet.publicKey, mint)).toBe(100n * USDC);
  }

  it("deposits with the partner fee the caller accepts, and refuses it by default", async () => {
    const { partner, secret } = await partnerKey(25);
    const mint = api.harness.localnet.addresses.usdcMint;
    const wallet = await api.harness.fundedWallet(100n * USDC);
    const asked = { count: 0 };
    const result = await clientWith(secret, 25).deposit(
      { wallet: wallet.publicKey.toBase58(), amount: "100000000" },
      signerOf(wallet, asked),
    );
    expect(asked.count).toBe(1);
    expect(result.recorded.activity).toMatchObject({ kind: "deposit", assets: { amount: "99750000" } });
    expect(await tokenBalance(partner, mint)).toBe(250_000n);
    await refusedBeforeSigning(clientWith(secret, undefined), "PARTNER_FEE_TOO_HIGH");
  });

  it("refuses a gateway that raises the fee to 26 bps, pays it to another wallet or names its account with another bump", async () => {
    const { secret } = await partnerKey(25);
    // The gateway builds 26 bps (and says so): one above what the caller accepts.
    const raised = await partnerKey(26);
    await refusedBeforeSigning(clientWith(raised.secret, 25), "PARTNER_FEE_TOO_HIGH");
    // The fee's bps raised in the instruction alone: not what the build showed.
    await refusedBeforeSigning(
      clientWith(secret, 100, (instruction) => {
        const data = Buffer.from(instruction.data);
        // partner_fee_bps, the u16 before the last byte (partner_asset_bump).
        data.writeUInt16LE(26, data.length - 3);
        return new TransactionInstruction({ programId: instruction.programId, keys: instruction.keys, data });
      }),
      "PARTNER_FEE_NOT_SHOWN",
    );
    // The fee redirected to a stranger's asset account (the stranger named as partner too).
    const stranger = (await api.harness.fundedWallet(0n)).publicKey;
    const mint = api.harness.localnet.addresses.usdcMint;
    const index = (name: string) => PARTNER_DEPOSIT.accounts.findIndex((account) => account.name === name);
    await refusedBeforeSigning(
      clientWith(secret, 25, (instruction) => {
        const keys = instruction.keys.map((meta, position) =>
          position === index("partner_asset")
            ? { ...meta, pubkey: findAssociatedTokenAddress(stranger, mint) }
            : position === index("partner")
              ? { ...meta, pubkey: stranger }
              : meta,
        );
        return new TransactionInstruction({ programId: instruction.programId, keys, data: instruction.data });
      }),
      "WRONG_ACCOUNT",
    );
    // The partner's account named with a bump one below its own (a non-canonical bump: the program
    // would refuse it, and the check refuses it before the wallet is asked to sign).
    await refusedBeforeSigning(
      clientWith(secret, 25, (instruction) => {
        const data = Buffer.from(instruction.data);
        data.writeUInt8((data.readUInt8(data.length - 1) + 255) % 256, data.length - 1);
        return new TransactionInstruction({ programId: instruction.programId, keys: instruction.keys, data });
      }),
      "WRONG_ACCOUNT",
    );
  });
});

describe("an embed's partner on the app's pages (?partner=<key id>)", () => {
  const secret = "partner-embed-first-party-test-secret-0123456789";
  const browser = { address: "127.0.0.1", userAgent: "partner-embed-test-browser" };
  const pageHeaders = () => ({
    "Sec-Fetch-Site": "same-origin",
    "User-Agent": browser.userAgent,
    Cookie: `vg_session=${createSessionToken(secret, Date.now(), browser)}`,
  });

  it("builds the pages' deposit with the named partner key's fee; refuses an unknown key and a partner key naming one", async () => {
    const sources = api.harness.context.credentialSources;
    api.harness.context.credentialSources = [
      bearerKeySource,
      createFirstPartySessionSource({
        settings: { ...parseSessionSettings({}), sessionSecret: secret, firstPartyRpm: 1_000 },
      }),
    ];
    try {
      const partner = await api.harness.fundedWallet(0n);
      const { id } = await api.harness.createKey({
        scope: "read",
        partner: { wallet: partner.publicKey.toBase58(), feeBps: 25 },
      });
      const depositor = (await api.harness.fundedWallet(100n * USDC)).publicKey.toBase58();
      const built = await api.harness.request("POST", api.depositPath(), {
        headers: pageHeaders(),
        body: { wallet: depositor, amount: "100000000", partner: id },
      });
      const data = depositResponse.parse(built.body).data;
      expect(data.details.partnerFee).toMatchObject({
        partner: partner.publicKey.toBase58(),
        feeBps: 25,
        fee: { amount: "250000" },
        netAmount: { amount: "99750000" },
      });
      const instruction = vaultInstructionOf(data.transaction);
      expect(startsWith(instruction.data, PARTNER_DEPOSIT.discriminator)).toBe(true);

      // Without `partner` the pages build a plain deposit, as before.
      const plain = depositResponse.parse(
        (
          await api.harness.request("POST", api.depositPath(), {
            headers: pageHeaders(),
            body: { wallet: depositor, amount: "100000000" },
          })
        ).body,
      ).data;
      expect(plain.details.partnerFee).toBeUndefined();

      expectError(
        await api.harness.request("POST", api.depositPath(), {
          headers: pageHeaders(),
          body: { wallet: depositor, amount: "100000000", partner: "key_NotAKeyHere1" },
        }),
        errorBody(400, "INVALID_REQUEST", "partner: key_NotAKeyHere1 is not an active partner key"),
      );
      expectError(
        await api.harness.request("POST", api.depositPath(), {
          key: api.writeKey,
          body: { wallet: depositor, amount: "100000000", partner: id },
        }),
        errorBody(
          403,
          "FORBIDDEN",
          "`partner` is for the app's own pages (an embed's partner); a key's deposits pay its own partner's fee",
        ),
      );
    } finally {
      api.harness.context.credentialSources = sources;
    }
  });
});
