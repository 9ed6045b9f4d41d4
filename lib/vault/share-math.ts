// The vault's share arithmetic on bigints, mirroring programs/vault/README.md exactly; the rounding
// direction of each function is in its name or its doc and always favours the vault.
const BPS = 10_000n;

/** Shares a deposit of `assets` mints: 1:1 into an empty vault, else rounded down. Null when the vault holds shares but no assets (the program fails with MathOverflow). */
export function sharesForAssetsRoundDown(
  assets: bigint,
  totalAssets: bigint,
  totalShares: bigint,
): bigint | null {
  if (totalShares === 0n) {
    return assets;
  }
  if (totalAssets === 0n) {
    return null;
  }
  return (assets * totalShares) / totalAssets;
}

/** `value(shares) = floor(shares × total_assets / total_shares)`; 0 when there are no shares. */
export function assetsForSharesRoundDown(shares: bigint, totalAssets: bigint, totalShares: bigint): bigint {
  return totalShares === 0n ? 0n : (shares * totalAssets) / totalShares;
}

/** The claim fee, rounded up: `ceil(gross × fee_bps / 10000)`. */
export function withdrawalFeeRoundUp(gross: bigint, feeBps: number): bigint {
  const numerator = gross * BigInt(feeBps);
  return (numerator + BPS - 1n) / BPS;
}

export interface WithdrawalAmounts {
  gross: bigint;
  fee: bigint;
  net: bigint;
}

/** What a claim of `shares` pays at the current NAV. */
export function withdrawalAmounts(
  shares: bigint,
  totalAssets: bigint,
  totalShares: bigint,
  feeBps: number,
): WithdrawalAmounts {
  const gross = assetsForSharesRoundDown(shares, totalAssets, totalShares);
  const fee = withdrawalFeeRoundUp(gross, feeBps);
  return { gross, fee, net: gross - fee };
}

const PRICE_SCALE = 10n ** 12n;

/** NAV per share as a display number (1 for an empty vault); amounts themselves stay bigint. */
export function sharePrice(totalAssets: bigint, totalShares: bigint): number {
  if (totalShares === 0n) {
    return 1;
  }
  return Number((totalAssets * PRICE_SCALE) / totalShares) / Number(PRICE_SCALE);
}

/** `amount × (10000 − bps) / 10000`, rounded down: a lower bound that tolerates `bps` of drift. */
export function lessBasisPointsRoundDown(amount: bigint, bps: number): bigint {
  return (amount * (BPS - BigInt(bps))) / BPS;
}

// Percentages keep six decimals (0.000001 %): far below any display, exact from the integers.
const PERCENT_DECIMALS = 6;
const PERCENT_SCALE = 100n * 10n ** BigInt(PERCENT_DECIMALS);

/**
 * `part / whole` in percent (8.24 = 8.24%), from the integers, truncated toward zero at six decimals;
 * only the final result becomes a number. Null when `whole` is 0.
 */
export function percentRoundTowardZero(part: bigint, whole: bigint): number | null {
  if (whole === 0n) {
    return null;
  }
  return Number((part * PERCENT_SCALE) / whole) / 10 ** PERCENT_DECIMALS;
}

/**
 * How much the share price moved from (A0, S0) to (A1, S1), in percent, truncated toward zero:
 * (A1/S1) / (A0/S0) − 1 = (A1·S0 − A0·S1) / (A0·S1). Null when either price is undefined.
 */
export function sharePriceChangePercent(
  from: { totalAssets: bigint; totalShares: bigint },
  to: { totalAssets: bigint; totalShares: bigint },
): number | null {
  if (from.totalShares === 0n || to.totalShares === 0n || from.totalAssets === 0n) {
    return null;
  }
  const base = from.totalAssets * to.totalShares;
  return percentRoundTowardZero(to.totalAssets * from.totalShares - base, base);
}
