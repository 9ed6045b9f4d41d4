// Genesis of the local chain: the dev accounts, a USDC-like mint, the vault program at its fixed id, the
// protocol (its admin a dev key) and the demo vaults registered under it, all at addresses derived
// from fixed dev seeds so the app's config can name them. Idempotent: run on every start, it creates
// only what is missing, redeploys the program binary and brings the protocol's NAV bounds to these.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

import bs58 from "bs58";
import { SystemProgram, type Keypair, type PublicKey } from "@solana/web3.js";

import { decodeProtocolState } from "../lib/vault/program/accounts";
import {
  deriveVaultAddresses,
  findProtocolAddress,
  type VaultAddresses,
} from "../lib/vault/program/addresses";
import { VAULT_PROGRAM_ID } from "../lib/vault/program/idl";
import {
  buildInitializeProtocolInstruction,
  buildInitializeVaultInstruction,
  DEFAULT_NAV_RATES,
  buildSetNavBoundsInstruction,
  type InitializeVaultArgs,
  type NavBounds,
} from "../lib/vault/program/instructions";
import type { Chain } from "./chain";
import { stringifyJson } from "./json";
import { devKeypair } from "./keys";
import { submitLocalTransaction } from "./local-transactions";
import { MINT_SIZE, TOKEN_PROGRAM_ID, buildInitializeMint2Instruction } from "../lib/chain/spl-token";

const LAMPORTS_PER_SOL = 1_000_000_000n;
const USDC = 1_000_000n;

/** The dev keys of the localnet's roles; their seeds are public, so these are worthless off this chain. */
export interface DevRoles {
  /** Pays for airdrops and faucet transactions. */
  faucet: Keypair;
  /** Mint authority of the USDC-like mint (the faucet and the keeper mint with it). */
  mintAuthority: Keypair;
  /** The mint's own keypair, so its address is fixed. */
  usdcMint: Keypair;
  /** Admin of the protocol: registers the vaults and sets the NAV bounds. */
  admin: Keypair;
  /** Manager of the demo vaults; the keeper signs with it. */
  manager: Keypair;
  /** The validator's identity (getIdentity). */
  validator: Keypair;
}

export function devRoles(): DevRoles {
  return {
    faucet: devKeypair("faucet"),
    mintAuthority: devKeypair("usdc-mint-authority"),
    usdcMint: devKeypair("usdc-mint"),
    admin: devKeypair("protocol-admin"),
    manager: devKeypair("manager"),
    validator: devKeypair("validator"),
  };
}

/**
 * A fresh ledger's genesis hash: random, as a real validator's fresh ledger gets a new one, so a
 * restarted chain is told apart from the one before it (the indexer and the API's caches start over
 * on a change). A chain restored from --state-dir keeps the hash in its snapshot.
 */
export const freshGenesisHash = (): string => bs58.encode(randomBytes(32));

/** A demo vault is what initialize_vault takes; the dev manager manages each. */
export type DemoVaultSpec = Omit<InitializeVaultArgs, "manager">;

/**
 * The protocol's NAV bounds here: the keeper's ~10% APY struck every minute (or every second in the
 * tests) accrues far below 5 bps a strike, and a day's accrual after downtime (~2.7 bps) still fits;
 * at most one strike a second, and a loss of at most 0.5% a strike. Over time the default rates: 20%
 * a year of gain (twice the keeper's yield), 0.5% a day of loss.
 */
export const LOCALNET_NAV_BOUNDS: NavBounds = {
  maxGainBps: 5,
  maxLossBps: 50,
  minNavIntervalSeconds: 1,
  ...DEFAULT_NAV_RATES,
};

export const USDC_DECIMALS = 6;

export const DEMO_VAULTS: readonly DemoVaultSpec[] = [
  {
    index: 0n,
    name: "USDC Prime",
    feeBps: 10,
    // One whole share: the share mint has the asset's 6 decimals plus 3.
    minWithdrawalShares: 1_000n * USDC,
    hourlyCap: 25_000n * USDC,
    dailyCap: 100_000n * USDC,
  },
  {
    index: 1n,
    name: "USDC Flex",
    feeBps: 0,
    minWithdrawalShares: 0n,
    hourlyCap: 0n,
    dailyCap: 0n,
  },
];

const GENESIS_BALANCES = {
  faucet: 100_000_000n * LAMPORTS_PER_SOL,
  admin: 100n * LAMPORTS_PER_SOL,
  manager: 1_000n * LAMPORTS_PER_SOL,
  validator: 500n * LAMPORTS_PER_SOL,
} as const;

export interface LocalnetVault extends VaultAddresses {
  spec: DemoVaultSpec;
}

export interface LocalnetAddresses {
  programId: PublicKey;
  programDeployed: boolean;
  usdcMint: PublicKey;
  /** The deployment's protocol: the app serves its vaults only (PROTOCOL_ID). */
  protocol: PublicKey;
  admin: PublicKey;
  manager: PublicKey;
  faucet: PublicKey;
  vaults: LocalnetVault[];
}

export function localnetAddresses(programDeployed: boolean): LocalnetAddresses {
  const roles = devRoles();
  const protocol = findProtocolAddress(roles.admin.publicKey);
  return {
    programId: VAULT_PROGRAM_ID,
    programDeployed,
    usdcMint: roles.usdcMint.publicKey,
    protocol,
    admin: roles.admin.publicKey,
    manager: roles.manager.publicKey,
    faucet: roles.faucet.publicKey,
    vaults: DEMO_VAULTS.map((spec) => ({ spec, ...deriveVaultAddresses(protocol, spec.index) })),
  };
}

/** A system account holding `lamports`, unless the keypair's address already has an account. */
export function fundIfMissing(chain: Chain, keypair: Keypair, lamports: bigint): void {
  const address = keypair.publicKey.toBase58();
  if (chain.getAccount(address) === null) {
    chain.setAccount(address, {
      lamports,
      data: new Uint8Array(0),
      owner: SystemProgram.programId.toBase58(),
      executable: false,
    });
  }
}

function createUsdcMint(chain: Chain, roles: DevRoles): void {
  const lamports = chain.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
  submitLocalTransaction(
    chain,
    "genesis: create the USDC mint",
    [
      SystemProgram.createAccount({
        fromPubkey: roles.faucet.publicKey,
        newAccountPubkey: roles.usdcMint.publicKey,
        lamports: Number(lamports),
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      buildInitializeMint2Instruction(
        roles.usdcMint.publicKey,
        USDC_DECIMALS,
        roles.mintAuthority.publicKey,
        null,
      ),
    ],
    roles.faucet,
    [roles.usdcMint],
  );
}

/** Creates the protocol, or brings its bounds to LOCALNET_NAV_BOUNDS when they differ. */
function ensureProtocol(chain: Chain, roles: DevRoles, protocol: PublicKey): void {
  const account = chain.getAccount(protocol.toBase58());
  if (account === null) {
    submitLocalTransaction(
      chain,
      "genesis: create the protocol",
      [buildInitializeProtocolInstruction({ creator: roles.admin.publicKey, protocol }, LOCALNET_NAV_BOUNDS)],
      roles.admin,
    );
    return;
  }
  const stored = decodeProtocolState(account.data);
  if (
    stored.maxGainBps !== LOCALNET_NAV_BOUNDS.maxGainBps ||
    stored.maxLossBps !== LOCALNET_NAV_BOUNDS.maxLossBps ||
    stored.minNavIntervalSeconds !== LOCALNET_NAV_BOUNDS.minNavIntervalSeconds ||
    stored.maxAnnualGainBps !== LOCALNET_NAV_BOUNDS.maxAnnualGainBps ||
    stored.maxDailyLossBps !== LOCALNET_NAV_BOUNDS.maxDailyLossBps
  ) {
    submitLocalTransaction(
      chain,
      "genesis: set the protocol's NAV bounds",
      [buildSetNavBoundsInstruction({ admin: roles.admin.publicKey, protocol }, LOCALNET_NAV_BOUNDS)],
      roles.admin,
    );
  }
}

function initializeVault(chain: Chain, roles: DevRoles, protocol: PublicKey, vault: LocalnetVault): void {
  const { spec } = vault;
  submitLocalTransaction(
    chain,
    `genesis: register the vault "${spec.name}"`,
    [
      buildInitializeVaultInstruction(
        {
          payer: roles.admin.publicKey,
          admin: roles.admin.publicKey,
          protocol,
          vault: vault.vault,
          authority: vault.authority,
          shareMint: vault.shareMint,
          reserve: vault.reserve,
          escrow: vault.escrow,
          assetMint: roles.usdcMint.publicKey,
        },
        { ...spec, manager: roles.manager.publicKey },
      ),
    ],
    roles.admin,
  );
}

/**
 * Brings the chain to the genesis state: funds the dev accounts, creates the mint, deploys the program
 * (every start, so a rebuilt binary takes effect), creates the protocol and registers the demo vaults
 * that do not exist.
 */
export function applyGenesis(chain: Chain, programBinary: Uint8Array | null): LocalnetAddresses {
  const roles = devRoles();
  fundIfMissing(chain, roles.faucet, GENESIS_BALANCES.faucet);
  fundIfMissing(chain, roles.admin, GENESIS_BALANCES.admin);
  fundIfMissing(chain, roles.manager, GENESIS_BALANCES.manager);
  fundIfMissing(chain, roles.validator, GENESIS_BALANCES.validator);
  if (chain.getAccount(roles.usdcMint.publicKey.toBase58()) === null) {
    createUsdcMint(chain, roles);
  }
  if (programBinary !== null) {
    chain.addProgram(VAULT_PROGRAM_ID.toBase58(), programBinary);
  }
  const addresses = localnetAddresses(programBinary !== null);
  if (programBinary !== null) {
    ensureProtocol(chain, roles, addresses.protocol);
    // Vaults are registered in index order, as the protocol's vault_count requires.
    for (const vault of addresses.vaults) {
      if (chain.getAccount(vault.vault.toBase58()) === null) {
        initializeVault(chain, roles, addresses.protocol, vault);
      }
    }
  }
  return addresses;
}

export interface Endpoints {
  rpcUrl: string;
  wsUrl: string;
  faucetUrl: string;
}

/** The JSON document the app reads to find the chain, the mint and the vaults. */
export function addressesDocument(chain: Chain, addresses: LocalnetAddresses, endpoints: Endpoints): unknown {
  return {
    cluster: "localnet",
    ...endpoints,
    genesisHash: chain.identity.genesisHash,
    programId: addresses.programId.toBase58(),
    programDeployed: addresses.programDeployed,
    protocolId: addresses.programDeployed ? addresses.protocol.toBase58() : null,
    admin: addresses.admin.toBase58(),
    asset: { mint: addresses.usdcMint.toBase58(), symbol: "USDC", decimals: USDC_DECIMALS },
    manager: addresses.manager.toBase58(),
    faucet: addresses.faucet.toBase58(),
    vaults: addresses.programDeployed
      ? addresses.vaults.map((vault) => ({
          id: vault.vault.toBase58(),
          name: vault.spec.name,
          index: vault.spec.index.toString(),
          authority: vault.authority.toBase58(),
          shareMint: vault.shareMint.toBase58(),
          reserve: vault.reserve.toBase58(),
          escrow: vault.escrow.toBase58(),
          feeBps: vault.spec.feeBps,
          minWithdrawalShares: vault.spec.minWithdrawalShares.toString(),
          hourlyCap: vault.spec.hourlyCap.toString(),
          dailyCap: vault.spec.dailyCap.toString(),
        }))
      : [],
    defaultVaultId: addresses.programDeployed ? (addresses.vaults[0]?.vault.toBase58() ?? null) : null,
  };
}

export async function writeAddressesFile(path: string, document: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${stringifyJson(document)}\n`);
}
