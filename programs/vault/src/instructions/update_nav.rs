//! update_nav(gain, loss) (manager): strikes a NAV within the protocol's bounds. Total assets move by
//! the result reported since the last strike, so deposits and claims landing in between are kept; the
//! NAV sequence advances, which makes receipts requested before it claimable (their NAV ordering floor
//! is passed). A gain or loss beyond `total_assets × bps / 10000` (rounded down) or a strike sooner
//! than the minimum interval after the previous one is refused: a rogue or compromised manager key
//! can move NAV only so far, so fast. Over time the protocol's rates bound the sum of the strikes: a
//! strike gains at most `total_assets × max_annual_gain_bps × elapsed / (10000 × 365 days)` and loses
//! at most `total_assets × max_daily_loss_bps × elapsed / (10000 × 1 day)`, elapsed being the time since
//! the previous strike (the stored reference: `nav_updated_at`, with the NAV it left), at most one day.
//! However often it strikes, a stolen key then moves NAV by no more than a day's rate plus the time.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{bps_of, checked_add, checked_sub, nav_elapsed, nav_time_bound, DAY, YEAR};
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [manager, vault_account, protocol_account] = input.take::<3>()?;
    let gain = args.u64()?;
    let loss = args.u64()?;
    args.finish()?;

    let program_id = input.program_id;
    let vault = checks::vault(&vault_account, program_id, true)?;
    checks::manager(&manager, vault)?;
    checks::vaults_protocol(&protocol_account, vault)?;
    let protocol = checks::protocol(&protocol_account, program_id, false)?;

    let previous_total_assets = vault.total_assets;
    // No gain can be reported on an empty NAV: the first strike after deposits is bounded by them.
    if gain > bps_of(previous_total_assets, protocol.max_gain_bps)? {
        return Err(VaultError::NavGainAboveBound.into());
    }
    if loss > bps_of(previous_total_assets, protocol.max_loss_bps)? {
        return Err(VaultError::NavLossAboveBound.into());
    }
    let now = runtime::unix_timestamp()?;
    // The first strike has no previous one to be spaced from (nav_updated_at is the creation time).
    if vault.nav_sequence > 0 && now < vault.nav_updated_at.saturating_add(protocol.min_nav_interval_seconds as i64) {
        return Err(VaultError::NavStrikeTooSoon.into());
    }
    // The bound over time, from the previous strike (or the vault's creation), at most a day back.
    let elapsed = nav_elapsed(now, vault.nav_updated_at);
    if gain > nav_time_bound(previous_total_assets, protocol.max_annual_gain_bps, elapsed, YEAR)? {
        return Err(VaultError::NavGainAboveRate.into());
    }
    if loss > nav_time_bound(previous_total_assets, protocol.max_daily_loss_bps, elapsed, DAY)? {
        return Err(VaultError::NavLossAboveRate.into());
    }
    let total_assets = checked_sub(checked_add(previous_total_assets, gain)?, loss)?;
    let nav_sequence = checked_add(vault.nav_sequence, 1)?;

    vault.total_assets = total_assets;
    vault.nav_sequence = nav_sequence;
    vault.nav_updated_at = now;

    events::nav_updated(vault_account.key(), gain, loss, previous_total_assets, vault);
    Ok(())
}
