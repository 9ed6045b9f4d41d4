//! update_config(update) (manager): the fee, minimum withdrawal and caps the update carries move toward
//! it — at once for a lower fee or minimum, after the vault's notice period for a higher fee or minimum
//! and for any change of a cap, raised (to u64::MAX included), lowered, set or removed (the whole target
//! is then scheduled as the pending config). An update carrying any of those four replaces whatever was
//! pending. The name applies at once; so does a pause, which ends by itself after the vault's
//! max_pause_seconds and may not start again for as long after it ends (PauseCooldown); lifting a pause the
//! protocol admin set (set_admin_pause) is refused while it is in force (Unauthorized). A due pending config
//! is applied first.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::config::{self, Config};
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{max_min_withdrawal_shares, MAX_FEE_BPS};
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [manager, vault_account] = input.take::<2>()?;
    let fee_bps = args.option(|r| r.u16())?;
    let min_withdrawal_shares = args.option(|r| r.u64())?;
    let hourly_cap = args.option(|r| r.u64())?;
    let daily_cap = args.option(|r| r.u64())?;
    let paused = args.option(|r| r.bool())?;
    let name = args.option(|r| r.string())?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    checks::manager(&manager, vault)?;
    if let Some(fee) = fee_bps {
        if fee > MAX_FEE_BPS {
            return Err(VaultError::InvalidConfig.into());
        }
    }
    if let Some(min) = min_withdrawal_shares {
        if min > max_min_withdrawal_shares(vault.share_decimals) {
            return Err(VaultError::InvalidConfig.into());
        }
    }
    let name = match name {
        Some(bytes) => Some(super::vault_name(bytes)?),
        None => None,
    };

    let now = runtime::unix_timestamp()?;
    config::apply_due(vault, now);
    let current = Config::current(vault);
    let target = Config {
        fee_bps: fee_bps.unwrap_or(current.fee_bps),
        min_withdrawal_shares: min_withdrawal_shares.unwrap_or(current.min_withdrawal_shares),
        hourly_cap: hourly_cap.unwrap_or(current.hourly_cap),
        daily_cap: daily_cap.unwrap_or(current.daily_cap),
    };
    if min_withdrawal_shares.is_some() || hourly_cap.is_some() || daily_cap.is_some() {
        config::check_cap_floor(&target, vault.total_assets, vault.total_shares)?;
    }
    let touches_exits =
        fee_bps.is_some() || min_withdrawal_shares.is_some() || hourly_cap.is_some() || daily_cap.is_some();
    let was_pending = vault.pending_effective_at != 0;
    let mut scheduled = false;
    if touches_exits {
        let (at_once, hurts) = current.split(&target);
        at_once.store_current(vault);
        if hurts {
            let effective_at = now.saturating_add(config::notice_seconds(vault) as i64);
            target.store_pending(vault, effective_at);
            scheduled = true;
        } else {
            vault.pending_effective_at = 0;
        }
    }
    if let Some(paused) = paused {
        config::set_manager_pause(vault, paused, now)?;
    }
    if let Some(name) = name {
        vault.name = name;
    }

    events::config_updated(vault_account.key(), vault, now);
    if scheduled || (touches_exits && was_pending) {
        events::config_scheduled(vault_account.key(), vault, now);
    }
    Ok(())
}
