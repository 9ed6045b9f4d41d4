// Solana Actions bodies as zod schemas, typed against @solana/actions so they cannot stray from the
// specification's types: the OpenAPI document describes the action routes with them and the tests
// check every answer with them. Only the parameter types these routes use (number, text) are listed.
import type {
  ActionGetResponse,
  ActionPostResponse,
  ActionsJson,
  CompletedAction,
  LinkedAction,
} from "@solana/actions";
import { z } from "zod";

import { walletInput } from "./common";
import { historyRequest } from "./history";

const parameterFields = {
  name: z.string().min(1),
  label: z.string().optional(),
  required: z.boolean().optional(),
  pattern: z.string().optional(),
  patternDescription: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
};

const actionParameter = z.union([
  z.strictObject({ type: z.literal("number"), ...parameterFields }),
  z.strictObject({ type: z.literal("text").optional(), ...parameterFields }),
]);

export const linkedActionSchema: z.ZodType<LinkedAction> = z.strictObject({
  type: z.literal("transaction"),
  href: z.string().min(1),
  label: z.string().min(1),
  parameters: z.array(actionParameter).optional(),
});

export const actionErrorSchema = z.strictObject({ message: z.string().min(1) }).meta({ id: "ActionError" });

export const actionGetResponseSchema: z.ZodType<ActionGetResponse> = z
  .strictObject({
    type: z.literal("action"),
    icon: z.url({ protocol: /^https?$/ }),
    title: z.string().min(1),
    description: z.string().min(1),
    label: z.string().min(1),
    disabled: z.boolean().optional(),
    error: actionErrorSchema.optional(),
    links: z.strictObject({ actions: z.array(linkedActionSchema).min(1) }),
  })
  .meta({ id: "ActionGetResponse" });

/** The transaction member of ActionPostResponse (the package does not export it by name). */
export type ActionTransactionResponse = Extract<ActionPostResponse, { type: "transaction" }>;

export const actionPostResponseSchema: z.ZodType<ActionTransactionResponse> = z
  .strictObject({
    type: z.literal("transaction"),
    transaction: z
      .base64()
      .meta({ description: "Base64 unsigned VersionedTransaction (v0); the account pays the fee" }),
    message: z.string().min(1),
    links: z.strictObject({
      next: z.strictObject({ type: z.literal("post"), href: z.string().startsWith("/") }),
    }),
  })
  .meta({ id: "ActionPostResponse" });

export const completedActionSchema: z.ZodType<CompletedAction> = z
  .strictObject({
    type: z.literal("completed"),
    icon: z.url(),
    title: z.string().min(1),
    description: z.string().min(1),
    label: z.string().min(1),
  })
  .meta({ id: "CompletedAction" });

export const actionsJsonSchema: z.ZodType<ActionsJson> = z
  .strictObject({ rules: z.array(z.strictObject({ pathPattern: z.string(), apiPath: z.string() })).min(1) })
  .meta({ id: "ActionsJson" });

/** POST bodies: the ActionPostRequest's account, and the chained callback's account and signature. */
export const actionPostRequest = z.object({ account: walletInput }).meta({ id: "ActionPostRequest" });
export const actionCallbackRequest = z
  .object({ account: walletInput, signature: historyRequest.shape.signature })
  .meta({ id: "NextActionPostRequest" });

export const depositActionQuery = z.object({
  amount: z.string().optional().meta({ description: "In the asset's human units, e.g. 250 or 12.5" }),
});
export const withdrawActionQuery = z.object({
  amount: z.string().optional().meta({ description: "A value in the asset's human units" }),
  shares: z.string().optional().meta({ description: "Shares in the share token's human units" }),
});
export const noActionQuery = z.object({});
