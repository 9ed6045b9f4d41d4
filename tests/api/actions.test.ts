// Solana Actions over real HTTP against the local chain: every route's GET/POST/OPTIONS bodies checked
// against runtime mirrors of @solana/actions' types (typed so they cannot stray from them) and its
// headers; a blink's deposit → withdraw → claim, and a withdrawal request → cancel, signed, landed and
// recorded through the chained callback; and the error cases, each the specification's { message } with a 4xx.
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  actionErrorSchema as actionError,
  actionGetResponseSchema as actionGetResponse,
  actionPostResponseSchema as actionPostResponse,
  actionsJsonSchema as actionsJsonBody,
  completedActionSchema as completedAction,
  type ActionTransactionResponse as TransactionResponse,
} from "../../lib/api/schemas/actions";
import { decodeVaultState } from "../../lib/vault/program/accounts";
import { waitFor } from "../../localnet/testing";
import { USDC, startApiHarness, type ApiHarness, type HttpResult } from "./harness";

const RELAXED = { limit: 100_000, windowSeconds: 5 };

let harness: ApiHarness;
let chainId: string;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 2, stageIntervalSeconds: 1 } },
  });
  // Every request here comes from 127.0.0.1: the per-IP limit is raised except where it is the subject.
  harness.context.publicLimit = RELAXED;
  chainId = `solana:${(await harness.connection.getGenesisHash()).slice(0, 32)}`;
});

afterAll(async () => {
  await harness?.close();
});

function expectActionHeaders(result: HttpResult): void {
  expect(result.headers.get("access-control-allow-origin")).toBe("*");
  expect(result.headers.get("access-control-allow-methods")).toMatch(/GET.*POST.*OPTIONS/);
  expect(result.headers.get("access-control-allow-headers")).toMatch(/Content-Type/);
  expect(result.headers.get("access-control-expose-headers")).toMatch(/X-Action-Version, X-Blockchain-Ids/);
  expect(result.headers.get("x-action-version")).toBe("2.4");
  expect(result.headers.get("x-blockchain-ids")).toBe(chainId);
}

function expectActionError(result: HttpResult, status: number, message: RegExp): void {
  expect(result.status, result.text).toBe(status);
  expect(actionError.parse(result.body).message).toMatch(message);
  expectActionHeaders(result);
}

const paths = (vault: string) => ({
  deposit: `/api/actions/vault/${vault}/deposit`,
  withdraw: `/api/actions/vault/${vault}/withdraw`,
  claim: `/api/actions/vault/${vault}/claim`,
  cancel: `/api/actions/vault/${vault}/cancel`,
  confirm: `/api/actions/vault/${vault}/confirm`,
});

async function post(path: string, body: unknown): Promise<HttpResult> {
  return harness.request("POST", path, { body });
}

/** Signs the action's transaction as a wallet would, after checking it pays its own fee. */
async function signAndLand(response: TransactionResponse, wallet: Keypair): Promise<string> {
  const transaction = VersionedTransaction.deserialize(Buffer.from(response.transaction, "base64"));
  expect(transaction.version).toBe(0);
  expect(transaction.message.staticAccountKeys[0]?.toBase58()).toBe(wallet.publicKey.toBase58());
  expect(transaction.signatures.every((signature) => signature.every((byte) => byte === 0))).toBe(true);
  return harness.signAndSend(response.transaction, wallet);
}

describe("GET /actions.json", () => {
  it("maps the vault pages to their deposit action, with the Actions headers", async () => {
    const result = await harness.request("GET", "/actions.json");
    expect(result.status).toBe(200);
    expect(actionsJsonBody.parse(result.body).rules).toContainEqual({
      pathPattern: "/vault/*",
      apiPath: "/api/actions/vault/*/deposit",
    });
    expectActionHeaders(result);
  });
});

describe("preflight", () => {
  it.each(["deposit", "withdraw", "claim", "confirm"] as const)(
    "OPTIONS %s answers the Actions headers",
    async (kind) => {
      const result = await harness.request("OPTIONS", paths(harness.vaultId)[kind], {
        headers: { Origin: "https://blinks.example", "Access-Control-Request-Method": "POST" },
      });
      expect(result.status).toBe(204);
      expectActionHeaders(result);
    },
  );

  it("OPTIONS /actions.json answers them too", async () => {
    const result = await harness.request("OPTIONS", "/actions.json");
    expect(result.status).toBe(204);
    expectActionHeaders(result);
  });
});

describe("GET metadata", () => {
  it.each(["deposit", "withdraw", "claim", "cancel"] as const)(
    "%s is an ActionGetResponse naming the vault",
    async (kind) => {
      const result = await harness.request("GET", paths(harness.vaultId)[kind]);
      expect(result.status, result.text).toBe(200);
      expectActionHeaders(result);
      const action = actionGetResponse.parse(result.body);
      expect(action.title).toMatch(/USDC/);
      expect(action.description).toMatch(
        /^Share price \d+\.\d+ USDC · (APY \(7 days\) -?\d+\.\d\d%|APY not known yet) · withdrawal fee/,
      );
      expect(action.icon).toBe(`${harness.url}/icon.svg`);
      // Where withdrawals are offered, so is the cancel of a pending one.
      const own = paths(harness.vaultId);
      for (const link of action.links?.actions ?? []) {
        expect(link.href.startsWith(own[kind]) || (kind !== "deposit" && link.href === own.cancel)).toBe(
          true,
        );
      }
      expect(action.links?.actions.some((link) => link.href === own.cancel)).toBe(kind !== "deposit");
    },
  );

  it("deposit offers fixed amounts and an {amount} parameter in USDC", async () => {
    const action = actionGetResponse.parse(
      (await harness.request("GET", paths(harness.vaultId).deposit)).body,
    );
    const hrefs = action.links?.actions.map((link) => link.href) ?? [];
    expect(hrefs).toContain(`${paths(harness.vaultId).deposit}?amount=100`);
    const custom = action.links?.actions.find((link) => link.href.endsWith("?amount={amount}"));
    expect(custom?.parameters).toEqual([
      expect.objectContaining({ name: "amount", type: "number", required: true }),
    ]);
  });

  it("withdraw offers a value and a shares parameter", async () => {
    const action = actionGetResponse.parse(
      (await harness.request("GET", paths(harness.vaultId).withdraw)).body,
    );
    const { withdraw, cancel } = paths(harness.vaultId);
    expect(action.links?.actions.map((link) => [link.label, link.href])).toEqual([
      ["Withdraw USDC", `${withdraw}?amount={amount}`],
      ["Withdraw vUSDC", `${withdraw}?shares={shares}`],
      ["Cancel pending request", cancel],
    ]);
  });
});

describe("GET metadata of a link with its amount", () => {
  it("offers that amount first: ?amount= on deposit and withdraw, ?shares= on withdraw", async () => {
    const { deposit, withdraw } = paths(harness.vaultId);
    const labelled = async (path: string) =>
      (actionGetResponse.parse((await harness.request("GET", path)).body).links?.actions ?? []).map(
        (link) => [link.label, link.href],
      );
    expect(await labelled(`${deposit}?amount=2500.5`)).toEqual([
      ["Deposit 2,500.50 USDC", `${deposit}?amount=2500.5`],
      ["Deposit", `${deposit}?amount={amount}`],
    ]);
    expect((await labelled(`${withdraw}?amount=10`))[0]).toEqual([
      "Withdraw 10.00 USDC",
      `${withdraw}?amount=10`,
    ]);
    expect((await labelled(`${withdraw}?shares=1.123456789`))[0]).toEqual([
      "Withdraw 1.12 vUSDC",
      `${withdraw}?shares=1.123456789`,
    ]);
  });

  it("offers no link amount below the vault's minimum: says it by value, and the fields start at the minimum", async () => {
    // USDC Prime's minimum is 1 vUSDC, worth 1 USDC or a little more once its share price is above 1.
    const { withdraw } = paths(harness.vaultId);
    const metadata = actionGetResponse.parse((await harness.request("GET", `${withdraw}?amount=0.5`)).body);
    const labels = (metadata.links?.actions ?? []).map((link) => link.label);
    expect(labels).not.toContain("Withdraw 0.50 USDC");
    expect(labels[0]).toBe("Withdraw USDC");
    expect(metadata.error?.message).toMatch(
      /^0\.50 USDC is less than this vault's minimum withdrawal, 1\.\d\d USDC \(1\.00 vUSDC\); choose a larger amount\.$/,
    );
    const minimumValue = Number(
      /minimum withdrawal, (1\.\d\d) USDC/.exec(metadata.error?.message ?? "")?.[1],
    );
    const fields = (metadata.links?.actions ?? []).flatMap((link) => link.parameters ?? []);
    expect(fields.map((field) => [field.name, "min" in field ? field.min : undefined])).toEqual([
      ["amount", minimumValue],
      ["shares", 1],
    ]);
    // The minimum's value is a request the POST takes.
    const wallet = await harness.fundedWallet(10n * USDC);
    const account = wallet.publicKey.toBase58();
    const depositBuilt = await post(`${paths(harness.vaultId).deposit}?amount=5`, { account });
    await signAndLand(actionPostResponse.parse(depositBuilt.body), wallet);
    const below = await post(`${withdraw}?amount=0.5`, { account });
    expectActionError(
      below,
      422,
      /^amount: 0\.50 USDC is less than this vault's minimum withdrawal, 1\.\d\d USDC \(1\.00 vUSDC\)$/,
    );
    const atMinimum = await post(`${withdraw}?amount=${minimumValue}`, { account });
    expect(atMinimum.status, atMinimum.text).toBe(200);
  });

  it.each([
    ["deposit", "?amount=abc", /amount: must be a positive number/],
    ["deposit", "?amount=1,5", /amount: must be a positive number/],
    ["withdraw", "?amount=1&shares=1", /give shares or amount, not both/],
    ["withdraw", "?shares=0.0000000001", /shares: has more than 9 decimals/],
  ] as const)("refuses a %s link with %s, saying why", async (kind, query, message) => {
    const result = await harness.request("GET", `${paths(harness.vaultId)[kind]}${query}`);
    expectActionError(result, 400, message);
  });
});

describe("a blink's whole flow", () => {
  it("deposits, requests a withdrawal and claims, each landed on chain and recorded by the callback", async () => {
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const account = wallet.publicKey.toBase58();
    const vault = paths(harness.vaultId);

    const deposit = await post(`${vault.deposit}?amount=250`, { account });
    expect(deposit.status, deposit.text).toBe(200);
    expectActionHeaders(deposit);
    const depositResponse = actionPostResponse.parse(deposit.body);
    expect(depositResponse.message).toMatch(/250\.00 USDC/);
    expect(depositResponse.links?.next).toEqual({ type: "post", href: vault.confirm });
    const depositSignature = await signAndLand(depositResponse, wallet);

    const depositDone = await post(vault.confirm, { account, signature: depositSignature });
    expect(depositDone.status, depositDone.text).toBe(200);
    expectActionHeaders(depositDone);
    expect(completedAction.parse(depositDone.body).description).toMatch(
      // As the pages write amounts: grouped, two decimals (a share has nine).
      /^Deposited 250\.00 USDC; about [\d,]+\.\d{2} vUSDC$/,
    );
    const [recorded] = await harness.context.store.history.findBySignature(depositSignature);
    expect(recorded).toMatchObject({ kind: "deposit", wallet: account, assets: 250n * USDC });
    // The callback again (a client retrying): the same words, still one record.
    const again = await post(vault.confirm, { account, signature: depositSignature });
    expect(again.body).toEqual(depositDone.body);

    const nothingYet = await post(vault.claim, { account });
    expectActionError(nothingYet, 409, /no pending withdrawal/);

    // The share price from the chain before the build and after the request lands: the keeper strikes a
    // gain every 2 s, so the shares asked for at the build's price may be worth a little more by then.
    const price = async (): Promise<[bigint, bigint]> => {
      const info = await harness.connection.getAccountInfo(new PublicKey(harness.vaultId), "confirmed");
      if (info === null) throw new Error("no vault account");
      const state = decodeVaultState(info.data);
      return [state.totalAssets + 1n, state.totalShares + 1_000n];
    };
    const [assetsBefore, sharesBefore] = await price();
    const withdraw = await post(`${vault.withdraw}?amount=100`, { account });
    expect(withdraw.status, withdraw.text).toBe(200);
    const withdrawResponse = actionPostResponse.parse(withdraw.body);
    expect(withdrawResponse.message).toMatch(
      /^Request a withdrawal of [\d,]+\.\d{2} vUSDC from USDC Prime, worth about [\d,]+\.\d{2} USDC after the fee/,
    );
    const withdrawSignature = await signAndLand(withdrawResponse, wallet);
    const withdrawDone = await post(vault.confirm, { account, signature: withdrawSignature });
    expect(completedAction.parse(withdrawDone.body)).toMatchObject({ title: "Withdrawal requested" });
    const [initiate] = await harness.context.store.history.findBySignature(withdrawSignature);
    expect(initiate?.kind).toBe("initiate");
    // By value: the shares are worth at most the 100 USDC asked for at the price they were built at
    // (scaled by the gain struck until they landed), and not a unit of USDC less.
    const [assetsAfter, sharesAfter] = await price();
    const ceiling = (100n * USDC * assetsAfter * sharesBefore) / (sharesAfter * assetsBefore) + 1n;
    expect(initiate?.assets).toBeLessThanOrEqual(ceiling);
    expect(initiate?.assets).toBeGreaterThan(100n * USDC - 2n);

    const pendingAgain = await post(`${vault.withdraw}?amount=1`, { account });
    expectActionError(pendingAgain, 409, /already has a pending withdrawal/);

    const claim = await waitFor(async () => {
      const result = await post(vault.claim, { account });
      return result.status === 200 ? result : undefined;
    }, 30_000);
    const claimResponse = actionPostResponse.parse(claim.body);
    expect(claimResponse.message).toMatch(/^Claim about [\d,]+\.\d{2} USDC \([\d,]+\.\d{2} USDC less a /);
    const claimSignature = await signAndLand(claimResponse, wallet);
    const claimDone = await post(vault.confirm, { account, signature: claimSignature });
    expect(completedAction.parse(claimDone.body).description).toMatch(/^Claimed \d+\.\d+ USDC for /);
    expect((await harness.context.store.history.findBySignature(claimSignature))[0]?.kind).toBe("claim");
  });

  it("cancels a pending request: the shares back, recorded by the callback; nothing left is a 409", async () => {
    const wallet = await harness.fundedWallet(100n * USDC);
    const account = wallet.publicKey.toBase58();
    const vault = paths(harness.vaultId);
    const nothing = await post(vault.cancel, { account });
    expectActionError(nothing, 409, /no pending withdrawal in this vault to cancel/);
    await signAndLand(
      actionPostResponse.parse((await post(`${vault.deposit}?amount=50`, { account })).body),
      wallet,
    );
    const requested = await signAndLand(
      actionPostResponse.parse((await post(`${vault.withdraw}?shares=20`, { account })).body),
      wallet,
    );
    await post(vault.confirm, { account, signature: requested });

    const cancel = await post(vault.cancel, { account });
    expect(cancel.status, cancel.text).toBe(200);
    expectActionHeaders(cancel);
    const cancelResponse = actionPostResponse.parse(cancel.body);
    expect(cancelResponse.message).toMatch(
      // The prime vault's 10 bps exit fee, burned in shares: 0.02 of 20 vUSDC.
      /^Cancel the pending withdrawal of 20\.00 vUSDC from USDC Prime: the exit fee of 0\.02 vUSDC \(0\.1%\) is burned and the other 19\.98 vUSDC \(about [\d,]+\.\d{2} USDC at today's share price\) come back/,
    );
    expect(cancelResponse.links?.next).toEqual({ type: "post", href: vault.confirm });
    const signature = await signAndLand(cancelResponse, wallet);
    const done = await post(vault.confirm, { account, signature });
    expect(completedAction.parse(done.body)).toMatchObject({
      title: "Withdrawal cancelled",
      description: "19.98 vUSDC came back to your wallet; the request left the queue",
    });
    expect((await harness.context.store.history.findBySignature(signature))[0]).toMatchObject({
      kind: "cancel",
      shares: 19_980_000_000n,
      assets: 0n,
    });
    expectActionError(
      await post(vault.cancel, { account }),
      409,
      /no pending withdrawal in this vault to cancel/,
    );
  });

  it("withdraws by shares as well", async () => {
    const wallet = await harness.fundedWallet(100n * USDC);
    const account = wallet.publicKey.toBase58();
    const vault = paths(harness.flexVaultId);
    const deposit = actionPostResponse.parse((await post(`${vault.deposit}?amount=50`, { account })).body);
    await signAndLand(deposit, wallet);
    const withdraw = await post(`${vault.withdraw}?shares=10`, { account });
    expect(withdraw.status, withdraw.text).toBe(200);
    const signature = await signAndLand(actionPostResponse.parse(withdraw.body), wallet);
    // The callback records the initiate even though the deposit was never recorded: each is verified alone.
    const done = await post(vault.confirm, { account, signature });
    expect(completedAction.parse(done.body).description).toMatch(/^Requested a withdrawal of 10\.00 vUSDC/);
  });
});

describe("errors: the specification's { message } with a 4xx, never a 500", () => {
  const unfunded = Keypair.generate().publicKey.toBase58();

  it.each([
    ["no body", "deposit?amount=1", undefined, 415, /Content-Type must be application\/json/],
    ["no account", "deposit?amount=1", {}, 400, /^account: is required/],
    [
      "an account that is not a key",
      "deposit?amount=1",
      { account: "not-a-key" },
      400,
      /^account: must be a base58 public key/,
    ],
    ["no amount", "deposit", { account: unfunded }, 400, /^amount: is required/],
    [
      "an amount that is not a number",
      "deposit?amount=lots",
      { account: unfunded },
      400,
      /^amount: must be a positive number/,
    ],
    ["a zero amount", "deposit?amount=0", { account: unfunded }, 400, /^amount: must be more than zero/],
    [
      "more decimals than USDC has",
      "deposit?amount=1.0000001",
      { account: unfunded },
      400,
      /^amount: has more than 6 decimals/,
    ],
    [
      "an amount above u64",
      "deposit?amount=99999999999999999999",
      { account: unfunded },
      400,
      /^amount: is too large/,
    ],
    [
      "more than the wallet holds",
      "deposit?amount=5",
      { account: unfunded },
      422,
      /The wallet holds 0\.00 USDC/,
    ],
    ["both shares and amount", "withdraw?amount=1&shares=1", { account: unfunded }, 400, /not both/],
    ["nothing to claim", "claim", { account: unfunded }, 409, /no pending withdrawal in this vault to claim/],
  ])("%s", async (_name, suffix, body, status, message) => {
    const result = await harness.request("POST", `/api/actions/vault/${harness.vaultId}/${suffix}`, {
      ...(body === undefined ? { rawBody: "{}", headers: { "Content-Type": "text/plain" } } : { body }),
    });
    expectActionError(result, status, message);
  });

  it("an unknown vault is 404 on GET and POST", async () => {
    const nowhere = Keypair.generate().publicKey.toBase58();
    expectActionError(await harness.request("GET", paths(nowhere).deposit), 404, /No vault exists at/);
    expectActionError(
      await post(`${paths(nowhere).deposit}?amount=1`, { account: unfunded }),
      404,
      /No vault/,
    );
  });

  it("a vault id that is not an address is 400", async () => {
    expectActionError(await harness.request("GET", paths("nope").claim), 400, /^vault_id: must be a base58/);
  });

  it("a callback with a signature of no transaction is 422, with a bad signature 400", async () => {
    const missing = await post(paths(harness.vaultId).confirm, {
      account: unfunded,
      signature: "1".repeat(64),
    });
    expectActionError(missing, 422, /no confirmed transaction has this signature/);
    const bad = await post(paths(harness.vaultId).confirm, { account: unfunded, signature: "0OIl" });
    expectActionError(bad, 400, /^signature: must be a base58 transaction signature/);
  });

  it("a method the route lacks is 405 in the same shape", async () => {
    const result = await harness.request("DELETE", paths(harness.vaultId).deposit);
    expect(result.status).toBe(405);
    expect(actionError.parse(result.body).message).toMatch(/DELETE is not allowed/);
    expect(result.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("is limited per client IP like the keyless tier, with Retry-After", async () => {
    harness.context.publicLimit = { limit: 2, windowSeconds: 60 };
    try {
      const path = paths(harness.flexVaultId).claim;
      const results: HttpResult[] = [];
      for (let index = 0; index < 3; index += 1) {
        results.push(await harness.request("GET", path));
      }
      expect(results.map((result) => result.status)).toEqual([200, 200, 429]);
      const limited = results[2];
      if (limited === undefined) {
        throw new Error("no third response");
      }
      expectActionError(limited, 429, /Too many requests from this address: 2 per 60 s/);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      harness.context.publicLimit = RELAXED;
    }
  });
});
