//! stage_withdrawals(max_shares) (manager, or anyone after its silence): funds the withdrawal queue in
//! FIFO order with the reserve's idle assets — what is left after the already funded, unclaimed shares
//! at the current NAV — passing the holes cancelled requests left (queue_holes) at no asset cost.
//! Anyone may send it (at the last struck NAV, as the manager would) once the manager has not staged
//! for the vault's silence period, or once a request not wholly funded (`head_receipt`, usually the
//! head of the queue) has waited that long: a manager that strikes or stages dust cannot hold the queue.

use crate::account::{keys_equal, Account, Input, Pubkey};
use crate::borsh::Reader;
use crate::checks::{self, HoleList};
use crate::config;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{assets_for_shares_ceil, checked_sub, shares_affordable};
use crate::queue::{self, Queue};
use crate::runtime;
use crate::state::{Vault, WithdrawalReceipt};

/// Refuses (Unauthorized) unless the optional `head_receipt` (the program id when omitted) is a receipt
/// of this vault that has waited the silence period without being wholly funded. (Result<()>, not
/// Result<bool>: five arguments and a one-word result are all a BPF call carries.)
fn head_waited(account: &Account, vault_key: &Pubkey, vault: &Vault, now: i64, program_id: &Pubkey) -> Result<()> {
    if keys_equal(account.key(), program_id) {
        return Err(VaultError::Unauthorized.into());
    }
    let receipt = WithdrawalReceipt::load(account, program_id)?;
    checks::address_is(&receipt.vault, vault_key)?;
    if !config::request_waited_silence(vault, receipt.queue_end, receipt.requested_at, now) {
        return Err(VaultError::Unauthorized.into());
    }
    Ok(())
}

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [manager, vault_account, reserve, holes_account, head_receipt] = input.take::<5>()?;
    let max_shares = args.u64()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    let now = runtime::unix_timestamp()?;
    let by_manager = checks::manager(&manager, vault).is_ok();
    if !by_manager {
        // Anyone may stage once the manager has not staged for the silence period, or once a request
        // has waited that long unfunded.
        checks::signer(&manager)?;
        if !config::staging_silent(vault, now) {
            head_waited(&head_receipt, vault_account.key(), vault, now, input.program_id)?;
        }
    }
    checks::address(&reserve, &vault.reserve)?;
    let reserve_balance = checks::token_account(&reserve, &vault.asset_mint, &vault.authority)?;
    let (holes, missing_bump) =
        match checks::queue_holes(&holes_account, vault_account.key(), input.program_id, vault.queue_holes_bump)? {
            HoleList::Stored(holes) => (Some(holes), None),
            HoleList::Missing(bump) => (None, Some(bump)),
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
    // Kept, so a later look at the missing list derives its address once instead of searching.
    if let Some(bump) = missing_bump {
        vault.queue_holes_bump = bump;
    }
    // Only the manager's staging ends its silence; a holder's does not.
    if by_manager {
        vault.staged_at = now;
    }

    events::withdrawals_staged(vault_account.key(), staged, vault, now);
    Ok(())
}
