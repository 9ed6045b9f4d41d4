// What every blink endpoint of a vault reads (the vault with its 7-day APY, the keeper's schedule),
// and the one shape of a vault's blink endpoints.
import type { ActionGetResponse } from "@solana/actions";
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import {
  prepareWithdrawalAction,
  type ActionSite,
  type VaultActionKind,
  type VaultFacts,
} from "../../actions/vault-actions";
import { configInForce } from "../../vault/model/pending-config";
import { loadVault } from "../../vault/model/vault-state";
import type { ApiContext } from "../context";
import { actionEndpoint, type EndpointDefinition } from "../endpoint";
import {
  actionGetResponseSchema,
  actionPostRequest,
  actionPostResponseSchema,
  noActionQuery,
} from "../schemas/actions";
import { vaultPathParams } from "../schemas/common";
import { indexedVaults } from "../vaults/indexed-reads";

export const noParams = z.object({});

export async function vaultFacts(context: ApiContext, address: PublicKey): Promise<VaultFacts> {
  const loaded = await loadVault(context.deps, address, "cached");
  // As the program sees it now: a pause past its end is over, a config past its notice in force.
  const vault = { ...loaded, state: configInForce(loaded.state, context.deps.now()) };
  const id = address.toBase58();
  const indexed = (await indexedVaults(context)).find((entry) => entry.row.vault === id);
  return { vault, apy7d: indexed?.apy.apy7d ?? null };
}

export function schedule(context: ApiContext) {
  return {
    navIntervalSeconds: context.config.navIntervalSeconds,
    stageIntervalSeconds: context.config.stageIntervalSeconds,
  };
}

/**
 * A vault's blink endpoint of one kind (deposit, withdraw, claim, cancel): GET answers its metadata,
 * POST the unsigned transaction for the account in the body. Each endpoint's file names its
 * operation id, summary, query and the step it runs; the path, the schemas and the statuses are one
 * rule here.
 */
interface VaultActionSpec<Q extends z.ZodObject> {
  operationId: string;
  kind: VaultActionKind;
  summary: string;
  query: Q;
}

/** Where a blink endpoint of a vault answers and what it names (the path's kind, the vault in it). */
function actionRoute<Q extends z.ZodObject>(spec: VaultActionSpec<Q>, method: "GET" | "POST") {
  return {
    operationId: spec.operationId,
    method,
    path: `/api/actions/vault/:vault_id/${spec.kind}`,
    summary: spec.summary,
    params: vaultPathParams,
    query: spec.query,
  };
}

export function vaultActionGet<Q extends z.ZodObject>(
  spec: VaultActionSpec<Q> & {
    metadata(facts: VaultFacts, site: ActionSite, query: z.output<Q>): ActionGetResponse;
  },
): EndpointDefinition {
  return actionEndpoint({
    ...actionRoute(spec, "GET"),
    body: undefined,
    response: actionGetResponseSchema,
    statuses: [404],
    handler: async ({ params, query, context, origin }) =>
      spec.metadata(await vaultFacts(context, params.vault_id), { origin }, query),
  });
}

export function vaultActionPost<Q extends z.ZodObject>(
  spec: VaultActionSpec<Q> & {
    prepare(call: {
      vault: PublicKey;
      account: z.output<typeof actionPostRequest>["account"];
      query: z.output<Q>;
      context: ApiContext;
    }): Promise<object>;
  },
): EndpointDefinition {
  return actionEndpoint({
    ...actionRoute(spec, "POST"),
    body: actionPostRequest,
    response: actionPostResponseSchema,
    statuses: [404, 409, 413, 415, 422],
    handler: async ({ params, query, body, context }) =>
      spec.prepare({ vault: params.vault_id, account: body.account, query, context }),
  });
}

/** The POST of a blink on the account's pending withdrawal (its claim or its cancel): no query. */
export function pendingWithdrawalActionPost(spec: {
  operationId: string;
  kind: "claim" | "cancel";
  summary: string;
}): EndpointDefinition {
  return vaultActionPost({
    ...spec,
    query: noActionQuery,
    prepare: ({ vault, account, context }) =>
      prepareWithdrawalAction(context.deps, schedule(context), spec.kind, { vault, account }),
  });
}
