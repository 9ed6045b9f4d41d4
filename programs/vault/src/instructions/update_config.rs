//! update_config(update) (manager): replaces each field the update carries — fee, minimum
//! withdrawal, hourly and daily caps, pause flag, name — and leaves the others as they are.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
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

    if let Some(fee) = fee_bps {
        vault.fee_bps = fee;
    }
    if let Some(min) = min_withdrawal_shares {
        vault.min_withdrawal_shares = min;
    }
    if let Some(cap) = hourly_cap {
        vault.hourly_cap = cap;
    }
    if let Some(cap) = daily_cap {
        vault.daily_cap = cap;
    }
    if let Some(paused) = paused {
        vault.paused = paused as u8;
    }
    if let Some(name) = name {
        vault.name = name;
    }

    let now = runtime::unix_timestamp()?;
    events::config_updated(vault_account.key(), vault, now);
    Ok(())
}
