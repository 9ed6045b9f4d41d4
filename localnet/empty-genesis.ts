// `npm run localnet -- --empty`: a chain as a new cluster looks to an operator: the builtins (system,
// SPL token, the upgradeable loader), the faucet's airdrop account and one funded payer whose keypair
// is written in the Solana CLI's format. No mint, no program, no vaults: the operator commands
// (program:deploy, protocol, vault, keeper) build everything else over JSON-RPC.
import { dirname, join } from "node:path";

import type { Keypair } from "@solana/web3.js";

import { writeKeypairFile } from "../lib/operator/keypair-file";
import { VAULT_PROGRAM_ID } from "../lib/vault/program/idl";
import type { Chain } from "./chain";
import { devRoles, fundIfMissing } from "./genesis";
import { devKeypair } from "./keys";

const LAMPORTS_PER_SOL = 1_000_000_000n;
export const EMPTY_PAYER_LAMPORTS = 10_000n * LAMPORTS_PER_SOL;
const FAUCET_LAMPORTS = 100_000_000n * LAMPORTS_PER_SOL;

export interface EmptyGenesis {
  payer: Keypair;
  payerKeypairFile: string;
  /** The dev key behind the IDL's program address (its seed is public: local chain only). */
  programKeypairFile: string;
}

export async function applyEmptyGenesis(chain: Chain, payerKeypairFile: string): Promise<EmptyGenesis> {
  const roles = devRoles();
  const payer = devKeypair("operator-payer");
  fundIfMissing(chain, roles.faucet, FAUCET_LAMPORTS);
  fundIfMissing(chain, payer, EMPTY_PAYER_LAMPORTS);
  const programKeypairFile = join(dirname(payerKeypairFile), "vault-program-keypair.json");
  const programKeypair = devKeypair("program");
  if (!programKeypair.publicKey.equals(VAULT_PROGRAM_ID)) {
    throw new Error("The IDL's program address is not the localnet's dev program key");
  }
  await writeKeypairFile(payerKeypairFile, payer);
  await writeKeypairFile(programKeypairFile, programKeypair);
  return { payer, payerKeypairFile, programKeypairFile };
}

/** The addresses file of an empty chain: its endpoints and the operator's key files, no vaults. */
export function emptyAddressesDocument(
  chain: Chain,
  empty: EmptyGenesis,
  endpoints: { rpcUrl: string; wsUrl: string },
): unknown {
  return {
    cluster: "localnet",
    empty: true,
    ...endpoints,
    genesisHash: chain.identity.genesisHash,
    programId: VAULT_PROGRAM_ID.toBase58(),
    programDeployed: false,
    payer: empty.payer.publicKey.toBase58(),
    payerKeypairFile: empty.payerKeypairFile,
    programKeypairFile: empty.programKeypairFile,
    vaults: [],
    defaultVaultId: null,
  };
}
