// The Solana Actions routes of a vault (GET metadata, POST transaction, POST the chained callback) and
// GET /actions.json: thin wrappers over lib/actions, which builds on the same domain code as /api.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import {
  actionsJson,
  cancelActionMetadata,
  claimActionMetadata,
  completeAction,
  depositActionMetadata,
  prepareCancelAction,
  prepareClaimAction,
  prepareDepositAction,
  prepareWithdrawAction,
  withdrawActionMetadata,
  type VaultFacts,
} from "../../actions/vault-actions";
import { loadVault } from "../../vault/vault-state";
import type { ApiContext } from "../context";
import { actionEndpoint } from "../endpoint";
import {
  actionCallbackRequest,
  actionGetResponseSchema,
  actionPostRequest,
  actionPostResponseSchema,
  actionsJsonSchema,
  completedActionSchema,
  depositActionQuery,
  noActionQuery,
  withdrawActionQuery,
} from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { indexedVaults } from "../vaults/indexed-reads";

const noParams = z.object({});

async function vaultFacts(context: ApiContext, address: PublicKey): Promise<VaultFacts> {
  const vault = await loadVault(context.deps, address, "cached");
  const id = address.toBase58();
  const indexed = (await indexedVaults(context)).find((entry) => entry.row.vault === id);
  return { vault, apy7d: indexed?.apy.apy7d ?? null };
}

function schedule(context: ApiContext) {
  return {
    navIntervalSeconds: context.config.navIntervalSeconds,
    stageIntervalSeconds: context.config.stageIntervalSeconds,
  };
}

export const getActionsJson = actionEndpoint({
  operationId: "getActionsJson",
  method: "GET",
  path: "/actions.json",
  summary: "Solana Actions: which site paths have actions",
  params: noParams,
  query: noActionQuery,
  body: undefined,
  response: actionsJsonSchema,
  statuses: [],
  handler: async () => actionsJson(),
});

export const getDepositAction = actionEndpoint({
  operationId: "getDepositAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/deposit",
  summary: "Deposit action: share price, APY, fixed amounts (or ?amount='s) and an {amount} field",
  params: vaultPathParams,
  query: depositActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, query, context, origin }) =>
    depositActionMetadata(await vaultFacts(context, params.vault_id), { origin }, { amount: query.amount }),
});

export const postDepositAction = actionEndpoint({
  operationId: "postDepositAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/deposit",
  summary: "The unsigned v0 deposit transaction for the account (?amount= in the asset's units)",
  params: vaultPathParams,
  query: depositActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, query, body, context }) => {
    const vault = await loadVault(context.deps, params.vault_id, "cached");
    return prepareDepositAction(context.deps, { slippageBps: context.config.depositSlippageBps }, vault, {
      vault: params.vault_id,
      account: body.account,
      amount: query.amount,
    });
  },
});

export const getWithdrawAction = actionEndpoint({
  operationId: "getWithdrawAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/withdraw",
  summary: "Withdraw action: by value or by shares (?amount= or ?shares= offers that amount first)",
  params: vaultPathParams,
  query: withdrawActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, query, context, origin }) =>
    withdrawActionMetadata(
      await vaultFacts(context, params.vault_id),
      { origin },
      { amount: query.amount, shares: query.shares },
    ),
});

export const postWithdrawAction = actionEndpoint({
  operationId: "postWithdrawAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/withdraw",
  summary:
    "The unsigned v0 withdrawal request (?amount= value, or ?shares=); gross, fee and net in the message",
  params: vaultPathParams,
  query: withdrawActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, query, body, context }) => {
    const vault = await loadVault(context.deps, params.vault_id, "cached");
    return prepareWithdrawAction(context.deps, schedule(context), vault, {
      vault: params.vault_id,
      account: body.account,
      amount: query.amount,
      shares: query.shares,
    });
  },
});

export const getClaimAction = actionEndpoint({
  operationId: "getClaimAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/claim",
  summary: "Claim action",
  params: vaultPathParams,
  query: noActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, context, origin }) =>
    claimActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
});

export const postClaimAction = actionEndpoint({
  operationId: "postClaimAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/claim",
  summary: "The unsigned v0 claim of the account's pending withdrawal (409 when nothing is claimable)",
  params: vaultPathParams,
  query: noActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, body, context }) =>
    prepareClaimAction(context.deps, schedule(context), { vault: params.vault_id, account: body.account }),
});

export const getCancelAction = actionEndpoint({
  operationId: "getCancelAction",
  method: "GET",
  path: "/api/actions/vault/:vault_id/cancel",
  summary: "Cancel action: the account's pending withdrawal request, its shares back",
  params: vaultPathParams,
  query: noActionQuery,
  body: undefined,
  response: actionGetResponseSchema,
  statuses: [404],
  handler: async ({ params, context, origin }) =>
    cancelActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
});

export const postCancelAction = actionEndpoint({
  operationId: "postCancelAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/cancel",
  summary: "The unsigned v0 cancel of the account's pending withdrawal (409 when nothing is pending)",
  params: vaultPathParams,
  query: noActionQuery,
  body: actionPostRequest,
  response: actionPostResponseSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, body, context }) =>
    prepareCancelAction(context.deps, schedule(context), { vault: params.vault_id, account: body.account }),
});

export const postConfirmAction = actionEndpoint({
  operationId: "postConfirmAction",
  method: "POST",
  path: "/api/actions/vault/:vault_id/confirm",
  summary: "Every action's links.next: verifies and records the signature as POST /api/history does",
  params: vaultPathParams,
  query: noActionQuery,
  body: actionCallbackRequest,
  response: completedActionSchema,
  statuses: [404, 409, 413, 415, 422],
  handler: async ({ params, body, context, origin }) =>
    completeAction(
      context.deps,
      context.store.history,
      { origin },
      { vault: params.vault_id, account: body.account, signature: body.signature },
    ),
});
