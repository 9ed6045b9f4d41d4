// The vault's share arithmetic on bigints, mirroring programs/vault/README.md exactly; the rounding
// direction of each function is in its name or its doc and always favours the vault.
const BPS = 10_000n;

/**
 * The program's decimals offset: a vault's share mint has its asset's decimals plus this many. Prices
 * count `10^offset` virtual shares and 1 virtual asset (OpenZeppelin ERC-4626's defence): a donation
 * or a leftover cannot make the next deposit's shares worth more than it paid.
 */
export const DECIMALS_OFFSET = 3;
export const VIRTUAL_SHARES = 10n ** BigInt(DECIMALS_OFFSET);
export const VIRTUAL_ASSETS = 1n;

/** The share mint's decimals for an asset of `assetDecimals`. */
export function shareDecimalsFor(assetDecimals: number): number {
  return assetDecimals + DECIMALS_OFFSET;
}

/** Shares a deposit of `assets` mints: `floor(assets × (S + 10^offset) / (A + 1))`. */
export function sharesForAssetsRoundDown(assets: bigint, totalAssets: bigint, totalShares: bigint): bigint {
  return (assets * (totalShares + VIRTUAL_SHARES)) / (totalAssets + VIRTUAL_ASSETS);
}

/** Shares worth at least `assets`: `ceil(assets × (S + 10^offset) / (A + 1))`. */
export function sharesForAssetsRoundUp(assets: bigint, totalAssets: bigint, totalShares: bigint): bigint {
  const denominator = totalAssets + VIRTUAL_ASSETS;
  return (assets * (totalShares + VIRTUAL_SHARES) + denominator - 1n) / denominator;
}

/** `value(shares) = floor(shares × (A + 1) / (S + 10^offset))`. */
export function assetsForSharesRoundDown(shares: bigint, totalAssets: bigint, totalShares: bigint): bigint {
  return (shares * (totalAssets + VIRTUAL_ASSETS)) / (totalShares + VIRTUAL_SHARES);
}

/** `ceil(shares × (A + 1) / (S + 10^offset))`: what the vault owes for shares, counted generously. */
export function assetsForSharesRoundUp(shares: bigint, totalAssets: bigint, totalShares: bigint): bigint {
  const denominator = totalShares + VIRTUAL_SHARES;
  return (shares * (totalAssets + VIRTUAL_ASSETS) + denominator - 1n) / denominator;
}

/** The claim fee, rounded up: `ceil(gross × fee_bps / 10000)`. */
export function withdrawalFeeRoundUp(gross: bigint, feeBps: number): bigint {
  const numerator = gross * BigInt(feeBps);
  return (numerator + BPS - 1n) / BPS;
}

/** The program's ceiling on any protocol's max_partner_fee_bps (MAX_PARTNER_FEE_BPS): no key may carry more. */
export const PARTNER_FEE_CEILING_BPS = 500;

/**
 * A deposit's partner fee, rounded down (the depositor never pays more than the bps):
 * `floor(amount × partner_fee_bps / 10000)`, as the program computes it.
 */
export function partnerFeeRoundDown(amount: bigint, partnerFeeBps: number): bigint {
  return (amount * BigInt(partnerFeeBps)) / BPS;
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

/**
 * One whole share's value in whole assets, as a display number: `(A + 1) / (S + 10^offset)` raw,
 * times `10^offset` for the share's extra decimals (1 for a fresh vault); amounts stay bigint.
 */
export function sharePrice(totalAssets: bigint, totalShares: bigint): number {
  const scaled =
    ((totalAssets + VIRTUAL_ASSETS) * VIRTUAL_SHARES * PRICE_SCALE) / (totalShares + VIRTUAL_SHARES);
  return Number(scaled) / Number(PRICE_SCALE);
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

export interface PricePoint {
  totalAssets: bigint;
  totalShares: bigint;
}

/**
 * The share price's growth from `from` to `to` as an exact fraction: with a = A + 1 and s = S +
 * 10^offset, (a1/s1) / (a0/s0) − 1 = (a1·s0 − a0·s1) / (a0·s1).
 */
export function sharePriceGrowth(from: PricePoint, to: PricePoint): { part: bigint; whole: bigint } {
  const whole = (from.totalAssets + VIRTUAL_ASSETS) * (to.totalShares + VIRTUAL_SHARES);
  return { part: (to.totalAssets + VIRTUAL_ASSETS) * (from.totalShares + VIRTUAL_SHARES) - whole, whole };
}

/**
 * How much the share price moved from (A0, S0) to (A1, S1), in percent, truncated toward zero. Null
 * when either point has no shares (no holder saw that price).
 */
export function sharePriceChangePercent(from: PricePoint, to: PricePoint): number | null {
  if (from.totalShares === 0n || to.totalShares === 0n) {
    return null;
  }
  const growth = sharePriceGrowth(from, to);
  return percentRoundTowardZero(growth.part, growth.whole);
}
