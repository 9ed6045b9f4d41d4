// Every operation a wallet signs, one line each (its definition is in its own file): adding one is
// the Rust instruction, the IDL (regenerated), its file, a line here and the words the pages show.
import { cancelWithdrawal } from "./cancel-withdrawal";
import { claimWithdrawal } from "./claim-withdrawal";
import { deposit } from "./deposit";
import { depositWithPartnerFee } from "./deposit-with-partner-fee";
import type { OperationAction, OperationDefinition } from "./operation";
import { requestWithdrawal } from "./request-withdrawal";

export const OPERATIONS = [
  deposit,
  requestWithdrawal,
  claimWithdrawal,
  cancelWithdrawal,
  depositWithPartnerFee,
] as const;

export type Operation = (typeof OPERATIONS)[number];

function nonEmpty<T>(values: readonly T[]): readonly [T, ...T[]] {
  const [first, ...rest] = values;
  if (first === undefined) throw new Error("The operation list is empty");
  return [first, ...rest];
}

/** Every operation's word, once each, in the list's order (a history row's kind). */
export const OPERATION_ACTIONS = nonEmpty([...new Set(OPERATIONS.map((operation) => operation.action))]);

/** The operations on a withdrawal: all but the deposits (with or without a partner fee). */
export type WithdrawalOperation = Exclude<Operation, OperationDefinition<"deposit">>;

/** Their words, in the list's order (the withdraw endpoint's actions). */
export const WITHDRAWAL_ACTIONS = nonEmpty(
  OPERATIONS.filter((operation): operation is WithdrawalOperation => operation.action !== "deposit").map(
    (operation) => operation.action,
  ),
);

/** "initiate, claim or cancel". */
export function wordsOf(actions: readonly string[]): string {
  return actions.length < 2
    ? actions.join("")
    : `${actions.slice(0, -1).join(", ")} or ${actions.at(-1) ?? ""}`;
}

/**
 * The operation the spec's word names (deposit, initiate, claim, cancel): the first in the list with
 * that word (a plain deposit; deposit_with_partner_fee shares its word, see operationsOf).
 */
export function operationOf<Action extends OperationAction>(
  action: Action,
): Extract<Operation, OperationDefinition<Action>> {
  const found = OPERATIONS.find(
    (operation): operation is Extract<Operation, OperationDefinition<Action>> => operation.action === action,
  );
  if (found === undefined) throw new Error(`No operation is named ${action}`);
  return found;
}

/** Every operation the spec's word names, in the list's order (deposit: with and without a partner fee). */
export function operationsOf<Action extends OperationAction>(
  action: Action,
): Extract<Operation, OperationDefinition<Action>>[] {
  return OPERATIONS.filter(
    (operation): operation is Extract<Operation, OperationDefinition<Action>> => operation.action === action,
  );
}

/** The operation whose instruction starts with this discriminator, or null. */
export function operationOfInstructionData(data: Uint8Array): Operation | null {
  return (
    OPERATIONS.find((operation) =>
      operation.instruction.discriminator.every((byte, index) => data[index] === byte),
    ) ?? null
  );
}

/**
 * The operation whose program event this is, or null (the vault's own events: NAV, config, …). Deposited
 * is deposit's (a deposit with a partner fee emits it too, for its net amount); PartnerFeePaid is
 * deposit_with_partner_fee's.
 */
export function operationOfEvent(name: string): Operation | null {
  return OPERATIONS.find((operation) => operation.event === name) ?? null;
}
