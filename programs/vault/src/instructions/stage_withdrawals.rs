//! stage_withdrawals(max_shares) (manager, or anyone after its silence): funds the withdrawal queue in
//! FIFO order with the reserve's idle assets — what is left after the already funded, unclaimed shares
//! at the current NAV.
//! Once the manager has not staged for the vault's silence period, anyone may send it (at the last
//! struck NAV, as the manager would), so an absent manager cannot hold the queue.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::config;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{assets_for_shares_ceil, checked_add, checked_sub, shares_affordable};
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [manager, vault_account, reserve] = input.take::<3>()?;
    let max_shares = args.u64()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    let now = runtime::unix_timestamp()?;
    let by_manager = checks::manager(&manager, vault).is_ok();
    if !by_manager {
        // Anyone may stage once the manager has not staged for the silence period.
        checks::signer(&manager)?;
        if !config::staging_silent(vault, now) {
            return Err(VaultError::Unauthorized.into());
        }
    }
    checks::address(&reserve, &vault.reserve)?;
    let reserve_balance = checks::token_account(&reserve, &vault.asset_mint, &vault.authority)?;

    if max_shares == 0 {
        return Err(VaultError::InvalidAmount.into());
    }
    let outstanding = checked_sub(vault.queue_tail, vault.queue_funded)?;
    if outstanding == 0 {
        return Ok(());
    }
    let funded_unclaimed = checked_sub(vault.queue_funded, vault.queue_claimed)?;
    let liabilities = assets_for_shares_ceil(funded_unclaimed, vault.total_assets, vault.total_shares)?;
    let idle = reserve_balance.saturating_sub(liabilities);
    let affordable = shares_affordable(idle, vault.total_assets, vault.total_shares)?;
    let staged = max_shares.min(outstanding).min(affordable);
    if staged == 0 {
        return Err(VaultError::InsufficientLiquidity.into());
    }
    vault.queue_funded = checked_add(vault.queue_funded, staged)?;
    // Only the manager's staging ends its silence; a holder's does not.
    if by_manager {
        vault.staged_at = now;
    }

    events::withdrawals_staged(vault_account.key(), staged, vault, now);
    Ok(())
}
