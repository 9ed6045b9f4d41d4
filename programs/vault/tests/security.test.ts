// The sealevel attack list against every instruction that takes the account in question: each
// attack must be refused with the specific error and leave every account it names unchanged.
import { Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { describe, it } from "vitest";

import { findReceipt } from "../../../lib/vault/program/addresses";
import { VAULT_PROGRAM_ID } from "../../../lib/vault/program/idl";
import { ASSET_DECIMALS, TestChain, type RawAccount } from "./harness";
import { expectRefused, expectSuccess } from "./expectations";
import {
  DEFAULT_VAULT_SETTINGS,
  OPEN_NAV_BOUNDS,
  TestProtocol,
  TestVault,
  type Member,
} from "./vault-fixture";

/**
 * A vault in use: alice has a funded, struck withdrawal she could claim right now; bob holds
 * shares; mallory is an outsider with assets and shares of her own.
 */
function liveVault() {
  const chain = TestChain.create();
  const { vault } = TestVault.create(chain);
  const [alice, bob, mallory] = [
    vault.addMember(1_000_000n),
    vault.addMember(1_000_000n),
    vault.addMember(1_000_000n),
  ] as [Member, Member, Member];
  for (const member of [alice, bob, mallory]) expectSuccess(vault.deposit(member, 500_000n));
  expectSuccess(vault.requestWithdrawal(alice, 200_000n));
  expectSuccess(vault.updateNav(0n, 0n));
  expectSuccess(vault.stageWithdrawals(200_000n));
  return { chain, vault, alice, bob, mallory };
}

type Live = ReturnType<typeof liveVault>;

interface Attack {
  name: string;
  error: string;
  build: (live: Live) => { instructions: TransactionInstruction[]; signers: Keypair[] };
}

function withMeta(
  instruction: TransactionInstruction,
  key: PublicKey,
  flags: { isSigner?: boolean; isWritable?: boolean },
): TransactionInstruction {
  instruction.keys = instruction.keys.map((meta) => (meta.pubkey.equals(key) ? { ...meta, ...flags } : meta));
  return instruction;
}

function existing(chain: TestChain, key: PublicKey): RawAccount {
  const account = chain.readAccount(key);
  if (account === null) {
    throw new Error(`No account at ${key.toBase58()}`);
  }
  return account;
}

/** A copy of `key`'s account at a fresh address, owned by `owner`. */
function impostorOf(chain: TestChain, key: PublicKey, owner: PublicKey): PublicKey {
  const address = Keypair.generate().publicKey;
  chain.writeAccount({ ...existing(chain, key), address, owner });
  return address;
}

function resized(chain: TestChain, key: PublicKey, delta: 1 | -1): void {
  const account = existing(chain, key);
  const data = delta === 1 ? Uint8Array.from([...account.data, 0]) : account.data.slice(0, -1);
  chain.writeAccount({ ...account, data });
}

const attacks: Attack[] = [
  // Wrong account owner
  {
    name: "deposit into a vault-shaped account owned by another program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault, bob }) => ({
      instructions: [
        vault.depositInstruction(bob, 10n, 0n, {
          vault: impostorOf(chain, vault.key, Keypair.generate().publicKey),
        }),
      ],
      signers: [bob.keypair],
    }),
  },
  {
    name: "strike the NAV of a vault-shaped account owned by another program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault }) => ({
      instructions: [
        vault.updateNavInstruction(1_000_000n, 0n, {
          vault: impostorOf(chain, vault.key, Keypair.generate().publicKey),
        }),
      ],
      signers: [vault.manager],
    }),
  },
  {
    name: "claim with a receipt-shaped account at the receipt address owned by another program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault, alice }) => {
      chain.writeAccount({ ...existing(chain, alice.receipt), owner: Keypair.generate().publicKey });
      return { instructions: [vault.claimWithdrawalInstruction(alice)], signers: [alice.keypair] };
    },
  },
  {
    name: "deposit from an asset account not owned by the token program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault, mallory }) => {
      chain.writeAccount({ ...existing(chain, mallory.assetAccount), owner: Keypair.generate().publicKey });
      return { instructions: [vault.depositInstruction(mallory, 10n)], signers: [mallory.keypair] };
    },
  },
  // Wrong PDA or stored address
  {
    name: "deposit into mallory's own asset account passed as the reserve",
    error: "InvalidAccount",
    build: ({ vault, mallory }) => ({
      instructions: [vault.depositInstruction(mallory, 10n, 0n, { reserve: mallory.assetAccount })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "stage against a well-funded token account passed as the reserve",
    error: "InvalidAccount",
    build: ({ chain, vault, bob }) => {
      expectSuccess(vault.requestWithdrawal(bob, 100_000n));
      const rich = chain.createTokenAccount(vault.addresses.authority, chain.assetMint);
      chain.mintAssets(rich, 10_000_000n);
      return {
        instructions: [vault.stageWithdrawalsInstruction(100_000n, { reserve: rich })],
        signers: [vault.manager],
      };
    },
  },
  {
    name: "request with mallory's share account passed as the escrow",
    error: "InvalidAccount",
    build: ({ chain, vault, mallory }) => {
      const decoy = chain.createTokenAccount(mallory.publicKey, vault.addresses.shareMint);
      return {
        instructions: [vault.requestWithdrawalInstruction(mallory, 10n, { escrow: decoy })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "deposit with a mint mallory controls passed as the share mint",
    error: "InvalidAccount",
    build: ({ chain, vault, mallory }) => {
      const fakeShares = chain.createMint(ASSET_DECIMALS, vault.addresses.authority);
      return {
        instructions: [vault.depositInstruction(mallory, 10n, 0n, { shareMint: fakeShares })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "claim with mallory passed as the vault authority",
    error: "InvalidAccount",
    build: ({ vault, alice, mallory }) => ({
      instructions: [vault.claimWithdrawalInstruction(alice, { authority: mallory.publicKey })],
      signers: [alice.keypair],
    }),
  },
  {
    name: "request with the receipt at an address that is not its PDA",
    error: "InvalidAccount",
    build: ({ vault, mallory }) => ({
      instructions: [
        vault.requestWithdrawalInstruction(mallory, 10n, {
          receipt: findReceipt(vault.key, Keypair.generate().publicKey),
        }),
      ],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "claim alice's funded receipt as mallory, paying mallory",
    error: "InvalidAccount",
    build: ({ vault, alice, mallory }) => ({
      instructions: [vault.claimWithdrawalInstruction(mallory, { receipt: alice.receipt })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "deposit into another manager's genuine vault with this vault's reserve and share mint",
    error: "InvalidAccount",
    build: ({ chain, vault, mallory }) => {
      const { vault: other } = TestVault.create(chain);
      return {
        instructions: [vault.depositInstruction(mallory, 10n, 0n, { vault: other.key })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "deposit through an impostor token program",
    error: "InvalidAccount",
    build: ({ vault, mallory }) => ({
      instructions: [
        vault.depositInstruction(mallory, 10n, 0n, { tokenProgram: Keypair.generate().publicKey }),
      ],
      signers: [mallory.keypair],
    }),
  },
  // Missing signer
  {
    name: "strike the NAV without the manager's signature",
    error: "MissingSigner",
    build: ({ vault }) => ({
      instructions: [
        withMeta(vault.updateNavInstruction(1_000_000n, 0n), vault.manager.publicKey, { isSigner: false }),
      ],
      signers: [],
    }),
  },
  {
    name: "deposit from bob's accounts without bob's signature",
    error: "MissingSigner",
    build: ({ vault, bob }) => ({
      instructions: [withMeta(vault.depositInstruction(bob, 10n), bob.publicKey, { isSigner: false })],
      signers: [],
    }),
  },
  // A signer who is not the manager
  {
    name: "strike the NAV as mallory",
    error: "Unauthorized",
    build: ({ vault, mallory }) => ({
      instructions: [vault.updateNavInstruction(1_000_000n, 0n, { manager: mallory.publicKey })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "stage withdrawals as mallory",
    error: "Unauthorized",
    build: ({ vault, bob, mallory }) => {
      expectSuccess(vault.requestWithdrawal(bob, 100_000n));
      return {
        instructions: [vault.stageWithdrawalsInstruction(100_000n, { manager: mallory.publicKey })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "unpause and raise the fee as mallory",
    error: "Unauthorized",
    build: ({ vault, mallory }) => ({
      instructions: [vault.updateConfigInstruction({ feeBps: 1000 }, { manager: mallory.publicKey })],
      signers: [mallory.keypair],
    }),
  },
  // Wrong mint
  {
    name: "deposit from an asset account of another mint",
    error: "InvalidMint",
    build: ({ chain, vault, mallory }) => {
      const otherMint = chain.createMint(ASSET_DECIMALS, chain.mintAuthority.publicKey);
      const otherAsset = chain.createTokenAccount(mallory.publicKey, otherMint);
      return {
        instructions: [vault.depositInstruction(mallory, 10n, 0n, { depositorAsset: otherAsset })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "deposit with an asset account passed as the share account",
    error: "InvalidMint",
    build: ({ chain, vault, mallory }) => {
      const secondAssetAccount = chain.createTokenAccount(mallory.publicKey, chain.assetMint);
      return {
        instructions: [vault.depositInstruction(mallory, 10n, 0n, { depositorShares: secondAssetAccount })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "claim into a share account instead of an asset account",
    error: "InvalidMint",
    build: ({ vault, alice }) => ({
      instructions: [vault.claimWithdrawalInstruction(alice, { ownerAsset: alice.shareAccount })],
      signers: [alice.keypair],
    }),
  },
  // Token accounts owned by someone else
  {
    name: "deposit minting into bob's share account",
    error: "InvalidTokenOwner",
    build: ({ vault, bob, mallory }) => ({
      instructions: [vault.depositInstruction(mallory, 10n, 0n, { depositorShares: bob.shareAccount })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "deposit paying with bob's assets",
    error: "InvalidTokenOwner",
    build: ({ vault, bob, mallory }) => ({
      instructions: [vault.depositInstruction(mallory, 10n, 0n, { depositorAsset: bob.assetAccount })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "request escrowing bob's shares",
    error: "InvalidTokenOwner",
    build: ({ vault, bob, mallory }) => ({
      instructions: [vault.requestWithdrawalInstruction(mallory, 10n, { ownerShares: bob.shareAccount })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "claim paying into bob's asset account",
    error: "InvalidTokenOwner",
    build: ({ vault, alice, bob }) => ({
      instructions: [vault.claimWithdrawalInstruction(alice, { ownerAsset: bob.assetAccount })],
      signers: [alice.keypair],
    }),
  },
  // The same account twice
  {
    name: "deposit with the reserve also passed as the depositor's asset account",
    error: "InvalidAccount",
    build: ({ vault, mallory }) => ({
      instructions: [vault.depositInstruction(mallory, 10n, 0n, { depositorAsset: vault.addresses.reserve })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "request with the escrow also passed as the owner's share account",
    error: "InvalidAccount",
    build: ({ vault, mallory }) => ({
      instructions: [
        vault.requestWithdrawalInstruction(mallory, 10n, { ownerShares: vault.addresses.escrow }),
      ],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "claim with the reserve also passed as the owner's asset account",
    error: "InvalidAccount",
    build: ({ vault, alice }) => ({
      instructions: [vault.claimWithdrawalInstruction(alice, { ownerAsset: vault.addresses.reserve })],
      signers: [alice.keypair],
    }),
  },
  // Re-initialisation
  {
    name: "initialize an existing vault again, with new settings",
    error: "AlreadyInitialized",
    build: ({ vault }) => ({
      instructions: [
        vault.initializeInstruction({ ...DEFAULT_VAULT_SETTINGS, feeBps: 1000, name: "Hijacked" }),
      ],
      signers: [vault.protocol.admin],
    }),
  },
  // Right discriminator, wrong size or type
  {
    name: "deposit into the vault account grown by one byte",
    error: "InvalidAccountData",
    build: ({ chain, vault, mallory }) => {
      resized(chain, vault.key, 1);
      return { instructions: [vault.depositInstruction(mallory, 10n)], signers: [mallory.keypair] };
    },
  },
  {
    name: "claim with the receipt account shrunk by one byte",
    error: "InvalidAccountData",
    build: ({ chain, vault, alice }) => {
      resized(chain, alice.receipt, -1);
      return { instructions: [vault.claimWithdrawalInstruction(alice)], signers: [alice.keypair] };
    },
  },
  {
    name: "strike the NAV of a vault-sized account with the wrong discriminator",
    error: "InvalidAccountData",
    build: ({ chain, vault }) => {
      const account = existing(chain, vault.key);
      const data = Uint8Array.from(account.data);
      data[0] = (data[0] ?? 0) ^ 0xff;
      chain.writeAccount({ ...account, data });
      return { instructions: [vault.updateNavInstruction(1n, 0n)], signers: [vault.manager] };
    },
  },
  // The protocol account: wrong protocol, impostors, missing admin signature, re-initialisation
  {
    name: "strike the NAV against mallory's own protocol (open bounds) instead of the vault's",
    error: "InvalidAccount",
    build: ({ chain, vault, mallory }) => {
      const { protocol: own } = TestProtocol.create(chain, OPEN_NAV_BOUNDS, mallory.keypair);
      return {
        instructions: [vault.updateNavInstruction(1n, 0n, { protocol: own.key })],
        signers: [vault.manager],
      };
    },
  },
  {
    name: "strike the NAV with the vault's protocol address holding an account of another program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault }) => {
      chain.writeAccount({ ...existing(chain, vault.protocol.key), owner: Keypair.generate().publicKey });
      return { instructions: [vault.updateNavInstruction(1n, 0n)], signers: [vault.manager] };
    },
  },
  {
    name: "strike the NAV with the protocol's discriminator altered",
    error: "InvalidAccountData",
    build: ({ chain, vault }) => {
      const account = existing(chain, vault.protocol.key);
      const data = Uint8Array.from(account.data);
      data[0] = (data[0] ?? 0) ^ 0xff;
      chain.writeAccount({ ...account, data });
      return { instructions: [vault.updateNavInstruction(1n, 0n)], signers: [vault.manager] };
    },
  },
  {
    name: "register a vault through a protocol-shaped account owned by another program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault }) => {
      const fake = impostorOf(chain, vault.protocol.key, Keypair.generate().publicKey);
      const unborn = TestVault.at(chain, vault.manager, 1n);
      return {
        instructions: [unborn.initializeInstruction(DEFAULT_VAULT_SETTINGS, { protocol: fake })],
        signers: [vault.protocol.admin],
      };
    },
  },
  {
    name: "register a vault through a copy of the protocol at an address that is not its PDA",
    error: "InvalidAccount",
    build: ({ chain, vault }) => {
      const fake = impostorOf(chain, vault.protocol.key, VAULT_PROGRAM_ID);
      const unborn = TestVault.at(chain, vault.manager, 1n);
      return {
        instructions: [unborn.initializeInstruction(DEFAULT_VAULT_SETTINGS, { protocol: fake })],
        signers: [vault.protocol.admin],
      };
    },
  },
  {
    name: "register a vault as mallory, a stranger to the protocol",
    error: "Unauthorized",
    build: ({ chain, mallory }) => {
      const unborn = TestVault.at(chain, mallory.keypair, 1n);
      return {
        instructions: [
          unborn.initializeInstruction(
            { ...DEFAULT_VAULT_SETTINGS, name: "USDC Prime" },
            { payer: mallory.publicKey, admin: mallory.publicKey },
          ),
        ],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "register a vault naming the admin without the admin's signature",
    error: "MissingSigner",
    build: ({ chain, vault, mallory }) => {
      const unborn = TestVault.at(chain, mallory.keypair, 1n);
      const instruction = unborn.initializeInstruction(DEFAULT_VAULT_SETTINGS, { payer: mallory.publicKey });
      return {
        instructions: [withMeta(instruction, vault.protocol.admin.publicKey, { isSigner: false })],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "set the NAV bounds as mallory",
    error: "Unauthorized",
    build: ({ vault, mallory }) => ({
      instructions: [vault.protocol.setNavBoundsInstruction(OPEN_NAV_BOUNDS, { admin: mallory.publicKey })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "set the NAV bounds without the admin's signature",
    error: "MissingSigner",
    build: ({ vault }) => ({
      instructions: [
        withMeta(vault.protocol.setNavBoundsInstruction(OPEN_NAV_BOUNDS), vault.protocol.admin.publicKey, {
          isSigner: false,
        }),
      ],
      signers: [],
    }),
  },
  {
    name: "initialize the protocol again, with open bounds",
    error: "AlreadyInitialized",
    build: ({ vault }) => ({
      instructions: [vault.protocol.initializeInstruction(OPEN_NAV_BOUNDS)],
      signers: [vault.protocol.creator],
    }),
  },
  {
    name: "propose mallory as admin, signed by mallory",
    error: "Unauthorized",
    build: ({ vault, mallory }) => ({
      instructions: [vault.protocol.proposeAdminInstruction(mallory.publicKey, { admin: mallory.publicKey })],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "accept the admin hand-over as mallory, when bob was proposed",
    error: "Unauthorized",
    build: ({ chain, vault, bob, mallory }) => {
      expectSuccess(
        chain.send([vault.protocol.proposeAdminInstruction(bob.publicKey)], [vault.protocol.admin]),
      );
      return {
        instructions: [vault.protocol.acceptAdminInstruction(mallory.publicKey)],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "propose mallory as manager, signed by mallory",
    error: "Unauthorized",
    build: ({ vault, mallory }) => ({
      instructions: [vault.proposeManagerInstruction(mallory.publicKey, mallory.publicKey)],
      signers: [mallory.keypair],
    }),
  },
  {
    name: "propose mallory as manager as the admin of mallory's own protocol",
    error: "InvalidAccount",
    build: ({ chain, vault, mallory }) => {
      const { protocol: own } = TestProtocol.create(chain, OPEN_NAV_BOUNDS, mallory.keypair);
      return {
        instructions: [
          vault.proposeManagerInstruction(mallory.publicKey, mallory.publicKey, { protocol: own.key }),
        ],
        signers: [mallory.keypair],
      };
    },
  },
  {
    name: "accept the manager hand-over as mallory, when bob was proposed",
    error: "Unauthorized",
    build: ({ chain, vault, bob, mallory }) => {
      expectSuccess(
        chain.send(
          [vault.proposeManagerInstruction(vault.manager.publicKey, bob.publicKey)],
          [vault.manager],
        ),
      );
      return {
        instructions: [vault.acceptManagerInstruction(mallory.publicKey)],
        signers: [mallory.keypair],
      };
    },
  },
  // Read-only where the program writes
  {
    name: "deposit with the vault passed read-only",
    error: "AccountNotWritable",
    build: ({ vault, mallory }) => ({
      instructions: [withMeta(vault.depositInstruction(mallory, 10n), vault.key, { isWritable: false })],
      signers: [mallory.keypair],
    }),
  },
  // cancel_withdrawal: alice's receipt is funded and open; every account but the owner's is checked.
  {
    name: "cancel alice's receipt with mallory passed as the vault authority",
    error: "InvalidAccount",
    build: ({ vault, alice, mallory }) => ({
      instructions: [vault.cancelWithdrawalInstruction(alice, { authority: mallory.publicKey })],
      signers: [alice.keypair],
    }),
  },
  {
    name: "cancel with mallory's share account passed as the escrow",
    error: "InvalidAccount",
    build: ({ vault, alice, mallory }) => ({
      instructions: [vault.cancelWithdrawalInstruction(alice, { escrow: mallory.shareAccount })],
      signers: [alice.keypair],
    }),
  },
  {
    name: "cancel paying the escrowed shares into bob's share account",
    error: "InvalidTokenOwner",
    build: ({ vault, alice, bob }) => ({
      instructions: [vault.cancelWithdrawalInstruction(alice, { ownerShares: bob.shareAccount })],
      signers: [alice.keypair],
    }),
  },
  {
    name: "cancel with a receipt-shaped account at the receipt address owned by another program",
    error: "InvalidAccountOwner",
    build: ({ chain, vault, alice }) => {
      chain.writeAccount({ ...existing(chain, alice.receipt), owner: Keypair.generate().publicKey });
      return { instructions: [vault.cancelWithdrawalInstruction(alice)], signers: [alice.keypair] };
    },
  },
  {
    name: "cancel with mallory's asset account passed as the hole list",
    error: "InvalidAccountOwner",
    build: ({ vault, alice, mallory }) => ({
      instructions: [vault.cancelWithdrawalInstruction(alice, { queueHoles: mallory.assetAccount })],
      signers: [alice.keypair],
    }),
  },
  {
    name: "stage with an empty account that is not the vault's hole list",
    error: "InvalidAccount",
    build: ({ vault }) => ({
      instructions: [vault.stageWithdrawalsInstruction(10n, { queueHoles: Keypair.generate().publicKey })],
      signers: [vault.manager],
    }),
  },
  {
    name: "cancel with the hole list read-only",
    error: "AccountNotWritable",
    build: ({ vault, alice }) => {
      const instruction = vault.cancelWithdrawalInstruction(alice);
      const holes = instruction.keys[8]?.pubkey ?? PublicKey.default;
      return {
        instructions: [withMeta(instruction, holes, { isWritable: false })],
        signers: [alice.keypair],
      };
    },
  },
];

describe("sealevel attacks", () => {
  it.each(attacks.map((attack) => [attack.name, attack.error, attack] as const))(
    "%s → %s",
    (_name, error, attack) => {
      const live = liveVault();
      const { instructions, signers } = attack.build(live);
      expectRefused(live.chain, instructions, signers, error);
    },
  );

  it("baseline: untampered, alice's claim and mallory's deposit and request succeed", () => {
    const live = liveVault();
    expectSuccess(live.vault.claimWithdrawal(live.alice));
    expectSuccess(live.vault.deposit(live.mallory, 10n));
    expectSuccess(live.vault.requestWithdrawal(live.mallory, 10n));
    expectSuccess(live.vault.cancelWithdrawal(live.mallory));
  });
});
