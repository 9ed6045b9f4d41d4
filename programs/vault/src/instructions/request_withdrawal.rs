//! request_withdrawal(shares, max_fee_bps) — the spec's initiate: escrows the shares, opens the
//! wallet's receipt at the tail of the queue and charges their value to the hourly and daily
//! net-withdrawal caps. The holder names the highest fee it accepts (as a deposit names
//! `min_shares_out`): a fee raised above it before the request lands refuses the request. A config
//! change whose notice has run out applies first; one still in its notice does not touch the request.

use crate::account::{copy_key, keys_equal, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::config;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{assets_for_shares_floor, checked_add, checked_sub, Window, DAY, HOUR};
use crate::runtime::{self, find_program_address, Seeds, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID};
use crate::state::{self, WithdrawalReceipt, RECEIPT_DISCRIMINATOR, RECEIPT_SIZE};

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [owner, vault_account, receipt_account, owner_shares, escrow, token_program, system_program] =
        input.take::<7>()?;
    let shares = args.u64()?;
    let max_fee_bps = args.u16()?;
    args.finish()?;

    let program_id = input.program_id;
    checks::writable_signer(&owner)?;
    let vault = checks::vault(&vault_account, program_id, true)?;
    checks::writable(&receipt_account)?;
    let receipt_seeds = Seeds::new(&[b"receipt", vault_account.key(), owner.key()]);
    let (receipt_key, receipt_bump) = find_program_address(&receipt_seeds, program_id)?;
    checks::address(&receipt_account, &receipt_key)?;
    if keys_equal(receipt_account.owner(), program_id) {
        return Err(VaultError::WithdrawalAlreadyPending.into());
    }
    if !keys_equal(receipt_account.owner(), &SYSTEM_PROGRAM_ID) || receipt_account.data_len() != 0 {
        return Err(VaultError::InvalidAccountOwner.into());
    }
    checks::writable(&owner_shares)?;
    let held = checks::token_account(&owner_shares, &vault.share_mint, owner.key())?;
    checks::writable_address(&escrow, &vault.escrow)?;
    let escrowed = checks::token_account(&escrow, &vault.share_mint, &vault.authority)?;
    checks::program(&token_program, &TOKEN_PROGRAM_ID)?;
    checks::program(&system_program, &SYSTEM_PROGRAM_ID)?;

    let now = runtime::unix_timestamp()?;
    // A pause stops new requests, unless the manager has been silent so long that holders may leave
    // without it.
    if config::paused(vault, now) && !config::nav_silent(vault, now) {
        return Err(VaultError::VaultPaused.into());
    }
    // A config whose notice has run out applies before this request reads it.
    let config_applied = config::apply_due(vault, now);
    if shares == 0 {
        return Err(VaultError::InvalidAmount.into());
    }
    if vault.fee_bps > max_fee_bps {
        return Err(VaultError::FeeAboveMaximum.into());
    }
    // Whatever the minimum, a holder can always ask for every share it holds, read from its associated
    // token account: a second account holding a few raw shares does not make a dust request.
    if shares < vault.min_withdrawal_shares {
        if shares != held {
            return Err(VaultError::BelowMinimumWithdrawal.into());
        }
        checks::associated_token_account(&owner_shares, owner.key(), &vault.share_mint)
            .map_err(|_| VaultError::BelowMinimumWithdrawal)?;
    }
    let assets = assets_for_shares_floor(shares, vault.total_assets, vault.total_shares)?;
    let hourly = Window { start: vault.hourly_window_start, used: vault.hourly_used }
        .rolled(now, HOUR)
        .charged(assets, vault.hourly_cap)
        .ok_or(VaultError::HourlyWithdrawalCapExceeded)?;
    let daily = Window { start: vault.daily_window_start, used: vault.daily_used }
        .rolled(now, DAY)
        .charged(assets, vault.daily_cap)
        .ok_or(VaultError::DailyWithdrawalCapExceeded)?;
    // Shares no request holds yet: every share minted, less those in the escrow (read from it: a hole
    // of a cancelled request still counts in queue_tail − queue_claimed until staging passes it).
    let unqueued = checked_sub(vault.total_shares, escrowed)?;
    let queue_start = vault.queue_tail;
    let queue_end = checked_add(queue_start, shares)?;
    let request_id = vault.next_request_id;

    vault.hourly_window_start = hourly.start;
    vault.hourly_used = hourly.used;
    vault.daily_window_start = daily.start;
    vault.daily_used = daily.used;
    vault.queue_tail = queue_end;
    vault.next_request_id = checked_add(request_id, 1)?;
    vault.pending_requests = checked_add(vault.pending_requests, 1)?;

    let bump = [receipt_bump];
    let signer = receipt_seeds.with_bump(&bump);
    runtime::create_pda_account(&owner, &receipt_account, RECEIPT_SIZE, program_id, &signer)?;
    // SAFETY: the account was just created with RECEIPT_SIZE zeroed bytes, and `take` refused
    // duplicates, so this is the only reference to its data.
    let receipt = unsafe { state::fresh::<WithdrawalReceipt>(&receipt_account) };
    receipt.discriminator = RECEIPT_DISCRIMINATOR;
    copy_key(&mut receipt.vault, vault_account.key());
    copy_key(&mut receipt.owner, owner.key());
    receipt.shares = shares;
    receipt.assets_at_request = assets;
    receipt.nav_floor = vault.nav_sequence;
    receipt.request_id = request_id;
    receipt.requested_at = now;
    receipt.queue_start = queue_start;
    receipt.queue_end = queue_end;
    receipt.fee_bps = vault.fee_bps;
    receipt.bump = receipt_bump;
    receipt.last_holder_exit = (shares == unqueued) as u8;

    runtime::token_transfer(&owner_shares, &escrow, &owner, shares, None)?;

    if config_applied {
        events::config_updated(vault_account.key(), vault, now);
    }
    events::withdrawal_requested(receipt, vault);
    Ok(())
}
