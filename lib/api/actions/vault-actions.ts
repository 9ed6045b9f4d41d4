// The Solana Actions routes of a vault (GET metadata, POST transaction, POST the chained callback) and
// GET /actions.json: thin wrappers over lib/actions, which builds on the same domain code as /api.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import {
  actionsJson,
  claimActionMetadata,
  completeAction,
  depositActionMetadata,
  prepareClaimAction,
  prepareDepositAction,
  prepareWithdrawAction,
  withdrawActionMetadata,
  type VaultFacts,
} from "../../actions/vault-actions";
import { loadVault } from "../../vault/vault-state";
import type { ApiContext } from "../context";
import { vaultPathParams, walletInput } from "../schemas/common";
import { historyRequest } from "../schemas/history";
import { indexedVaults } from "../vaults/indexed-reads";
import { withAction } from "./with-action";

const noQuery = z.object({});
const noParams = z.object({});
const accountBody = z.object({ account: walletInput });
const callbackBody = z.object({ account: walletInput, signature: historyRequest.shape.signature });
const depositQuery = z.object({ amount: z.string().optional() });
const withdrawQuery = z.object({ amount: z.string().optional(), shares: z.string().optional() });

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

// GET /actions.json
export const getActionsJson = withAction(async () => actionsJson(), {
  params: noParams,
  query: noQuery,
  body: undefined,
});

// GET /api/actions/vault/{vault_id}/deposit
export const getDepositAction = withAction(
  async ({ params, context, origin }) =>
    depositActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
  { params: vaultPathParams, query: depositQuery, body: undefined },
);

// POST /api/actions/vault/{vault_id}/deposit?amount=
export const postDepositAction = withAction(
  async ({ params, query, body, context }) => {
    const vault = await loadVault(context.deps, params.vault_id, "cached");
    return prepareDepositAction(context.deps, { slippageBps: context.config.depositSlippageBps }, vault, {
      vault: params.vault_id,
      account: body.account,
      amount: query.amount,
    });
  },
  { params: vaultPathParams, query: depositQuery, body: accountBody },
);

// GET /api/actions/vault/{vault_id}/withdraw
export const getWithdrawAction = withAction(
  async ({ params, context, origin }) =>
    withdrawActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
  { params: vaultPathParams, query: withdrawQuery, body: undefined },
);

// POST /api/actions/vault/{vault_id}/withdraw?amount= | ?shares=
export const postWithdrawAction = withAction(
  async ({ params, query, body, context }) => {
    const vault = await loadVault(context.deps, params.vault_id, "cached");
    return prepareWithdrawAction(context.deps, schedule(context), vault, {
      vault: params.vault_id,
      account: body.account,
      amount: query.amount,
      shares: query.shares,
    });
  },
  { params: vaultPathParams, query: withdrawQuery, body: accountBody },
);

// GET /api/actions/vault/{vault_id}/claim
export const getClaimAction = withAction(
  async ({ params, context, origin }) =>
    claimActionMetadata(await vaultFacts(context, params.vault_id), { origin }),
  { params: vaultPathParams, query: noQuery, body: undefined },
);

// POST /api/actions/vault/{vault_id}/claim
export const postClaimAction = withAction(
  async ({ params, body, context }) =>
    prepareClaimAction(context.deps, schedule(context), { vault: params.vault_id, account: body.account }),
  { params: vaultPathParams, query: noQuery, body: accountBody },
);

// POST /api/actions/vault/{vault_id}/confirm — links.next of every vault action: { account, signature }
export const postConfirmAction = withAction(
  async ({ params, body, context, origin }) =>
    completeAction(
      context.deps,
      context.store.history,
      { origin },
      { vault: params.vault_id, account: body.account, signature: body.signature },
    ),
  { params: vaultPathParams, query: noQuery, body: callbackBody },
);
