//! Wide and checked arithmetic by hand: the BPF backend has no 128-bit multiply or divide and no
//! overflow-checked multiply, so `u64 × u64 / u64` goes through a (hi, lo) pair and a two-digit long
//! division (Hacker's Delight, divlu). Rounding direction is always named.

use crate::error::{Result, VaultError};

const LOW32: u64 = 0xFFFF_FFFF;

/// The full 128-bit product of two u64 as (high, low).
#[inline]
pub fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    let (a0, a1) = (a & LOW32, a >> 32);
    let (b0, b1) = (b & LOW32, b >> 32);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 32) + (p01 & LOW32) + (p10 & LOW32);
    let lo = (mid << 32) | (p00 & LOW32);
    let hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    (hi, lo)
}

/// Number of leading zero bits; `leading_zeros` would need a library call on this target.
#[inline]
fn leading_zeros(mut x: u64) -> u32 {
    if x == 0 {
        return 64;
    }
    let mut n = 0;
    // A binary search for the highest set bit: is the top half (32 bits, then 16, … 1) all zero?
    for width in [32, 16, 8, 4, 2, 1] {
        if x >> (64 - width) == 0 {
            n += width;
            x <<= width;
        }
    }
    n
}

/// Divides the 128-bit value (hi, lo) by `d`, returning (quotient, remainder), or `None` when `d` is
/// zero or the quotient does not fit in 64 bits.
pub fn div_wide(hi: u64, lo: u64, d: u64) -> Option<(u64, u64)> {
    if d == 0 || hi >= d {
        return None;
    }
    if hi == 0 {
        return Some((lo / d, lo % d));
    }
    const B: u64 = 1 << 32;
    let s = leading_zeros(d);
    let v = d << s;
    let (vn1, vn0) = (v >> 32, v & LOW32);
    let un32 = if s == 0 { hi } else { (hi << s) | (lo >> (64 - s)) };
    let un10 = lo << s;
    let (un1, un0) = (un10 >> 32, un10 & LOW32);

    let mut q1 = un32 / vn1;
    let mut rhat = un32 - q1 * vn1;
    while q1 >= B || q1 * vn0 > (rhat << 32) + un1 {
        q1 -= 1;
        rhat += vn1;
        if rhat >= B {
            break;
        }
    }
    let un21 = (un32 << 32).wrapping_add(un1).wrapping_sub(q1.wrapping_mul(v));

    let mut q0 = un21 / vn1;
    rhat = un21 - q0 * vn1;
    while q0 >= B || q0 * vn0 > (rhat << 32) + un0 {
        q0 -= 1;
        rhat += vn1;
        if rhat >= B {
            break;
        }
    }
    let r = (un21 << 32).wrapping_add(un0).wrapping_sub(q0.wrapping_mul(v)) >> s;
    Some(((q1 << 32) | q0, r))
}

/// `floor(a × b / d)`; fails when `d` is zero or the result exceeds u64.
pub fn mul_div_floor(a: u64, b: u64, d: u64) -> Result<u64> {
    let (hi, lo) = mul_wide(a, b);
    match div_wide(hi, lo, d) {
        Some((q, _)) => Ok(q),
        None => Err(VaultError::MathOverflow.into()),
    }
}

/// `ceil(a × b / d)`; fails when `d` is zero or the result exceeds u64.
pub fn mul_div_ceil(a: u64, b: u64, d: u64) -> Result<u64> {
    let (hi, lo) = mul_wide(a, b);
    match div_wide(hi, lo, d) {
        Some((q, 0)) => Ok(q),
        Some((q, _)) => checked_add(q, 1),
        None => Err(VaultError::MathOverflow.into()),
    }
}

#[inline]
pub fn checked_add(a: u64, b: u64) -> Result<u64> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(VaultError::MathOverflow.into()),
    }
}

#[inline]
pub fn checked_sub(a: u64, b: u64) -> Result<u64> {
    match a.checked_sub(b) {
        Some(v) => Ok(v),
        None => Err(VaultError::MathOverflow.into()),
    }
}

/// Share decimals exceed asset decimals by this much: a vault prices shares as if 10^3 virtual shares
/// and 1 virtual asset unit were always outstanding (OpenZeppelin ERC-4626's decimals offset). An
/// empty vault mints 10^3 shares per asset unit; an inflation or leftover-capture attack must give
/// the virtual shares 10^3 times what it hopes to take from the next depositor.
pub const DECIMALS_OFFSET: u8 = 3;
pub const VIRTUAL_SHARES: u64 = 1_000;
pub const VIRTUAL_ASSETS: u64 = 1;

/// Shares minted for a deposit: `floor(amount × (S + 10^3) / (A + 1))`, rounded down (the vault's
/// favour: the depositor gets at most what he paid for).
pub fn shares_for_deposit(amount: u64, total_assets: u64, total_shares: u64) -> Result<u64> {
    mul_div_floor(amount, checked_add(total_shares, VIRTUAL_SHARES)?, checked_add(total_assets, VIRTUAL_ASSETS)?)
}

/// The asset value of `shares`: `floor(shares × (A + 1) / (S + 10^3))`, rounded down (the vault's
/// favour: what a holder is paid or charged to the caps).
pub fn assets_for_shares_floor(shares: u64, total_assets: u64, total_shares: u64) -> Result<u64> {
    mul_div_floor(shares, checked_add(total_assets, VIRTUAL_ASSETS)?, checked_add(total_shares, VIRTUAL_SHARES)?)
}

/// The asset value of `shares`, rounded up: what the vault must hold to be sure it can pay them.
pub fn assets_for_shares_ceil(shares: u64, total_assets: u64, total_shares: u64) -> Result<u64> {
    mul_div_ceil(shares, checked_add(total_assets, VIRTUAL_ASSETS)?, checked_add(total_shares, VIRTUAL_SHARES)?)
}

/// The most shares whose value (rounded down) is at most `assets`:
/// `floor(assets × (S + 10^3) / (A + 1))`, rounded down so the funded shares never cost more.
pub fn shares_affordable(assets: u64, total_assets: u64, total_shares: u64) -> Result<u64> {
    shares_for_deposit(assets, total_assets, total_shares)
}

/// The largest value `bps` of `total` allows, rounded down (the bound is never looser than stated).
pub fn bps_of(total: u64, bps: u16) -> Result<u64> {
    mul_div_floor(total, bps as u64, BPS_DENOMINATOR)
}

pub const BPS_DENOMINATOR: u64 = 10_000;
pub const MAX_FEE_BPS: u16 = 1_000;

/// The highest minimum withdrawal a vault can set, in whole shares (1,000 × 10^share_decimals units,
/// about 1,000 asset units at the starting price): a manager cannot raise it out of every holder's reach.
pub const MAX_MIN_WITHDRAWAL_WHOLE_SHARES: u64 = 1_000;

/// MAX_MIN_WITHDRAWAL_WHOLE_SHARES in share units for shares of `share_decimals`, saturating at u64::MAX.
pub fn max_min_withdrawal_shares(share_decimals: u8) -> u64 {
    let mut units = MAX_MIN_WITHDRAWAL_WHOLE_SHARES;
    let mut d = 0;
    while d < share_decimals {
        if units > u64::MAX / 10 {
            return u64::MAX;
        }
        units *= 10;
        d += 1;
    }
    units
}

/// The ceiling on a protocol's max_partner_fee_bps: 5% of a deposit, whoever the admin is.
pub const MAX_PARTNER_FEE_BPS: u16 = 500;
/// A new protocol's max_partner_fee_bps: 1% of a deposit.
pub const DEFAULT_MAX_PARTNER_FEE_BPS: u16 = 100;

/// A partner's fee on a deposit of `amount`, rounded down: the depositor never pays more than the bps.
pub fn partner_fee(amount: u64, fee_bps: u16) -> Result<u64> {
    bps_of(amount, fee_bps)
}

/// The withdrawal fee on `gross`, rounded up (in the vault's favour).
pub fn withdrawal_fee(gross: u64, fee_bps: u16) -> Result<u64> {
    mul_div_ceil(gross, fee_bps as u64, BPS_DENOMINATOR)
}

pub const HOUR: u64 = 3_600;
pub const DAY: u64 = 86_400;
pub const YEAR: u64 = 365 * DAY;

/// The ceiling on a protocol's annual NAV gain rate: 100% a year. With at most one day of catch-up,
/// 24 hours of strikes can then gain at most 2 days' worth (0.55%), a week at most 8 days' (2.2%).
pub const MAX_ANNUAL_GAIN_BPS: u16 = 10_000;
/// The ceiling on a protocol's daily NAV loss rate: 10% a day.
pub const MAX_DAILY_LOSS_BPS: u16 = 1_000;
/// The longest time a strike's time-bound counts since the previous strike (the catch-up after a pause
/// in striking): one day.
pub const NAV_CATCH_UP_SECONDS: u64 = DAY;

/// The seconds since the previous strike a strike's time-bound counts: `now − previous`, at least 0
/// (a clock behind the stamp) and at most NAV_CATCH_UP_SECONDS.
pub fn nav_elapsed(now: i64, previous: i64) -> u64 {
    if now <= previous {
        return 0;
    }
    let elapsed = (now as u64).wrapping_sub(previous as u64);
    if elapsed > NAV_CATCH_UP_SECONDS {
        NAV_CATCH_UP_SECONDS
    } else {
        elapsed
    }
}

/// The most a NAV of `total` may move in `elapsed` seconds at `bps` per `period` seconds, rounded down
/// (never looser than stated): `floor(total × bps × elapsed / (10000 × period))`. bps is at most 10000
/// (validated; capped here too) and elapsed at most NAV_CATCH_UP_SECONDS, so `bps × elapsed` ≤ 8.64 × 10^8
/// fits a u32 product (a u64 one is turned into a 128-bit library call the BPF backend lacks).
#[inline(always)]
pub fn nav_time_bound(total: u64, bps: u16, elapsed: u64, period: u64) -> Result<u64> {
    let bps = if bps as u64 > BPS_DENOMINATOR { BPS_DENOMINATOR as u16 } else { bps };
    let elapsed = if elapsed > NAV_CATCH_UP_SECONDS { NAV_CATCH_UP_SECONDS } else { elapsed } as u32;
    let rate_time = (bps as u32).wrapping_mul(elapsed) as u64;
    mul_div_floor(total, rate_time, BPS_DENOMINATOR * period)
}

/// Start of the UTC-aligned window of `len` seconds holding `now` (times before 1970 count as 0).
#[inline]
pub fn window_start(now: i64, len: u64) -> i64 {
    let t = if now < 0 { 0 } else { now as u64 };
    (t - t % len) as i64
}

/// A net-withdrawal window: the start of the window it counts and the assets used in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub start: i64,
    pub used: u64,
}

impl Window {
    /// The window as of `now`: a later window starts with nothing used.
    pub fn rolled(self, now: i64, len: u64) -> Window {
        let start = window_start(now, len);
        if start > self.start {
            Window { start, used: 0 }
        } else {
            self
        }
    }

    /// Charges `assets` against `cap` (0 = no cap); `None` when the cap would be exceeded.
    pub fn charged(self, assets: u64, cap: u64) -> Option<Window> {
        let used = self.used.checked_add(assets)?;
        if cap != 0 && used > cap {
            return None;
        }
        Some(Window { start: self.start, used })
    }

    /// A deposit gives capacity back, down to nothing used.
    pub fn credited(self, assets: u64) -> Window {
        Window { start: self.start, used: self.used.saturating_sub(assets) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn mul_wide_matches_u128() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200_000 {
            let (a, b) = (rng.any(), rng.any());
            let p = a as u128 * b as u128;
            assert_eq!(mul_wide(a, b), ((p >> 64) as u64, p as u64), "{a} × {b}");
        }
    }

    #[test]
    fn leading_zeros_matches_core() {
        for s in 0..64 {
            assert_eq!(leading_zeros(1u64 << s), (1u64 << s).leading_zeros());
            assert_eq!(leading_zeros((1u64 << s) | 1), ((1u64 << s) | 1).leading_zeros());
        }
        assert_eq!(leading_zeros(0), 64);
        assert_eq!(leading_zeros(u64::MAX), 0);
    }

    #[test]
    fn div_wide_matches_u128() {
        let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
        let mut checked = 0;
        for _ in 0..400_000 {
            let (hi, lo, d) = (rng.any(), rng.any(), rng.any());
            let n = ((hi as u128) << 64) | lo as u128;
            let expected = if d == 0 || n / d as u128 > u64::MAX as u128 {
                None
            } else {
                checked += 1;
                Some(((n / d as u128) as u64, (n % d as u128) as u64))
            };
            assert_eq!(div_wide(hi, lo, d), expected, "({hi}, {lo}) / {d}");
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn mul_div_rounds_in_the_named_direction() {
        let mut rng = Rng(42);
        for _ in 0..200_000 {
            let (a, b, d) = (rng.any(), rng.any(), rng.any());
            let p = a as u128 * b as u128;
            let floor = if d == 0 { None } else { Some(p / d as u128) };
            let ceil = if d == 0 { None } else { Some(p.div_ceil(d as u128)) };
            let fits = |v: Option<u128>| v.filter(|v| *v <= u64::MAX as u128).map(|v| v as u64);
            assert_eq!(mul_div_floor(a, b, d).ok(), fits(floor));
            assert_eq!(mul_div_ceil(a, b, d).ok(), fits(ceil));
        }
        assert_eq!(mul_div_floor(7, 1, 2), Ok(3));
        assert_eq!(mul_div_ceil(7, 1, 2), Ok(4));
        assert_eq!(mul_div_floor(1, 1, 0), Err(VaultError::MathOverflow.into()));
        assert_eq!(mul_div_floor(u64::MAX, u64::MAX, 1), Err(VaultError::MathOverflow.into()));
        assert_eq!(mul_div_floor(u64::MAX, u64::MAX, u64::MAX), Ok(u64::MAX));
    }

    #[test]
    fn deposits_round_down_and_start_at_a_thousand_shares_per_unit() {
        assert_eq!(shares_for_deposit(1_000_000, 0, 0), Ok(1_000_000_000));
        // NAV per share 1.1 units per 1,000 shares: 100 assets buy floor(100 × 1_001_000 / 1_100_001).
        assert_eq!(shares_for_deposit(100, 1_100_000, 1_000_000_000), Ok(90_909));
        // A vault whose NAV fell to 0 still prices (through the virtual asset), never divides by 0.
        assert_eq!(shares_for_deposit(1, 0, 5), Ok(1_005));
        assert_eq!(shares_for_deposit(1, u64::MAX, 0), Err(VaultError::MathOverflow.into()));
    }

    #[test]
    fn finding_one_leftover_cannot_be_captured() {
        // The numbers, after the emptying claim moved the 100,000 leftover out of NAV.
        let attacker = shares_for_deposit(1, 0, 0).unwrap();
        assert_eq!(attacker, 1_000);
        let (a, s) = (1, attacker);
        let victim = shares_for_deposit(50_000, a, s).unwrap();
        assert_eq!(assets_for_shares_floor(victim, a + 50_000, s + victim), Ok(50_000));
        assert_eq!(assets_for_shares_floor(attacker, a + 50_000, s + victim), Ok(1));
        // Even with the leftover left in NAV (no surplus move), the offset keeps the victim whole
        // within the price of one share and leaves the attacker's unit worth far less than it took.
        let (a, s) = (100_001, 1_000);
        let victim = shares_for_deposit(150_000, a, s).unwrap();
        let value = assets_for_shares_floor(victim, a + 150_000, s + victim).unwrap();
        assert!(value + 1 >= 150_000 - 100, "{value}");
    }

    #[test]
    fn share_values_round_in_the_vaults_favour() {
        assert_eq!(assets_for_shares_floor(90_909, 1_100_000, 1_000_000_000), Ok(99));
        assert_eq!(assets_for_shares_ceil(90_909, 1_100_000, 1_000_000_000), Ok(100));
        assert_eq!(assets_for_shares_floor(1_000, 0, 0), Ok(1));
        assert_eq!(assets_for_shares_ceil(1_001, 0, 0), Ok(2));
        // Depositing then withdrawing never returns more than was paid in.
        let mut rng = Rng(7);
        for _ in 0..50_000 {
            let ta = rng.any() >> 4;
            let ts = rng.any() >> 4;
            let amount = rng.any() >> 8;
            let Ok(shares) = shares_for_deposit(amount, ta, ts) else { continue };
            if let (Some(ta2), Some(ts2)) = (ta.checked_add(amount), ts.checked_add(shares)) {
                if let Ok(value) = assets_for_shares_floor(shares, ta2, ts2) {
                    assert!(value <= amount);
                }
            }
        }
    }

    #[test]
    fn bps_bounds_round_down() {
        assert_eq!(bps_of(1_000_000, 10), Ok(1_000));
        assert_eq!(bps_of(999, 10), Ok(0));
        assert_eq!(bps_of(0, 10_000), Ok(0));
        assert_eq!(bps_of(u64::MAX, 10_000), Ok(u64::MAX));
    }

    #[test]
    fn the_minimum_withdrawal_ceiling_is_a_thousand_whole_shares() {
        assert_eq!(max_min_withdrawal_shares(0), 1_000);
        // USDC: 6 decimals, shares 9: 10^12 share units.
        assert_eq!(max_min_withdrawal_shares(9), 1_000_000_000_000);
        assert_eq!(max_min_withdrawal_shares(16), 10_000_000_000_000_000_000);
        assert_eq!(max_min_withdrawal_shares(17), u64::MAX);
        assert_eq!(max_min_withdrawal_shares(255), u64::MAX);
    }

    #[test]
    fn nav_time_bounds_count_at_most_a_day_and_round_down() {
        assert_eq!(nav_elapsed(100, 40), 60);
        assert_eq!(nav_elapsed(40, 100), 0);
        assert_eq!(nav_elapsed(i64::MAX, i64::MIN), NAV_CATCH_UP_SECONDS);
        assert_eq!(nav_elapsed(10 * DAY as i64, 0), DAY);
        // 1,000,000 USDC (10^12 raw) at 20% a year for 60 s: floor(10^12 × 2000 × 60 / (10^4 × 31_536_000)).
        assert_eq!(nav_time_bound(1_000_000_000_000, 2_000, 60, YEAR), Ok(380_517));
        // A day at the ceiling: 1/365 of the NAV.
        assert_eq!(nav_time_bound(365_000_000, MAX_ANNUAL_GAIN_BPS, DAY, YEAR), Ok(1_000_000));
        assert_eq!(nav_time_bound(1_000_000, 50, DAY, DAY), Ok(5_000));
        assert_eq!(nav_time_bound(u64::MAX, MAX_ANNUAL_GAIN_BPS, DAY, YEAR), Ok(u64::MAX / 365));
        assert_eq!(nav_time_bound(1_000, 1, 1, YEAR), Ok(0));
    }

    #[test]
    fn partner_fee_rounds_down() {
        // 1,000 USDC at 25 bps: 2.5 USDC.
        assert_eq!(partner_fee(1_000_000_000, 25), Ok(2_500_000));
        assert_eq!(partner_fee(399, 25), Ok(0));
        assert_eq!(partner_fee(400, 25), Ok(1));
        assert_eq!(partner_fee(400_001, 25), Ok(1_000));
        assert_eq!(partner_fee(u64::MAX, MAX_PARTNER_FEE_BPS), Ok(u64::MAX / 20));
        let mut rng = Rng(0x5eed_0032);
        for _ in 0..10_000 {
            let amount = rng.any() >> (rng.any() % 64);
            let bps = (rng.any() % (MAX_PARTNER_FEE_BPS as u64 + 1)) as u16;
            let fee = partner_fee(amount, bps).unwrap();
            let exact = amount as u128 * bps as u128;
            assert!(fee as u128 * 10_000 <= exact && exact < (fee as u128 + 1) * 10_000);
        }
    }

    #[test]
    fn fee_rounds_up() {
        assert_eq!(withdrawal_fee(1_000_000, 10), Ok(1_000));
        assert_eq!(withdrawal_fee(1, 10), Ok(1));
        assert_eq!(withdrawal_fee(0, 10), Ok(0));
        assert_eq!(withdrawal_fee(12_345, 0), Ok(0));
        assert_eq!(withdrawal_fee(u64::MAX, MAX_FEE_BPS), Ok(u64::MAX / 10 + 1));
    }

    #[test]
    fn windows_roll_at_utc_boundaries() {
        let t = 1_767_225_600; // 2026-01-01T00:00:00Z
        assert_eq!(window_start(t + 3_599, HOUR), t);
        assert_eq!(window_start(t + 3_600, HOUR), t + 3_600);
        assert_eq!(window_start(t + 86_399, DAY), t);
        assert_eq!(window_start(-5, HOUR), 0);
        let w = Window { start: t, used: 700 };
        assert_eq!(w.rolled(t + 3_599, HOUR), w);
        assert_eq!(w.rolled(t + 3_600, HOUR), Window { start: t + 3_600, used: 0 });
        // A clock that goes backwards never resets the window.
        assert_eq!(w.rolled(t - 10, HOUR), w);
    }

    #[test]
    fn windows_charge_against_caps_and_credit_deposits() {
        let w = Window { start: 0, used: 700 };
        assert_eq!(w.charged(300, 1_000), Some(Window { start: 0, used: 1_000 }));
        assert_eq!(w.charged(301, 1_000), None);
        assert_eq!(w.charged(u64::MAX, 0), None);
        assert_eq!(w.charged(5_000, 0), Some(Window { start: 0, used: 5_700 }));
        assert_eq!(w.credited(200).used, 500);
        assert_eq!(w.credited(2_000).used, 0);
    }
}
