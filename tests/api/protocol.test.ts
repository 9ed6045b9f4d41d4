// Only the deployment's protocol's vaults are served. An outsider makes a protocol of their own and a
// second "USDC Prime" on the same USDC mint (the program lets anyone be a protocol's admin), and
// deposits into it: that vault is not indexed, absent from GET /api/vaults and the wallet's portfolio,
// 404 on every vault route (the endpoint definitions the security suite runs over) and the keyless ones, and absent from what the
// pages read (the directory's listing and the vault page's read).
import { Keypair, type PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ENDPOINTS } from "../../lib/api/endpoints";
import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import { buildCreateAssociatedTokenAccountIdempotentInstruction } from "../../lib/chain/spl-token";
import { findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import { decodeVaultState } from "../../lib/vault/program/accounts";
import { deriveVaultAddresses, findProtocolAddress } from "../../lib/vault/program/addresses";
import {
  buildDepositInstruction,
  buildInitializeProtocolInstruction,
  buildInitializeVaultInstruction,
} from "../../lib/vault/program/instructions";
import { VaultNotFoundError, connectionFor, readVault, readVaults } from "../../lib/web/chain-reader";
import { parseWebConfig } from "../../lib/web-config";
import { submitLocalTransaction } from "../../localnet/local-transactions";
import { closeConnection } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

let harness: ApiHarness;

/** Every partner endpoint that names a vault (the security suite's list, from the endpoint definitions). */
const VAULT_ROUTES = ENDPOINTS.filter(
  (endpoint) =>
    endpoint.audience === "partner" && (endpoint.names === "vault" || endpoint.names === "vault-and-wallet"),
).map((endpoint) => ({ ...endpoint, name: `${endpoint.method} ${endpoint.path}` }));
let key: string;
let indexer: Indexer;
let outsider: Keypair;
let fake: PublicKey;

/** The outsider's own protocol, a vault named like the real one on the same mint, and a deposit in it. */
function createOutsideVault(): PublicKey {
  const { chain, addresses } = harness.localnet;
  const protocol = findProtocolAddress(outsider.publicKey);
  const vault = deriveVaultAddresses(protocol, 0n);
  const assetAccount = findAssociatedTokenAddress(outsider.publicKey, addresses.usdcMint);
  const shareAccount = findAssociatedTokenAddress(outsider.publicKey, vault.shareMint);
  submitLocalTransaction(
    chain,
    "test: an outsider's protocol and vault",
    [
      buildInitializeProtocolInstruction(
        { creator: outsider.publicKey, protocol },
        {
          maxGainBps: 10_000,
          maxLossBps: 10_000,
          minNavIntervalSeconds: 0,
          maxAnnualGainBps: 10_000,
          maxDailyLossBps: 1_000,
        },
      ),
      buildInitializeVaultInstruction(
        {
          payer: outsider.publicKey,
          admin: outsider.publicKey,
          protocol,
          assetMint: addresses.usdcMint,
          ...vault,
        },
        {
          index: 0n,
          manager: outsider.publicKey,
          name: "USDC Prime",
          feeBps: 10,
          minWithdrawalShares: 0n,
          hourlyCap: 0n,
          dailyCap: 0n,
        },
      ),
      buildCreateAssociatedTokenAccountIdempotentInstruction(
        outsider.publicKey,
        outsider.publicKey,
        vault.shareMint,
        shareAccount,
      ),
      buildDepositInstruction(
        {
          depositor: outsider.publicKey,
          vault: vault.vault,
          authority: vault.authority,
          shareMint: vault.shareMint,
          reserve: vault.reserve,
          depositorAsset: assetAccount,
          depositorShares: shareAccount,
        },
        { amount: 50n * USDC, minSharesOut: 0n },
      ),
    ],
    outsider,
  );
  return vault.vault;
}

beforeAll(async () => {
  harness = await startApiHarness();
  // A partner's key (its asset account open), so the partner-only earnings read is served like any
  // read of a vault.
  const partner = await harness.fundedWallet(0n);
  key = (
    await harness.createKey({ scope: "write", partner: { wallet: partner.publicKey.toBase58(), feeBps: 25 } })
  ).secret;
  outsider = await harness.fundedWallet(100n * USDC);
  fake = createOutsideVault();
  // The outsider's wallet also holds shares of the real vault, so its portfolio is not empty.
  const deposit = dataOf(
    await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
      key,
      body: { wallet: outsider.publicKey.toBase58(), amount: (10n * USDC).toString() },
    }),
  );
  await harness.signAndSend(String(deposit.transaction), outsider);
  indexer = createIndexer(harness.context, { intervalMs: 60_000, schema: harness.schema });
  await indexer.runOnce();
});

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
});

describe("a vault of the same program outside the deployment's protocol", () => {
  it("exists on chain as a real vault, named and priced like the protocol's own", () => {
    const account = harness.localnet.chain.getAccount(fake.toBase58());
    const state = decodeVaultState(account?.data ?? new Uint8Array());
    expect(state).toMatchObject({ name: "USDC Prime", assetMint: harness.localnet.addresses.usdcMint });
    expect(state.totalAssets).toBe(50n * USDC);
    expect(state.protocol.equals(harness.localnet.addresses.protocol)).toBe(false);
  });

  it("is not indexed, and GET /api/vaults and the portfolio list only the protocol's vaults", async () => {
    expect((await harness.context.store.indexer.vaults()).map((row) => row.vault).sort()).toEqual(
      [harness.vaultId, harness.flexVaultId].sort(),
    );
    const listed = dataOf(await harness.request("GET", "/api/vaults", { key })) as {
      vaults: { id: string; name: string }[];
    };
    expect(listed.vaults.map((vault) => vault.id).sort()).toEqual(
      [harness.vaultId, harness.flexVaultId].sort(),
    );
    expect(listed.vaults.filter((vault) => vault.name === "USDC Prime")).toHaveLength(1);
    const portfolio = dataOf(
      await harness.request("GET", `/api/portfolio?wallet=${outsider.publicKey.toBase58()}`, { key }),
    ) as { positions: { vaultId: string }[] };
    expect(portfolio.positions.map((position) => position.vaultId)).toEqual([harness.vaultId]);
  });

  it("covers every partner route that names a vault", () => {
    expect(VAULT_ROUTES.length).toBeGreaterThanOrEqual(12);
  });

  it.each(VAULT_ROUTES)("answers $name with 404 unknown vault", async (route) => {
    if (route.sample === null) {
      throw new Error(`${route.operationId} has no sample request`);
    }
    const { path, body } = route.sample({ vault: fake.toBase58(), wallet: outsider.publicKey.toBase58() });
    const result = await harness.request(route.method, path, { key, body });
    expect(result.status, result.text).toBe(404);
    expect(result.body).toMatchObject({
      success: false,
      code: "VAULT_NOT_FOUND",
      error: `No vault exists at ${fake.toBase58()}`,
    });
    // The same request for the protocol's vault is not a 404: the route itself is served.
    const served = route.sample({ vault: harness.vaultId, wallet: outsider.publicKey.toBase58() });
    expect((await harness.request(route.method, served.path, { key, body: served.body })).status).not.toBe(
      404,
    );
  });

  it("answers the keyless endpoints' ?vault= with a bare 404", async () => {
    for (const path of ["/api/oracle", "/api/circulating-supply"]) {
      const result = await harness.request("GET", `${path}?vault=${fake.toBase58()}`);
      expect(result.status, path).toBe(404);
      expect(result.body).toMatchObject({ code: "VAULT_NOT_FOUND" });
      expect((await harness.request("GET", `${path}?vault=${harness.vaultId}`)).status, path).toBe(200);
    }
  });

  it("is absent from what the pages read: the directory's listing and the vault page", async () => {
    const { client } = parseWebConfig({
      RPC_URL: harness.localnet.rpcUrl,
      LOCALNET_ADDRESSES_FILE: harness.localnet.config.addressesFile,
    });
    expect(client.protocolId).toBe(harness.localnet.addresses.protocol.toBase58());
    const connection = connectionFor(client);
    try {
      const ids = (await readVaults(connection, client)).map((vault) => vault.id);
      expect(ids.sort()).toEqual([harness.vaultId, harness.flexVaultId].sort());
      await expect(readVault(connection, client, fake.toBase58())).rejects.toBeInstanceOf(VaultNotFoundError);
      expect((await readVault(connection, client, harness.vaultId)).name).toBe("USDC Prime");
      // Pages configured without a protocol show no vault at all rather than every vault.
      const unconfigured = { ...client, protocolId: null };
      expect(await readVaults(connection, unconfigured)).toEqual([]);
    } finally {
      closeConnection(connection);
    }
  });
});

describe("a key for every vault", () => {
  it("cannot reach the outside vault through a vault restriction naming it", async () => {
    const restricted = (await harness.createKey({ scope: "write", vaults: [fake.toBase58()] })).secret;
    const result = await harness.request("GET", `/api/vault/${fake.toBase58()}`, { key: restricted });
    expect(result.status).toBe(404);
    const listed = dataOf(await harness.request("GET", "/api/vaults", { key: restricted })) as {
      vaults: unknown[];
    };
    expect(listed.vaults).toEqual([]);
  });
});
