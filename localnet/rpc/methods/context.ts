// What every RPC method shares: the context it answers from, the context slot and wrapper of reads.
import { z } from "zod";

import type { Chain } from "../../chain";
import type { ChainAccount, Commitment } from "../../chain-types";
import { encodeAccount, type UiAccount } from "../encoding";
import { minContextSlotNotReached } from "../errors";
import type { AccountEncoding, DataSlice } from "../params";

export interface RpcContext {
  chain: Chain;
  version: { solanaCore: string; featureSet: number };
  /** Sends the faucet's transfer; returns its signature. */
  requestAirdrop(recipient: string, lamports: bigint, recentBlockhash: string | null): string;
  clusterNode: { rpc: string; pubsub: string };
}

export type RpcMethod = (params: unknown, context: RpcContext) => unknown;

interface ContextOptions {
  commitment?: Commitment | null;
  minContextSlot?: bigint | null;
}

/** The slot a read is answered at, refusing reads that ask for a later context slot. */
export function contextSlot(chain: Chain, options: ContextOptions | null | undefined): bigint {
  const slot = chain.slotFor(options?.commitment ?? "finalized");
  const minContextSlot = options?.minContextSlot;
  if (minContextSlot !== null && minContextSlot !== undefined && slot < minContextSlot) {
    throw minContextSlotNotReached(slot);
  }
  return slot;
}

export function withContext(context: RpcContext, slot: bigint, value: unknown): unknown {
  return { context: { slot, apiVersion: context.version.solanaCore }, value };
}

export function encodeOrNull(
  chain: Chain,
  account: ChainAccount | null,
  encoding: AccountEncoding,
  slice: DataSlice | null | undefined,
): UiAccount | null {
  return account === null ? null : encodeAccount(chain, account, encoding, slice);
}

export const single = <T extends z.ZodTypeAny>(schema: T) => z.tuple([schema]);
export const noParams = z.tuple([]);
