//! The vault's holder-facing config over time: which changes wait out a notice period, the floor under
//! the withdrawal caps, and when the manager counts as silent so that holders can leave without it.
//!
//! A change that makes leaving dearer or slower (a higher fee, a higher minimum withdrawal) and every
//! change of a cap, whatever value it writes, is scheduled: it applies by itself once
//! `now ≥ pending_effective_at`, wherever the config is read next (request_withdrawal, update_config)
//! or by anyone through apply_config. Until then every holder can still request at the old terms.
//! Only a lower fee or a lower minimum applies at once: it makes leaving cheaper or easier for every
//! holder alike, and moves no one ahead of anyone else.

use crate::error::{Result, VaultError};
use crate::math::{assets_for_shares_floor, bps_of, DAY};
use crate::state::Vault;

/// The shortest notice the admin can set: one day, the daily cap's window. A holder who sees a change
/// announced has at least one whole daily window to request at the old terms, and a request is
/// claimable after the next strike (the keeper strikes every minute), well inside it.
pub const MIN_CONFIG_NOTICE_SECONDS: u32 = DAY as u32;
/// The notice a vault gets unless its admin sets another: three days, so a holder who checks once a
/// weekend still sees a change before it applies, and a keeper outage of a day or two does not eat it.
pub const DEFAULT_CONFIG_NOTICE_SECONDS: u32 = 3 * DAY as u32;
/// The longest notice: 30 days (a longer one would freeze the manager's changes, not protect anyone more).
pub const MAX_CONFIG_NOTICE_SECONDS: u32 = 30 * DAY as u32;

/// The manager counts as silent after this long without a NAV strike (claims then skip the NAV floor
/// and a pause no longer refuses requests) or without staging (anyone may stage): seven days unless
/// the admin sets another, between one day (an ordinary keeper outage must not open exits at a stale
/// NAV) and 30 days (nobody's exit may wait longer for an absent manager).
pub const DEFAULT_SILENCE_SECONDS: u32 = 7 * DAY as u32;
pub const MIN_SILENCE_SECONDS: u32 = DAY as u32;
pub const MAX_SILENCE_SECONDS: u32 = 30 * DAY as u32;

/// A pause by the manager alone ends by itself after this long (seven days unless stored otherwise),
/// and the next one may start only as long after it ends: a manager key holds exits at most half the
/// time, a week at a stretch. Holding longer takes the protocol's admin.
pub const DEFAULT_MAX_PAUSE_SECONDS: u32 = 7 * DAY as u32;
/// The furthest end the protocol's admin may give a pause, counted from when it sets it: 30 days, the
/// longest any exit waits for an absent manager (MAX_SILENCE_SECONDS). The admin may set it again.
pub const MAX_ADMIN_PAUSE_SECONDS: i64 = 30 * DAY as i64;

/// A non-zero daily cap is at least 1% of NAV (the whole vault can leave within 100 days), a non-zero
/// hourly cap at least a 24th of that; both are at least the value of the minimum withdrawal (so the
/// smallest request the minimum allows fits an empty window).
pub const MIN_DAILY_CAP_BPS: u16 = 100;

/// The four fields holders' exits depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub fee_bps: u16,
    pub min_withdrawal_shares: u64,
    pub hourly_cap: u64,
    pub daily_cap: u64,
}

impl Config {
    pub fn current(vault: &Vault) -> Config {
        Config {
            fee_bps: vault.fee_bps,
            min_withdrawal_shares: vault.min_withdrawal_shares,
            hourly_cap: vault.hourly_cap,
            daily_cap: vault.daily_cap,
        }
    }

    pub fn pending(vault: &Vault) -> Config {
        Config {
            fee_bps: vault.pending_fee_bps,
            min_withdrawal_shares: vault.pending_min_withdrawal_shares,
            hourly_cap: vault.pending_hourly_cap,
            daily_cap: vault.pending_daily_cap,
        }
    }

    pub fn store_current(&self, vault: &mut Vault) {
        vault.fee_bps = self.fee_bps;
        vault.min_withdrawal_shares = self.min_withdrawal_shares;
        vault.hourly_cap = self.hourly_cap;
        vault.daily_cap = self.daily_cap;
    }

    pub fn store_pending(&self, vault: &mut Vault, effective_at: i64) {
        vault.pending_fee_bps = self.fee_bps;
        vault.pending_min_withdrawal_shares = self.min_withdrawal_shares;
        vault.pending_hourly_cap = self.hourly_cap;
        vault.pending_daily_cap = self.daily_cap;
        vault.pending_effective_at = effective_at;
    }

    /// Splits a move from `self` to `target` into what applies at once (every easing field, the others
    /// kept) and whether any field hurts holders (then `target` as a whole is what gets scheduled).
    pub fn split(&self, target: &Config) -> (Config, bool) {
        let fee_eases = target.fee_bps <= self.fee_bps;
        let min_eases = target.min_withdrawal_shares <= self.min_withdrawal_shares;
        let hourly_eases = cap_eases(self.hourly_cap, target.hourly_cap);
        let daily_eases = cap_eases(self.daily_cap, target.daily_cap);
        let at_once = Config {
            fee_bps: if fee_eases { target.fee_bps } else { self.fee_bps },
            min_withdrawal_shares: if min_eases { target.min_withdrawal_shares } else { self.min_withdrawal_shares },
            hourly_cap: if hourly_eases { target.hourly_cap } else { self.hourly_cap },
            daily_cap: if daily_eases { target.daily_cap } else { self.daily_cap },
        };
        (at_once, !(fee_eases && min_eases && hourly_eases && daily_eases))
    }
}

/// A cap applies at once only when it is kept. Every other value waits the notice: a lower cap, one set
/// where there was none and one removed (0) slow exits, and a raised one (up to u64::MAX, which is no
/// cap at all) lets a stolen manager key's own exit drain the reserve ahead of everyone else's in the
/// same block.
pub fn cap_eases(current: u64, new: u64) -> bool {
    new == current
}

/// Applies the scheduled config once its time has come; true when it did (the caller emits ConfigUpdated).
#[inline(always)]
pub fn apply_due(vault: &mut Vault, now: i64) -> bool {
    let effective_at = vault.pending_effective_at;
    if effective_at == 0 || now < effective_at {
        return false;
    }
    Config::pending(vault).store_current(vault);
    vault.pending_effective_at = 0;
    true
}

pub fn notice_seconds(vault: &Vault) -> u32 {
    match vault.config_notice_seconds {
        0 => DEFAULT_CONFIG_NOTICE_SECONDS,
        seconds => seconds,
    }
}

fn silence_seconds(vault: &Vault) -> i64 {
    (match vault.silence_seconds {
        0 => DEFAULT_SILENCE_SECONDS,
        seconds => seconds,
    }) as i64
}

/// No NAV strike for the silence period: claims no longer wait for a strike after their request (they
/// are paid at the last struck NAV) and a pause no longer refuses requests.
#[inline(always)]
pub fn nav_silent(vault: &Vault, now: i64) -> bool {
    now >= vault.nav_updated_at.saturating_add(silence_seconds(vault))
}

fn max_pause_seconds(vault: &Vault) -> i64 {
    (match vault.max_pause_seconds {
        0 => DEFAULT_MAX_PAUSE_SECONDS,
        seconds => seconds,
    }) as i64
}

/// Whether a pause is in force: set, and not yet past its end.
#[inline(always)]
pub fn paused(vault: &Vault, now: i64) -> bool {
    vault.paused != 0 && now < vault.pause_until
}

/// Whether the pause in force is the protocol admin's (set_admin_pause).
#[inline(always)]
pub fn admin_paused(vault: &Vault, now: i64) -> bool {
    vault.admin_paused != 0 && paused(vault, now)
}

/// The manager's pause flag: a pause lasts at most max_pause_seconds from now, and may start only
/// max_pause_seconds after the last one ended, the admin's included (PauseCooldown); a pause already
/// in force is not lengthened. Lifting it ends it now, which starts the cooldown; an admin's pause in
/// force is not the manager's to lift (Unauthorized).
pub fn set_manager_pause(vault: &mut Vault, pause: bool, now: i64) -> Result<()> {
    let in_force = paused(vault, now);
    if pause {
        if in_force {
            return Ok(());
        }
        if vault.pause_until != 0 && now < vault.pause_until.saturating_add(max_pause_seconds(vault)) {
            return Err(VaultError::PauseCooldown.into());
        }
        vault.paused = 1;
        vault.pause_until = now.saturating_add(max_pause_seconds(vault));
    } else {
        if in_force {
            if vault.admin_paused != 0 {
                return Err(VaultError::Unauthorized.into());
            }
            vault.pause_until = now;
        }
        vault.paused = 0;
    }
    vault.admin_paused = 0;
    Ok(())
}

/// The protocol admin's pause: `until > now` holds deposits and new requests until `until` (at most
/// MAX_ADMIN_PAUSE_SECONDS ahead, else InvalidConfig), replacing whatever pause is in force, and the
/// manager cannot lift it; `until ≤ now` ends the pause in force at once, whoever set it (which starts
/// the manager's cooldown, as the manager's own lift does).
pub fn set_admin_pause(vault: &mut Vault, until: i64, now: i64) -> Result<()> {
    if until > now {
        if until - now > MAX_ADMIN_PAUSE_SECONDS {
            return Err(VaultError::InvalidConfig.into());
        }
        vault.paused = 1;
        vault.pause_until = until;
        vault.admin_paused = 1;
    } else {
        if paused(vault, now) {
            vault.pause_until = now;
        }
        vault.paused = 0;
        vault.admin_paused = 0;
    }
    Ok(())
}

/// No staging by the manager for the silence period (counted from the vault's creation before its
/// first): anyone may stage the queue from the reserve's idle assets.
pub fn staging_silent(vault: &Vault, now: i64) -> bool {
    let last = if vault.staged_at == 0 { vault.nav_updated_at } else { vault.staged_at };
    now >= last.saturating_add(silence_seconds(vault))
}

/// A request that has waited the silence period and is still not wholly funded: the head of the queue
/// has then waited at least as long (requests queue in the order they are made), so anyone may stage,
/// whatever the manager struck or staged meanwhile (a strike a day, or one raw share staged every six
/// days, would otherwise hold the hatch shut forever).
pub fn request_waited_silence(vault: &Vault, queue_end: u64, requested_at: i64, now: i64) -> bool {
    queue_end > vault.queue_funded && now >= requested_at.saturating_add(silence_seconds(vault))
}

/// Refuses a non-zero cap below its floor (see MIN_DAILY_CAP_BPS) at the vault's current NAV.
pub fn check_cap_floor(config: &Config, total_assets: u64, total_shares: u64) -> Result<()> {
    let minimum_value = assets_for_shares_floor(config.min_withdrawal_shares, total_assets, total_shares)?;
    let daily_share = bps_of(total_assets, MIN_DAILY_CAP_BPS)?;
    let daily_floor = if daily_share > minimum_value { daily_share } else { minimum_value };
    let hourly_share = daily_share / 24;
    let hourly_floor = if hourly_share > minimum_value { hourly_share } else { minimum_value };
    if (config.hourly_cap != 0 && config.hourly_cap < hourly_floor)
        || (config.daily_cap != 0 && config.daily_cap < daily_floor)
    {
        return Err(VaultError::CapBelowFloor.into());
    }
    Ok(())
}

/// A notice or silence period the admin sets: within the program's bounds, else InvalidConfig.
pub fn check_period(seconds: u32, min: u32, max: u32) -> Result<()> {
    if seconds < min || seconds > max {
        return Err(VaultError::InvalidConfig.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: Config = Config { fee_bps: 10, min_withdrawal_shares: 1_000, hourly_cap: 5_000, daily_cap: 20_000 };

    #[test]
    fn easing_applies_and_hurting_is_scheduled() {
        let lower_fee = Config { fee_bps: 5, ..C };
        assert_eq!(C.split(&lower_fee), (lower_fee, false));
        // Raising a cap waits too, up to u64::MAX (no cap in effect).
        let raise_caps = Config { hourly_cap: 6_000, daily_cap: 30_000, ..C };
        assert_eq!(C.split(&raise_caps), (C, true));
        assert_eq!(C.split(&Config { hourly_cap: u64::MAX, daily_cap: u64::MAX, ..C }), (C, true));
        let higher_fee = Config { fee_bps: 1_010, ..C };
        assert_eq!(C.split(&higher_fee), (C, true));
        // Mixed: the lower minimum applies now, the cut cap waits.
        let mixed = Config { min_withdrawal_shares: 10, hourly_cap: 1_000, ..C };
        assert_eq!(C.split(&mixed), (Config { min_withdrawal_shares: 10, ..C }, true));
        // Removing a cap, or setting one where there was none, waits.
        assert_eq!(C.split(&Config { daily_cap: 0, ..C }), (C, true));
        let uncapped = Config { hourly_cap: 0, ..C };
        assert_eq!(uncapped.split(&C), (uncapped, true));
        assert_eq!(C.split(&C), (C, false));
    }

    fn vault() -> Vault {
        // SAFETY: Vault is plain integers and byte arrays; all-zero is a valid value.
        unsafe { core::mem::zeroed() }
    }

    #[test]
    fn the_admin_holds_a_pause_the_manager_cannot_lift() {
        const D: i64 = DAY as i64;
        let week = DEFAULT_MAX_PAUSE_SECONDS as i64;
        let mut v = vault();
        set_manager_pause(&mut v, true, 1_000).unwrap();
        assert_eq!({ v.pause_until }, 1_000 + week);
        // The admin holds it to day 20 (at most 30 days ahead).
        assert_eq!(set_admin_pause(&mut v, 1_000 + 30 * D + 1, 1_000), Err(VaultError::InvalidConfig.into()));
        set_admin_pause(&mut v, 1_000 + 20 * D, 1_000 + D).unwrap();
        assert!(admin_paused(&v, 1_000 + 8 * D) && paused(&v, 1_000 + 20 * D - 1));
        assert_eq!(set_manager_pause(&mut v, false, 1_000 + 8 * D), Err(VaultError::Unauthorized.into()));
        // Pausing again changes nothing; the pause ends by itself on day 20.
        set_manager_pause(&mut v, true, 1_000 + 8 * D).unwrap();
        assert!(admin_paused(&v, 1_000 + 8 * D));
        assert!(!paused(&v, 1_000 + 20 * D));
        // The manager's cooldown counts from its end.
        assert_eq!(set_manager_pause(&mut v, true, 1_000 + 21 * D), Err(VaultError::PauseCooldown.into()));
        set_manager_pause(&mut v, true, 1_000 + 27 * D).unwrap();
        assert!(paused(&v, 1_000 + 27 * D) && !admin_paused(&v, 1_000 + 27 * D));
        // The admin lifts any pause at once.
        set_admin_pause(&mut v, 0, 1_000 + 28 * D).unwrap();
        assert!(!paused(&v, 1_000 + 28 * D));
        assert_eq!({ v.pause_until }, 1_000 + 28 * D);
    }

    #[test]
    fn cap_floor_is_the_minimum_value_and_a_share_of_nav() {
        // NAV 1,000,000 units, 1,000 shares per unit (the starting price).
        let (assets, shares) = (1_000_000u64, 1_000_000_000u64);
        // Daily floor: 1% of NAV = 10,000; hourly: 10,000 / 24 = 416.
        assert!(check_cap_floor(&Config { hourly_cap: 416, daily_cap: 10_000, min_withdrawal_shares: 0, ..C }, assets, shares).is_ok());
        assert_eq!(
            check_cap_floor(&Config { hourly_cap: 415, daily_cap: 10_000, min_withdrawal_shares: 0, ..C }, assets, shares),
            Err(VaultError::CapBelowFloor.into())
        );
        assert_eq!(
            check_cap_floor(&Config { hourly_cap: 0, daily_cap: 9_999, min_withdrawal_shares: 0, ..C }, assets, shares),
            Err(VaultError::CapBelowFloor.into())
        );
        // A minimum worth 20,000 units lifts both floors to 20,000.
        let min = 20_000_000u64;
        assert_eq!(
            check_cap_floor(&Config { hourly_cap: 19_999, daily_cap: 0, min_withdrawal_shares: min, ..C }, assets, shares),
            Err(VaultError::CapBelowFloor.into())
        );
        assert_eq!(assets_for_shares_floor(min, assets, shares), Ok(20_000));
        assert_eq!(check_cap_floor(&Config { hourly_cap: 20_000, daily_cap: 20_000, min_withdrawal_shares: min, ..C }, assets, shares), Ok(()));
        // No caps: nothing to floor.
        assert!(check_cap_floor(&Config { hourly_cap: 0, daily_cap: 0, min_withdrawal_shares: min, ..C }, assets, shares).is_ok());
    }
}
