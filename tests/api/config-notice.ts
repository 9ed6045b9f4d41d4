// Config changes on the local chain as the manager makes them, with the notice run out: update_config
// (a cap set, lowered or removed waits the vault's 72 h notice), then the pending config's effective
// time moved to the past — the one write that stands for three days the wall-clock chain cannot skip —
// and apply_config, which the program executes as it would after the notice.
import { BN } from "@coral-xyz/anchor";
import type { Keypair, PublicKey } from "@solana/web3.js";

import type { Chain } from "../../localnet/chain";
import { submitLocalTransaction } from "../../localnet/local-transactions";
import { vaultCoder } from "../fixtures/anchor-coder";
import {
  buildApplyConfigInstruction,
  buildUpdateConfigInstruction,
  type ConfigUpdate,
} from "../../lib/vault/program/instructions";

/** Sends update_config and moves a scheduled change's effective time to the past; false when nothing was scheduled. */
export async function scheduleConfigDue(
  chain: Chain,
  manager: Keypair,
  vault: PublicKey,
  update: ConfigUpdate,
): Promise<boolean> {
  submitLocalTransaction(
    chain,
    "test: update config",
    [buildUpdateConfigInstruction({ manager: manager.publicKey, vault }, update)],
    manager,
  );
  const account = chain.getAccount(vault.toBase58());
  if (account === null) {
    throw new Error(`no vault at ${vault.toBase58()}`);
  }
  const decoded = vaultCoder.accounts.decode<Record<string, unknown>>("Vault", Buffer.from(account.data));
  if (String(decoded.pending_effective_at) === "0") {
    return false; // Everything applied at once: nothing waits.
  }
  const data = await vaultCoder.accounts.encode("Vault", { ...decoded, pending_effective_at: new BN(1) });
  chain.setAccount(vault.toBase58(), { ...account, data: new Uint8Array(data) });
  return true;
}

export async function updateConfigPastNotice(
  chain: Chain,
  manager: Keypair,
  vault: PublicKey,
  update: ConfigUpdate,
): Promise<void> {
  if (await scheduleConfigDue(chain, manager, vault, update)) {
    submitLocalTransaction(chain, "test: apply config", [buildApplyConfigInstruction({ vault })], manager);
  }
}
