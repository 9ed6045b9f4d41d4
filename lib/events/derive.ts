// Partner events from the program's events as the indexer stores them. Pure: the indexer gives each
// transaction's stored events with the vault's tokens, caps and previous paused flag, and the store
// finds the requests a NAV strike or a staging made claimable (lib/store/partner-events.ts).
import { operationOfEvent } from "../vault/operations/operations";
import { deliveredBy } from "../vault/model/withdrawal-milestones";
import type { StoredEvent } from "../store/indexer";
import { sharePrice } from "../vault/model/share-math";
import { tokenAmount, type TokenLabel } from "../vault/model/token-amount";
import { partnerEventId, type PartnerEvent } from "../vault/model/partner-event";
import { pauseInForce, pauseOf, type PauseState } from "../vault/model/pause";

export interface VaultEventContext {
  asset: TokenLabel;
  shares: TokenLabel;
  hourlyCap: bigint;
  dailyCap: bigint;
  /** vault.capacity_low when a window's remaining capacity falls under this share of its cap. */
  capacityLowBps: number;
  /** The vault's pause before this transaction (from its previous ConfigUpdated). */
  pauseBefore: PauseState;
  /** The transaction's signers, fee payer first: who sent a claim its owner did not sign. */
  signers: readonly string[];
}

const pausedBy = (pause: PauseState): "admin" | "manager" => (pause.adminPaused ? "admin" : "manager");

const WHOLE_BPS = 10_000n;

function field(event: StoredEvent, name: string): bigint {
  const value = event.data[name];
  return BigInt(typeof value === "string" || typeof value === "number" ? value : 0);
}

/** The chain's clock in the event (WithdrawalCancelled names it cancelled_at), else its block time. */
function timestampOf(event: StoredEvent): string {
  const seconds = Number(field(event, event.name === "WithdrawalCancelled" ? "cancelledAt" : "timestamp"));
  return new Date(seconds > 0 ? seconds * 1000 : (event.blockTime?.getTime() ?? 0)).toISOString();
}

function base(
  event: StoredEvent,
  type: PartnerEvent["type"] & string,
  id: string,
): Omit<PartnerEvent, "data"> {
  return {
    id,
    type,
    timestamp: timestampOf(event),
    vault: event.vault,
    wallet: event.owner,
    signature: event.signature,
    slot: event.slot,
  };
}

/** vault.capacity_low for each window a withdrawal request pushed under the threshold. */
function capacityLow(event: StoredEvent, context: VaultEventContext): PartnerEvent[] {
  const charged = field(event, "assets");
  const windows = [
    { window: "hourly", cap: context.hourlyCap, used: field(event, "hourlyUsed") },
    { window: "daily", cap: context.dailyCap, used: field(event, "dailyUsed") },
  ] as const;
  const low: PartnerEvent[] = [];
  for (const { window, cap, used } of windows) {
    if (cap === 0n) {
      continue;
    }
    const threshold = (cap * BigInt(context.capacityLowBps)) / WHOLE_BPS;
    const remaining = cap > used ? cap - used : 0n;
    const usedBefore = used > charged ? used - charged : 0n;
    const remainingBefore = cap > usedBefore ? cap - usedBefore : 0n;
    // Only the request that crosses the line, not every one after it in the same window.
    if (remaining < threshold && remainingBefore >= threshold) {
      low.push({
        ...base(
          event,
          "vault.capacity_low",
          partnerEventId("vault.capacity_low", event.signature, event.eventIndex, window),
        ),
        wallet: null,
        data: {
          window,
          cap: tokenAmount(context.asset, cap),
          used: tokenAmount(context.asset, used),
          remaining: tokenAmount(context.asset, remaining),
          threshold: tokenAmount(context.asset, threshold),
        },
      });
    }
  }
  return low;
}

/**
 * vault.config_scheduled: the fee, minimum and caps a holder-hurting update_config scheduled and when
 * they apply (until then requests meet the current ones); caps of 0 (none) as null. effectiveAt null:
 * a later update withdrew the pending config without scheduling another.
 */
function configScheduledData(event: StoredEvent, context: VaultEventContext): Record<string, unknown> {
  const cap = (name: string) => {
    const value = field(event, name);
    return value === 0n ? null : tokenAmount(context.asset, value);
  };
  const effectiveAt = field(event, "effectiveAt");
  return {
    feeBps: Number(field(event, "feeBps")),
    minWithdrawalShares: tokenAmount(context.shares, field(event, "minWithdrawalShares")),
    hourlyCap: cap("hourlyCap"),
    dailyCap: cap("dailyCap"),
    effectiveAt: effectiveAt === 0n ? null : new Date(Number(effectiveAt) * 1000).toISOString(),
  };
}

/** The partner events of one transaction's stored events, in the order the program emitted them. */
export function partnerEventsOf(events: readonly StoredEvent[], context: VaultEventContext): PartnerEvent[] {
  const derived: PartnerEvent[] = [];
  let pause = context.pauseBefore;
  const asset = (event: StoredEvent, name: string) => tokenAmount(context.asset, field(event, name));
  const shares = (event: StoredEvent, name: string) => tokenAmount(context.shares, field(event, name));
  for (const event of events) {
    const id = (type: Parameters<typeof partnerEventId>[0]) =>
      partnerEventId(type, event.signature, event.eventIndex);
    const operation = operationOfEvent(event.name);
    if (operation !== null) {
      derived.push({
        ...base(event, operation.partnerEvent, id(operation.partnerEvent)),
        data: operation.partnerData({
          integer: (name) => field(event, name),
          address: (name) => String(event.data[name] ?? ""),
          asset: (name) => asset(event, name),
          shares: (name) => shares(event, name),
          sharesOf: (raw) => tokenAmount(context.shares, raw),
          deliveredBy: event.owner === null ? null : deliveredBy(context.signers, event.owner),
        }),
      });
      if (operation.takesWithdrawalCap) derived.push(...capacityLow(event, context));
      continue;
    }
    switch (event.name) {
      case "NavUpdated": {
        const totalAssets = field(event, "totalAssets");
        const totalShares = field(event, "totalShares");
        derived.push({
          ...base(event, "vault.nav_updated", id("vault.nav_updated")),
          wallet: null,
          data: {
            navSequence: field(event, "navSequence").toString(),
            totalAssets: asset(event, "totalAssets"),
            totalShares: shares(event, "totalShares"),
            sharePrice: sharePrice(totalAssets, totalShares),
            gain: asset(event, "gain"),
            loss: asset(event, "loss"),
          },
        });
        break;
      }
      case "ConfigUpdated": {
        // vault.paused when a pause comes into force or its end or owner changes (the admin holding
        // the manager's pause longer); vault.resumed when one in force is lifted. A pause that ends by
        // itself at pausedUntil is announced by nothing further.
        const at = field(event, "timestamp");
        const next = pauseOf(event.data);
        const wasInForce = pauseInForce(pause, at);
        if (pauseInForce(next, at)) {
          if (!wasInForce || next.pauseUntil !== pause.pauseUntil || next.adminPaused !== pause.adminPaused) {
            derived.push({
              ...base(event, "vault.paused", id("vault.paused")),
              wallet: null,
              data: {
                pausedUntil:
                  next.pauseUntil === null ? null : new Date(Number(next.pauseUntil) * 1000).toISOString(),
                by: pausedBy(next),
              },
            });
          }
        } else if (wasInForce) {
          derived.push({
            ...base(event, "vault.resumed", id("vault.resumed")),
            wallet: null,
            data: { by: pausedBy(pause) },
          });
        }
        pause = next;
        break;
      }
      case "ConfigScheduled":
        derived.push({
          ...base(event, "vault.config_scheduled", id("vault.config_scheduled")),
          wallet: null,
          data: configScheduledData(event, context),
        });
        break;
      default:
        break;
    }
  }
  return derived;
}

/** withdrawal.claimable for a request, made so by `trigger` (a NAV strike or a staging). */
export function claimableEvent(
  request: StoredEvent,
  trigger: StoredEvent,
  context: Pick<VaultEventContext, "asset" | "shares">,
): PartnerEvent {
  const requestId = field(request, "requestId");
  return {
    ...base(
      trigger,
      "withdrawal.claimable",
      partnerEventId("withdrawal.claimable", request.vault, requestId),
    ),
    wallet: request.owner,
    data: {
      requestId: requestId.toString(),
      shares: tokenAmount(context.shares, field(request, "shares")),
      requestSignature: request.signature,
    },
  };
}
