// GET, POST and PUT /api/vault/{vault_id}/withdraw: request validation and the response shapes.
import { WITHDRAWAL_ACTIONS, wordsOf } from "../../vault/operations/operations";
import { z } from "zod";

import { rawAmountInput, successEnvelope, tokenAmountSchema, transactionFields, walletInput } from "./common";

export const withdrawStatusQuery = z.object({ wallet: walletInput }).meta({ id: "WithdrawStatusQuery" });

export const withdrawRequest = z
  .object({
    wallet: walletInput,
    sharesAmount: rawAmountInput
      .optional()
      .meta({ description: "Raw share units; required when initiating" }),
    action: z
      .enum(WITHDRAWAL_ACTIONS, { error: `must be ${wordsOf(WITHDRAWAL_ACTIONS)}` })
      .optional()
      .meta({
        description:
          "Omitted: detected from on-chain state (claim when a withdrawal is pending). cancel (beside the spec's two) is never detected: it returns a pending request's escrowed shares to the wallet, gives back the cap usage it took and takes it out of the queue; 409 NO_PENDING_WITHDRAWAL when nothing is pending",
      }),
  })
  .meta({ id: "WithdrawRequest" });

const band = z.object({ earliest: z.string(), latest: z.string() });

const capWindow = z.object({
  cap: tokenAmountSchema.nullable(),
  used: tokenAmountSchema,
  remaining: tokenAmountSchema.nullable(),
  resetsAt: z.string(),
});

const limits = z.object({ hourly: capWindow, daily: capWindow });

const isoTime = z.string().nullable();

const milestones = z
  .object({
    requestId: z.string().meta({ description: "The request these milestones date" }),
    requestedAt: isoTime.meta({ description: "When the request landed (its event's chain time)" }),
    navStruckAt: isoTime.meta({
      description: "The first NAV struck after the request (nav_sequence above the receipt's floor)",
    }),
    fundedAt: isoTime.meta({
      description: "The first staging that funded the queue up to the request's end",
    }),
    claimableAt: isoTime.meta({ description: "The later of navStruckAt and fundedAt" }),
    claimedAt: isoTime.meta({ description: "When its claim landed; null while unclaimed" }),
    claimedBy: z.enum(["owner", "keeper", "other"]).nullable().meta({
      description:
        "Who sent the claim: the owner, the vault's manager key (the keeper delivering it), or another wallet; null while unclaimed or not known",
    }),
    claimSigner: z.string().nullable().meta({ description: "The claim transaction's fee payer" }),
    claimedNet: tokenAmountSchema
      .nullable()
      .meta({ description: "What the claim paid into the owner's asset account, after the fee" }),
  })
  .meta({
    id: "WithdrawalMilestones",
    description:
      "When the withdrawal passed each step, from the indexed program events (ISO times; null: not yet, or not indexed yet). With a withdrawal pending, its own; with none, the wallet's latest (claimed) one",
  });

export const withdrawalStatusData = z
  .object({
    hasPendingWithdrawal: z.boolean(),
    pendingShares: z.string(),
    estimatedUsdcAmount: tokenAmountSchema.meta({
      description:
        "The pending shares' value at the current NAV per share, in the vault's asset whatever its symbol (the spec names the field after USDC)",
    }),
    canClaimNow: z.boolean(),
    createdAt: z.string().nullable(),
    estimate: z
      .object({
        kind: z.enum(["ready", "nav", "staging"]),
        band: band.nullable().meta({
          description:
            "When the request becomes claimable, from the keeper's configured schedule (NAV periods, staging interval and per-staging cap) and the reserve's idle assets; null when no honest time can be given (the keeper is behind its schedule, or the reserve cannot fund the request)",
        }),
        awaiting: z.array(z.enum(["nav", "staging", "reserve"])).meta({
          description:
            "Every condition still unmet: a NAV struck after the request, the queue funded through it, the reserve holding its net; empty when claimable",
        }),
      })
      .nullable(),
    progress: z
      .object({
        stagedShares: z.string(),
        totalShares: z.string(),
        sharesAhead: z.string(),
        fraction: z.number(),
      })
      .nullable(),
    milestones: milestones.nullable().optional(),
    withdrawalLimits: limits.meta({
      description:
        "The vault's net-withdrawal caps as the chain's vault account has them at this read (GET /api/vault/{vault_id} serves the indexer's copy, which can trail by its interval)",
    }),
  })
  .meta({ id: "WithdrawalStatus" });

export const withdrawalStatusResponse = successEnvelope(withdrawalStatusData).meta({
  id: "WithdrawalStatusResponse",
});

const policy = z.object({
  feeBps: z.number().int(),
  minimumShares: tokenAmountSchema,
  queueOrder: z.literal("fifo"),
  capsEnforcedAt: z.literal("execution"),
  navSchedule: z.object({
    intervalSeconds: z.number(),
    lastNavAt: z.string().nullable(),
    nextNavAt: z.string().nullable(),
  }),
});

const estimate = z.object({
  shares: tokenAmountSchema,
  gross: tokenAmountSchema,
  fee: tokenAmountSchema,
  net: tokenAmountSchema,
  sharePrice: z.number(),
});

export const withdrawData = z
  .discriminatedUnion("action", [
    z.object({
      ...transactionFields,
      action: z.literal("initiate"),
      details: z.object({
        withdrawalPolicy: policy,
        withdrawalLimits: limits,
        withdrawalEstimate: estimate,
        withdrawalReservation: z.null().meta({ description: "Deprecated; always null" }),
      }),
    }),
    z.object({
      ...transactionFields,
      action: z.literal("claim"),
      details: z.object({
        requestId: z.string(),
        claimAmount: estimate,
        withdrawalPolicy: policy,
        withdrawalLimits: limits,
        withdrawalEstimate: z.null(),
        withdrawalReservation: z.null(),
      }),
    }),
    z
      .object({
        ...transactionFields,
        action: z.literal("cancel"),
        details: z.object({
          requestId: z.string().meta({ description: "The cancelled request's vault-wide sequence" }),
          returnedShares: tokenAmountSchema.meta({
            description: "The escrowed shares that come back to the wallet: all of them less the fee",
          }),
          feeShares: tokenAmountSchema.meta({
            description:
              "The cancel's fee: the request's exit fee taken in shares (rounded up) and burned by the program, so a cancel costs what an honest exit of the same shares costs; its value stays with the vault's holders",
          }),
          returnedValue: tokenAmountSchema.meta({
            description: "What those shares are worth at today's share price (they stay in the vault)",
          }),
          withdrawalPolicy: policy,
          withdrawalLimits: limits,
          withdrawalEstimate: z.null(),
          withdrawalReservation: z.null(),
        }),
      })
      .meta({
        description:
          "Not in the spec (an addition beside initiate and claim): the cancel of the wallet's pending request, claimable or not",
      }),
  ])
  .meta({ id: "WithdrawData" });

export const withdrawResponse = successEnvelope(withdrawData).meta({ id: "WithdrawResponse" });
