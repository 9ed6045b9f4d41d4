// The share price's rise since the last NAV strike. Between strikes the NAV does not move: a deposit
// adds assets and shares at the price (rounding in the vault's favour), a claim takes out its net and
// burns its shares, so its withdrawal fee stays in the vault and lifts every remaining share. A rise
// the pages show (from the sixth decimal) is therefore exit fees kept by the holders, not yield.

export interface FeesKept {
  /** Unix seconds of the last strike, from which the price moved. */
  since: number;
  /** The share price at that strike and now. */
  from: number;
  to: number;
  /** to / from − 1. */
  change: number;
}

/** A move under half the sixth decimal the pages show is rounding dust, not a fee. */
const SHOWN_PRICE_HALF_STEP = 5e-7;

export function feesKeptSinceStrike(
  strike: { time: number; sharePrice: number },
  livePrice: number,
): FeesKept | null {
  if (livePrice - strike.sharePrice < SHOWN_PRICE_HALF_STEP || strike.sharePrice <= 0) {
    return null;
  }
  return {
    since: strike.time,
    from: strike.sharePrice,
    to: livePrice,
    change: livePrice / strike.sharePrice - 1,
  };
}
