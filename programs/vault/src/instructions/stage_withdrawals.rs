//! stage_withdrawals(max_shares) (manager): funds the withdrawal queue in FIFO order with the
//! reserve's idle assets — what is left after the already funded, unclaimed shares at the current NAV —
//! passing the holes cancelled requests left (queue_holes) at no asset cost.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks::{self, HoleList};
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{assets_for_shares_ceil, checked_sub, shares_affordable};
use crate::queue::{self, Queue};
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [manager, vault_account, reserve, holes_account] = input.take::<4>()?;
    let max_shares = args.u64()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    checks::manager(&manager, vault)?;
    checks::address(&reserve, &vault.reserve)?;
    let reserve_balance = checks::token_account(&reserve, &vault.asset_mint, &vault.authority)?;
    let holes = match checks::queue_holes(&holes_account, vault_account.key(), input.program_id)? {
        HoleList::Stored(holes) => Some(holes),
        HoleList::Missing(_) => None,
    };

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
    let mut counters = Queue { tail: vault.queue_tail, funded: vault.queue_funded, claimed: vault.queue_claimed };
    let staged = queue::stage(&mut counters, holes, max_shares.min(affordable))?;
    if staged == 0 {
        return Err(VaultError::InsufficientLiquidity.into());
    }
    vault.queue_funded = counters.funded;
    vault.queue_claimed = counters.claimed;

    let now = runtime::unix_timestamp()?;
    events::withdrawals_staged(vault_account.key(), staged, vault, now);
    Ok(())
}
