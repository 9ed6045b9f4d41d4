// The JSON-RPC methods: one function per method, each parsing its positional params and answering
// from the chain in the shapes agave's rpc.rs returns (context/value wrappers, error codes and data).
// Grouped by area, one module each; this table is what the HTTP and PubSub servers dispatch on.
import {
  getBlockHeight,
  getClusterNodes,
  getEpochInfo,
  getEpochSchedule,
  getFirstAvailableBlock,
  getGenesisHash,
  getHealth,
  getIdentity,
  getSlot,
  getSlotLeader,
  getTransactionCount,
  getVersion,
  minimumLedgerSlot,
} from "./cluster";
import {
  getFeeForMessage,
  getLatestBlockhash,
  getMinimumBalanceForRentExemption,
  getRecentPrioritizationFees,
  isBlockhashValid,
} from "./blockhashes-and-fees";
import { getAccountInfo, getBalance, getMultipleAccounts, getProgramAccounts } from "./accounts";
import {
  getTokenAccountBalance,
  getTokenAccountsByOwner,
  getTokenLargestAccounts,
  getTokenSupply,
} from "./tokens";
import {
  getBlockTime,
  getSignatureStatuses,
  getSignaturesForAddress,
  getTransaction,
  requestAirdrop,
  sendTransaction,
  simulateTransaction,
} from "./transactions";
import type { RpcMethod } from "./context";

export type { RpcContext, RpcMethod } from "./context";

export const rpcMethods: Readonly<Record<string, RpcMethod>> = {
  getAccountInfo,
  getBalance,
  getBlockHeight,
  getBlockTime,
  getClusterNodes,
  getEpochInfo,
  getEpochSchedule,
  getFeeForMessage,
  getFirstAvailableBlock,
  getGenesisHash,
  getHealth,
  getIdentity,
  getLatestBlockhash,
  getMinimumBalanceForRentExemption,
  getMultipleAccounts,
  getProgramAccounts,
  getRecentPrioritizationFees,
  getSignatureStatuses,
  getSignaturesForAddress,
  getSlot,
  getSlotLeader,
  getTokenAccountBalance,
  getTokenAccountsByOwner,
  getTokenLargestAccounts,
  getTokenSupply,
  getTransaction,
  getTransactionCount,
  getVersion,
  isBlockhashValid,
  minimumLedgerSlot,
  requestAirdrop,
  sendTransaction,
  simulateTransaction,
};
