// What an operation a wallet signs is, declared once: the program instruction it sends (whose name is
// the operation's name), the spec's word for it at the HTTP edge, the amount argument, the token
// account and rent it may cost, its compute budget, the program event it emits and what that event
// becomes in the wallet's history and in the partner feed. Each operation's file
// (lib/vault/operations/<instruction>.ts) declares one with defineOperation and operations.ts lists
// them; the check before signing, the builders' compute budget, history classification and partner
// events read that list instead of keeping a table per operation. The prepare steps stay in
// build-deposit-transaction.ts and build-withdraw-transaction.ts: the definitions are data the typed
// client and the pages bundle with the check, and must not pull in the builders (Kit's instruction
// codecs; tests/client-package.test.ts fails when they do).
import type { PublicKey } from "@solana/web3.js";

import type { PartnerEventType } from "../model/partner-event";
import type { TokenAmount } from "../model/token-amount";
import { findIdlInstruction, type IdlInstruction, type VaultInstructionName } from "../program/idl";
import type { VaultEvent, VaultEventName } from "../program/events";

/** The spec's words for the operations (API-SPEC: a withdrawal's action is initiate or claim). */
export type OperationAction = "deposit" | "initiate" | "claim" | "cancel";

/** The fields of a history row an operation's event makes (amounts in raw units). */
export interface ActivityFields {
  kind: OperationAction;
  requestId: bigint | null;
  assets: bigint;
  shares: bigint;
  fee: bigint | null;
}

/** An event's fields as the indexer stores them, read as amounts of the vault's tokens. */
export interface StoredEventFields {
  integer(name: string): bigint;
  /** A public key field, base58. */
  address(name: string): string;
  asset(name: string): TokenAmount;
  shares(name: string): TokenAmount;
  /** A raw share amount worked out from the fields (what came back: escrowed less burned). */
  sharesOf(raw: bigint): TokenAmount;
  /** Who sent the transaction when the event's owner did not sign it (its fee payer); else null. */
  deliveredBy: string | null;
}

interface OperationSpec<Action extends OperationAction, Event extends VaultEventName> {
  /** The program instruction (the operation's one name inside: request_withdrawal, not initiate). */
  instruction: VaultInstructionName;
  /** The spec's word at the HTTP edge and in history. */
  action: Action;
  /**
   * The instruction argument that carries the amount asked for (raw units) and the token it is of: the
   * most of that token the wallet pays (a deposit's asset, a request's shares); null when it asks for
   * none and the wallet pays no token (it only gains).
   */
  amount: { arg: string; token: "asset" | "shares" } | null;
  /**
   * The argument that caps the withdrawal fee it accepts (a request's max_fee_bps): the check before
   * signing holds it to the fee the vault charges now, so a fee raised before it lands cannot apply.
   */
  feeCapArg: string | null;
  /**
   * The argument that floors the shares it mints (a deposit's min_shares_out): the check before signing
   * holds it to the build's preview less the caller's slippage, and that preview to the simulation.
   */
  sharesGuardArg: string | null;
  /**
   * The arguments of a partner's fee: its bps (deposit_with_partner_fee's partner_fee_bps), which the
   * check before signing holds to the caller's maximum and to what the build showed, and the bump of the
   * partner's asset account (partner_asset_bump), which it holds to that address's canonical bump.
   */
  partnerFee: { bpsArg: string; assetBumpArg: string } | null;
  /** The wallet's associated token account the transaction may create, by its token. */
  createdTokenAccount: "asset" | "shares" | null;
  /** It counts against the vault's hourly and daily withdrawal caps (so a partner may hear they run low). */
  takesWithdrawalCap: boolean;
  /** Sizes of the program accounts whose rent the wallet may pay (a receipt, the queue's hole list). */
  rentPaidFor: readonly number[];
  /**
   * Compute units for accounts whose bump seed is 255, from the consumption measured in
   * tests/api/transaction-budget.test.ts (worst case: token accounts created) with headroom.
   */
  computeUnits: number;
  /**
   * The bump seed the instruction searches for on chain (find_program_address over the account it
   * creates), from the instruction's accounts by the IDL's names; null when it searches none.
   */
  searchedBump: ((account: (name: string) => PublicKey | undefined) => number | null) | null;
  /** The event the program emits for the wallet. */
  event: Event;
  /**
   * The row of the wallet's history its event makes: whose it is and the amounts (its kind is the
   * operation's action); null when its event makes none.
   */
  activity: ((data: EventData<Event>) => { owner: PublicKey } & Omit<ActivityFields, "kind">) | null;
  /** That event in the partner feed: its type and its data. */
  partnerEvent: PartnerEventType;
  partnerData(fields: StoredEventFields): Record<string, unknown>;
}

export interface OperationDefinition<
  Action extends OperationAction = OperationAction,
  Event extends VaultEventName = VaultEventName,
> extends Omit<OperationSpec<Action, Event>, "instruction" | "activity"> {
  /** The program instruction from the IDL (discriminator, accounts in order, arguments). */
  instruction: IdlInstruction;
  /** A program event as a row of the wallet's history, when it is this operation's event; else null. */
  activityOf(event: VaultEvent): { owner: PublicKey; fields: ActivityFields } | null;
  /** The position of the instruction's account `name`, from the IDL. */
  accountIndex(name: string): number;
}

/**
 * What a definition need not say: it asks for no amount, opens no token account, takes no withdrawal
 * cap, pays no program account's rent, searches no bump, has no fee cap, shares guard or partner fee,
 * and its event makes no history row.
 */
const DEFAULTS = {
  amount: null,
  createdTokenAccount: null,
  takesWithdrawalCap: false,
  rentPaidFor: [],
  searchedBump: null,
  feeCapArg: null,
  sharesGuardArg: null,
  partnerFee: null,
  activity: null,
} satisfies Partial<OperationSpec<OperationAction, VaultEventName>>;

type Defaulted = keyof typeof DEFAULTS;

type EventData<Event extends VaultEventName> = {
  [Name in VaultEventName]: Extract<VaultEvent, { name: Name }>["data"];
}[Event];

/**
 * The event's data when it is the event `name` (the union is keyed by name, so checking the name is
 * the narrowing TypeScript cannot follow through the generic); else null.
 */
function dataOf<Event extends VaultEventName>(event: VaultEvent, name: Event): EventData<Event> | null {
  return event.name === name ? (event.data as EventData<Event>) : null;
}

export function defineOperation<Action extends OperationAction, Event extends VaultEventName>(
  spec: Omit<OperationSpec<Action, Event>, Defaulted> &
    Partial<Pick<OperationSpec<Action, Event>, Defaulted>>,
): OperationDefinition<Action, Event> {
  const instruction = findIdlInstruction(spec.instruction);
  const { activity = null, ...declared } = spec;
  return {
    ...DEFAULTS,
    ...declared,
    instruction,
    activityOf: (event) => {
      const data = dataOf(event, spec.event);
      if (activity === null || data === null) return null;
      const { owner, ...fields } = activity(data);
      return { owner, fields: { kind: spec.action, ...fields } };
    },
    accountIndex: (name) => instruction.accounts.findIndex((account) => account.name === name),
  };
}
