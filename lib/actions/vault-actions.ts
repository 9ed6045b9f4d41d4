// Solana Actions (blinks) for a vault: the metadata a blink client renders, the POST that answers the
// same unsigned v0 transaction the partner API builds, and the chained callback that verifies and
// records the signature exactly as POST /api/history does. Shapes are @solana/actions' own types.
import {
  createPostResponse,
  type ActionGetResponse,
  type ActionPostResponse,
  type ActionsJson,
  type CompletedAction,
  type LinkedAction,
} from "@solana/actions";
import { PublicKey, VersionedTransaction } from "@solana/web3.js";

import { buildDepositTransaction, type DepositSettings } from "../vault/operations/build-deposit-transaction";
import { buildWithdrawTransaction } from "../vault/operations/build-withdraw-transaction";
import { DomainError } from "../vault/model/domain-errors";
import { activityView, verifyHistoryEntry, type HistoryStore } from "../vault/reads/history";
import { assetsForSharesRoundUp, sharePrice, sharesForAssetsRoundDown } from "../vault/model/share-math";
import {
  formatAbout,
  formatHuman,
  formatUnits,
  tokenAmount,
  type TokenAmount,
} from "../vault/model/token-amount";
import type { LoadedVault, VaultDeps } from "../vault/model/vault-state";
import type { ScheduleSettings } from "../vault/model/withdrawal-rules";
import { parseDecimalAmount } from "./amount";

export type VaultActionKind = "deposit" | "withdraw" | "claim" | "cancel";

/** Where the action's links point: the site's origin (the icon must be absolute) and the API paths. */
export interface ActionSite {
  origin: string;
}

export function actionPath(vault: PublicKey | string, kind: VaultActionKind | "confirm"): string {
  const id = typeof vault === "string" ? vault : vault.toBase58();
  return `/api/actions/vault/${id}/${kind}`;
}

/** GET /actions.json: the vault pages map to their deposit action; the action paths map to themselves. */
export function actionsJson(): ActionsJson {
  return {
    rules: [
      { pathPattern: "/vault/*", apiPath: "/api/actions/vault/*/deposit" },
      { pathPattern: "/embed/vault/*", apiPath: "/api/actions/vault/*/deposit" },
      { pathPattern: "/api/actions/**", apiPath: "/api/actions/**" },
    ],
  };
}

/** What the metadata says about the vault beside its account: the APY from NAV history, if known. */
export interface VaultFacts {
  vault: LoadedVault;
  apy7d: number | null;
}

function priceText(vault: LoadedVault): string {
  const price = sharePrice(vault.state.totalAssets, vault.state.totalShares);
  return `${price.toFixed(6).replace(/0+$/, "").replace(/\.$/, ".0")} ${vault.asset.symbol}`;
}

function describe(facts: VaultFacts): string {
  const apy = facts.apy7d === null ? "APY not known yet" : `APY (7 days) ${(facts.apy7d * 100).toFixed(2)}%`;
  const fee = `withdrawal fee ${(facts.vault.state.feeBps / 100).toFixed(2)}%`;
  return `Share price ${priceText(facts.vault)} · ${apy} · ${fee}`;
}

function pausedNote(vault: LoadedVault): Pick<ActionGetResponse, "disabled" | "error"> {
  return vault.state.paused
    ? {
        disabled: true,
        error: { message: `${vault.state.name} is paused; it takes no deposits or withdrawals` },
      }
    : {};
}

const DEPOSIT_PRESETS = ["100", "500", "1000"] as const;

/**
 * A link's own amount (`GET …/deposit?amount=250`): checked as the POST would read it, then offered as the
 * action's first button. A link that names no amount offers the presets and the field.
 */
function prefilled(
  field: "amount" | "shares",
  text: string | undefined,
  token: { decimals: number; symbol: string },
  path: string,
  verb: string,
): LinkedAction | null {
  if (text === undefined) {
    return null;
  }
  const amount = amountOf(field, text, token.decimals);
  const shown = formatAbout(amount, token);
  return { type: "transaction", label: `${verb} ${shown}`, href: `${path}?${field}=${text.trim()}` };
}

/** A button with one required number the wallet asks for (`{field}` in the href), at least `min`. */
function numberField(
  path: string,
  label: string,
  field: string,
  fieldLabel: string,
  min: number,
): LinkedAction {
  return {
    type: "transaction",
    label,
    href: `${path}?${field}={${field}}`,
    parameters: [{ type: "number", name: field, label: fieldLabel, required: true, min }],
  };
}

export function depositActionMetadata(
  facts: VaultFacts,
  site: ActionSite,
  link: { amount?: string } = {},
): ActionGetResponse {
  const { vault } = facts;
  const path = actionPath(vault.address, "deposit");
  const symbol = vault.asset.symbol;
  const chosen = prefilled("amount", link.amount, vault.asset, path, "Deposit");
  const presets: LinkedAction[] =
    chosen !== null
      ? [chosen]
      : DEPOSIT_PRESETS.map((amount) => ({
          type: "transaction",
          label: `${amount} ${symbol}`,
          href: `${path}?amount=${amount}`,
        }));
  return {
    type: "action",
    icon: `${site.origin}/icon.svg`,
    title: `Deposit into ${vault.state.name}`,
    description: `${describe(facts)}. Deposit ${symbol} and receive ${vault.shares.symbol} shares.`,
    label: "Deposit",
    ...pausedNote(vault),
    links: {
      actions: [
        ...presets,
        numberField(path, "Deposit", "amount", `Amount in ${symbol}`, 10 ** -vault.asset.decimals),
      ],
    },
  };
}

/**
 * The vault's minimum withdrawal, in shares and as the least value in whole cents of the asset whose
 * shares (rounded down, as a request by value takes them) reach it: what a blink may offer.
 */
export function minimumWithdrawal(vault: LoadedVault): { shares: bigint; value: bigint } {
  const { totalAssets, totalShares, minWithdrawalShares } = vault.state;
  const cent = 10n ** BigInt(Math.max(0, vault.asset.decimals - 2));
  let value = assetsForSharesRoundUp(minWithdrawalShares, totalAssets, totalShares);
  value = ((value + cent - 1n) / cent) * cent;
  while (sharesForAssetsRoundDown(value, totalAssets, totalShares) < minWithdrawalShares) {
    value += cent;
  }
  return { shares: minWithdrawalShares, value };
}

function minimumWords(vault: LoadedVault): string {
  const minimum = minimumWithdrawal(vault);
  return `${formatAbout(minimum.value, vault.asset)} (${formatAbout(minimum.shares, vault.shares)})`;
}

/** The shares a withdraw link's amount asks for, as its POST reads them (a value rounded down). */
function linkShares(vault: LoadedVault, link: { amount?: string; shares?: string }): bigint | null {
  if (link.shares !== undefined) {
    return amountOf("shares", link.shares, vault.shares.decimals);
  }
  if (link.amount === undefined) {
    return null;
  }
  const assets = amountOf("amount", link.amount, vault.asset.decimals);
  return sharesForAssetsRoundDown(assets, vault.state.totalAssets, vault.state.totalShares);
}

export function withdrawActionMetadata(
  facts: VaultFacts,
  site: ActionSite,
  link: { amount?: string; shares?: string } = {},
): ActionGetResponse {
  const { vault } = facts;
  const path = actionPath(vault.address, "withdraw");
  if (link.amount !== undefined && link.shares !== undefined) {
    throw new DomainError("INVALID_AMOUNT", "shares: give shares or amount, not both", {
      context: { field: "shares" },
    });
  }
  const chosen =
    prefilled("amount", link.amount, vault.asset, path, "Withdraw") ??
    prefilled("shares", link.shares, vault.shares, path, "Withdraw");
  // A link's own amount below the minimum is not offered as a button the POST would refuse.
  const requested = linkShares(vault, link);
  const belowMinimum = chosen !== null && requested !== null && requested < vault.state.minWithdrawalShares;
  const minimum = minimumWithdrawal(vault);
  return {
    type: "action",
    icon: `${site.origin}/icon.svg`,
    title: `Withdraw from ${vault.state.name}`,
    description:
      `${describe(facts)}. Request a withdrawal by value in ${vault.asset.symbol} or by ${vault.shares.symbol} ` +
      `shares, at least ${minimumWords(vault)}; it is claimable once a NAV is struck and the queue is funded.`,
    label: "Withdraw",
    ...(belowMinimum && chosen !== null
      ? {
          error: {
            message: `${chosen.label.replace(/^Withdraw /, "")} is less than this vault's minimum withdrawal, ${minimumWords(vault)}; choose a larger amount.`,
          },
        }
      : {}),
    ...pausedNote(vault),
    links: {
      actions: [
        ...(chosen === null || belowMinimum ? [] : [chosen]),
        numberField(
          path,
          `Withdraw ${vault.asset.symbol}`,
          "amount",
          `Value in ${vault.asset.symbol}`,
          Number(formatUnits(minimum.value, vault.asset.decimals)),
        ),
        numberField(
          path,
          `Withdraw ${vault.shares.symbol}`,
          "shares",
          `Shares (${vault.shares.symbol})`,
          Number(formatUnits(minimum.shares, vault.shares.decimals)),
        ),
        cancelLink(vault),
      ],
    },
  };
}

/** Where withdrawals are offered, so is the cancel of a pending one (its POST refuses when none is). */
function cancelLink(vault: LoadedVault): LinkedAction {
  return { type: "transaction", label: "Cancel pending request", href: actionPath(vault.address, "cancel") };
}

export function claimActionMetadata(facts: VaultFacts, site: ActionSite): ActionGetResponse {
  const { vault } = facts;
  return {
    type: "action",
    icon: `${site.origin}/icon.svg`,
    title: `Claim your withdrawal from ${vault.state.name}`,
    description: `${describe(facts)}. Claims the ${vault.asset.symbol} of your pending withdrawal once it is ready.`,
    label: "Claim",
    ...pausedNote(vault),
    links: {
      actions: [
        { type: "transaction", label: "Claim", href: actionPath(vault.address, "claim") },
        cancelLink(vault),
      ],
    },
  };
}

/**
 * The cancel of the account's pending withdrawal. Never disabled by a pause: it only gives the
 * holder's own shares back.
 */
export function cancelActionMetadata(facts: VaultFacts, site: ActionSite): ActionGetResponse {
  const { vault } = facts;
  return {
    type: "action",
    icon: `${site.origin}/icon.svg`,
    title: `Cancel your withdrawal request in ${vault.state.name}`,
    description:
      `${describe(facts)}. Your escrowed ${vault.shares.symbol} shares come back to your wallet ` +
      `and the request leaves the queue.`,
    label: "Cancel request",
    links: {
      actions: [cancelLink(vault)],
    },
  };
}

function amountOf(field: string, text: string, decimals: number): bigint {
  const parsed = parseDecimalAmount(text, decimals);
  if (!parsed.ok) {
    throw new DomainError("INVALID_AMOUNT", `${field}: ${parsed.reason}`, { context: { field } });
  }
  return parsed.amount;
}

/** Our base64 transaction through the package's helper, with the chained callback as links.next. */
async function postResponse(
  transaction: string,
  message: string,
  vault: PublicKey,
): Promise<ActionPostResponse> {
  return createPostResponse({
    fields: {
      type: "transaction",
      transaction: VersionedTransaction.deserialize(Buffer.from(transaction, "base64")),
      message,
      links: { next: { type: "post", href: actionPath(vault, "confirm") } },
    },
  });
}

export interface DepositActionRequest {
  vault: PublicKey;
  account: PublicKey;
  /** The `amount` query parameter as the person typed it, in the asset's human units. */
  amount: string | undefined;
}

export async function prepareDepositAction(
  deps: VaultDeps,
  settings: DepositSettings,
  vault: LoadedVault,
  request: DepositActionRequest,
): Promise<ActionPostResponse> {
  if (request.amount === undefined) {
    throw new DomainError("INVALID_AMOUNT", `amount: is required (in ${vault.asset.symbol})`, {
      context: { field: "amount" },
    });
  }
  const raw = amountOf("amount", request.amount, vault.asset.decimals);
  const prepared = await buildDepositTransaction(deps, settings, {
    vault: request.vault,
    wallet: request.account,
    amount: { raw },
  });
  return postResponse(prepared.transaction, prepared.message, request.vault);
}

export interface WithdrawActionRequest {
  vault: PublicKey;
  account: PublicKey;
  /** Shares in the share token's human units. */
  shares: string | undefined;
  /** A value in the asset's human units: the shares worth at most that much at today's share price. */
  amount: string | undefined;
}

function sharesToWithdraw(vault: LoadedVault, request: WithdrawActionRequest): bigint {
  if (request.shares !== undefined && request.amount !== undefined) {
    throw new DomainError("INVALID_AMOUNT", "shares: give shares or amount, not both", {
      context: { field: "shares" },
    });
  }
  if (request.shares !== undefined) {
    return amountOf("shares", request.shares, vault.shares.decimals);
  }
  if (request.amount === undefined) {
    throw new DomainError(
      "INVALID_AMOUNT",
      `amount: is required (a value in ${vault.asset.symbol}, or shares in ${vault.shares.symbol})`,
      { context: { field: "amount" } },
    );
  }
  const assets = amountOf("amount", request.amount, vault.asset.decimals);
  // Rounded down like a deposit's shares: the request is never worth more than the value asked for.
  const shares = sharesForAssetsRoundDown(assets, vault.state.totalAssets, vault.state.totalShares);
  if (shares === null || shares === 0n) {
    throw new DomainError(
      "AMOUNT_TOO_SMALL",
      `amount: ${formatHuman(assets, vault.asset)} is worth less than one unit of ${vault.shares.symbol}`,
      { context: { amount: tokenAmount(vault.asset, assets) } },
    );
  }
  return shares;
}

export async function prepareWithdrawAction(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  vault: LoadedVault,
  request: WithdrawActionRequest,
): Promise<ActionPostResponse> {
  let prepared;
  try {
    prepared = await buildWithdrawTransaction(deps, schedule, {
      vault: request.vault,
      wallet: request.account,
      sharesAmount: sharesToWithdraw(vault, request),
      action: "initiate",
    });
  } catch (error) {
    // The blink reads the minimum as its person asked: by value when they gave one, as the page shows it.
    if (error instanceof DomainError && error.code === "BELOW_MINIMUM" && request.amount !== undefined) {
      throw new DomainError(
        "BELOW_MINIMUM",
        `amount: ${formatAbout(amountOf("amount", request.amount, vault.asset.decimals), vault.asset)} is less than this vault's minimum withdrawal, ${minimumWords(vault)}`,
        { context: error.context as DomainError<"BELOW_MINIMUM">["context"] },
      );
    }
    throw error;
  }
  return postResponse(prepared.transaction, prepared.message, request.vault);
}

/** The claim or the cancel of the account's pending withdrawal, as a blink's POST answers it. */
export async function prepareWithdrawalAction(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  action: "claim" | "cancel",
  request: { vault: PublicKey; account: PublicKey },
): Promise<ActionPostResponse> {
  const prepared = await buildWithdrawTransaction(deps, schedule, {
    vault: request.vault,
    wallet: request.account,
    action,
  });
  return postResponse(prepared.transaction, prepared.message, request.vault);
}

/** As the pages show it: "249.87 vUSDC", not the share's nine decimals. */
function human(amount: TokenAmount): string {
  return formatAbout(BigInt(amount.amount), amount);
}

/**
 * The chained callback: the signature is verified on chain and recorded once (the same function as
 * POST /api/history), and the blink shows what happened in words.
 */
export async function completeAction(
  deps: VaultDeps,
  history: HistoryStore,
  site: ActionSite,
  request: { vault: PublicKey; account: PublicKey; signature: string },
): Promise<CompletedAction> {
  const { records } = await verifyHistoryEntry(deps, history, {
    wallet: request.account,
    vault: request.vault,
    signature: request.signature,
  });
  // An action's transaction holds one vault instruction; a hand-built one may hold several, and the
  // blink then says what the last of them did (the wallet's state now).
  const record = records.at(-1);
  if (record === undefined) {
    throw new DomainError(
      "NOT_A_VAULT_TRANSACTION",
      "signature: the transaction holds no action of this wallet",
    );
  }
  const activity = activityView(record, (mint) => deps.symbolOf(new PublicKey(mint)));
  const words: Record<typeof activity.kind, { title: string; description: string }> = {
    deposit: {
      title: "Deposit confirmed",
      description: `Deposited ${human(activity.assets)}; about ${human(activity.shares)}`,
    },
    initiate: {
      title: "Withdrawal requested",
      description:
        `Requested a withdrawal of ${human(activity.shares)}, worth about ${human(activity.assets)}; ` +
        `claim it once a NAV is struck and the queue is funded`,
    },
    claim: {
      title: "Withdrawal claimed",
      description: `Claimed ${human(activity.assets)} for ${human(activity.shares)}${
        activity.fee === null ? "" : ` (fee ${human(activity.fee)})`
      }`,
    },
    cancel: {
      title: "Withdrawal cancelled",
      description: `${human(activity.shares)} came back to your wallet; the request left the queue`,
    },
  };
  return {
    type: "completed",
    icon: `${site.origin}/icon.svg`,
    ...words[activity.kind],
    label: "Done",
  };
}
