// The cluster and node methods: health, version, identity, slots, block height, epochs.
import { z } from "zod";

import { SLOTS_PER_EPOCH } from "../../chain-types";
import { contextConfig, parseParams } from "../params";
import { type RpcMethod, contextSlot, noParams } from "./context";

export const getHealth: RpcMethod = (params) => {
  parseParams(noParams, params);
  return "ok";
};

export const getVersion: RpcMethod = (params, { version }) => {
  parseParams(noParams, params);
  return { "solana-core": version.solanaCore, "feature-set": version.featureSet };
};

export const getGenesisHash: RpcMethod = (params, { chain }) => {
  parseParams(noParams, params);
  return chain.identity.genesisHash;
};

export const getIdentity: RpcMethod = (params, { chain }) => {
  parseParams(noParams, params);
  return { identity: chain.identity.identity };
};

export const getClusterNodes: RpcMethod = (params, { chain, version, clusterNode }) => {
  parseParams(noParams, params);
  return [
    {
      pubkey: chain.identity.identity,
      gossip: null,
      tvu: null,
      tpu: null,
      tpuQuic: null,
      tpuForwards: null,
      tpuForwardsQuic: null,
      tpuVote: null,
      serveRepair: null,
      rpc: clusterNode.rpc,
      pubsub: clusterNode.pubsub,
      version: version.solanaCore,
      featureSet: version.featureSet,
      shredVersion: 0,
    },
  ];
};

export const getSlot: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  return contextSlot(chain, config);
};

export const getBlockHeight: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return chain.blockHeightFor(config?.commitment ?? "finalized");
};

export const getSlotLeader: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return chain.identity.identity;
};

export const getEpochInfo: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return chain.epochInfo(config?.commitment ?? "finalized");
};

export const getEpochSchedule: RpcMethod = (params) => {
  parseParams(noParams, params);
  return {
    slotsPerEpoch: SLOTS_PER_EPOCH,
    leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
    warmup: false,
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
  };
};

export const getTransactionCount: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return BigInt(chain.ledger.transactionCount);
};

export const getFirstAvailableBlock: RpcMethod = (params) => {
  parseParams(noParams, params);
  return 0;
};

export const minimumLedgerSlot: RpcMethod = (params) => {
  parseParams(noParams, params);
  return 0;
};
