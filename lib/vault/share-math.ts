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
