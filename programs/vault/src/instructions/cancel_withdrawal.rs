//! cancel_withdrawal — the owner takes a pending request back until it is claimed, also while the
//! vault is paused (the escrowed shares are the holder's). A cancel costs what an honest exit of the same
//! shares costs: the fee the receipt recorded, taken in shares (rounded up) and burned, so its value
//! stays with the holders as an exit's fee does; holding the caps for an hour and cancelling is then
//! never free. The rest of the shares return from the escrow, the cap usage the request took in the
//! current hourly and daily windows is given back, the request leaves the queue (see queue.rs: settled
//! if funded, the tail shrinks if last, a hole otherwise) and the receipt closes, so the owner can
//! request again at once. A request below the vault's minimum (a holder's whole small balance) does not
//! become a hole: it leaves the queue once funded or last, so dust cannot fill the hole list. Only the
//! owner can cancel: it signs, and the receipt names it.

use crate::account::{Account, Input, Pubkey};
use crate::borsh::Reader;
use crate::checks::{self, HoleList};
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{checked_add, checked_sub, window_start, withdrawal_fee, Window, DAY, HOUR};
use crate::queue::{self, Exit, Queue};
use crate::runtime::{self, Seeds, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID};
use crate::state::{self, QueueHoles, QUEUE_HOLES_DISCRIMINATOR, QUEUE_HOLES_SIZE};

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [owner, vault_account, receipt_account, owner_shares, escrow, authority, share_mint, token_program, holes_account, system_program] =
        input.take::<10>()?;
    args.finish()?;

    let program_id = input.program_id;
    checks::writable_signer(&owner)?;
    let vault = checks::vault(&vault_account, program_id, true)?;
    let receipt = checks::pending_receipt(&receipt_account, vault_account.key(), owner.key(), program_id)?;
    checks::writable(&owner_shares)?;
    checks::token_account(&owner_shares, &vault.share_mint, owner.key())?;
    checks::writable_address(&escrow, &vault.escrow)?;
    checks::address(&authority, &vault.authority)?;
    checks::writable_address(&share_mint, &vault.share_mint)?;
    checks::program(&token_program, &TOKEN_PROGRAM_ID)?;
    let holes = checks::queue_holes(&holes_account, vault_account.key(), program_id, vault.queue_holes_bump)?;
    checks::program(&system_program, &SYSTEM_PROGRAM_ID)?;

    let shares = receipt.shares;
    let request_id = receipt.request_id;
    let (start, end) = (receipt.queue_start, receipt.queue_end);
    let mut counters = Queue { tail: vault.queue_tail, funded: vault.queue_funded, claimed: vault.queue_claimed };
    let exit = queue::exit_of(&counters, start, end);
    if exit == Exit::Hole && shares < vault.min_withdrawal_shares {
        return Err(VaultError::SmallRequestCannotLeaveQueue.into());
    }
    let holes = match holes {
        HoleList::Stored(holes) => Some(holes),
        HoleList::Missing(bump) => {
            // Kept, so a later look at a missing list derives its address once instead of searching.
            vault.queue_holes_bump = bump;
            if exit == Exit::Hole {
                Some(create_hole_list(&owner, &holes_account, vault_account.key(), program_id, bump)?)
            } else {
                None
            }
        }
    };
    queue::cancel(&mut counters, holes, start, end)?;

    // The request's charge comes back only to the windows it was charged in.
    let now = runtime::unix_timestamp()?;
    let assets = receipt.assets_at_request;
    let mut hourly = Window { start: vault.hourly_window_start, used: vault.hourly_used }.rolled(now, HOUR);
    if window_start(receipt.requested_at, HOUR) == hourly.start {
        hourly = hourly.credited(assets);
    }
    let mut daily = Window { start: vault.daily_window_start, used: vault.daily_used }.rolled(now, DAY);
    if window_start(receipt.requested_at, DAY) == daily.start {
        daily = daily.credited(assets);
    }

    // The exit fee in shares, burned: NAV keeps their value, so it stays with the holders. Should they
    // be the vault's last shares, what NAV still counts leaves it, as at the last claim.
    let fee_shares = withdrawal_fee(shares, receipt.fee_bps)?;
    let returned = shares - fee_shares;
    let total_shares = checked_sub(vault.total_shares, fee_shares)?;
    let mut retained = 0;
    if total_shares == 0 {
        retained = vault.total_assets;
        vault.surplus_assets = checked_add(vault.surplus_assets, retained)?;
        vault.total_assets = 0;
    }
    vault.total_shares = total_shares;
    vault.queue_tail = counters.tail;
    vault.queue_funded = counters.funded;
    vault.queue_claimed = counters.claimed;
    vault.pending_requests = checked_sub(vault.pending_requests, 1)?;
    vault.hourly_window_start = hourly.start;
    vault.hourly_used = hourly.used;
    vault.daily_window_start = daily.start;
    vault.daily_used = daily.used;

    let authority_bump = [vault.authority_bump];
    let signer = Seeds::new(&[b"authority", vault_account.key()]).with_bump(&authority_bump);
    if fee_shares > 0 {
        runtime::token_burn(&escrow, &share_mint, &authority, fee_shares, &signer)?;
    }
    if returned > 0 {
        runtime::token_transfer(&escrow, &owner_shares, &authority, returned, Some(&signer))?;
    }

    // Close the receipt: its rent to the wallet (read after any CPI that charged the wallet), no data,
    // back to the system program.
    owner.set_lamports(checked_add(owner.lamports(), receipt_account.lamports())?);
    receipt_account.set_lamports(0);
    receipt_account.set_data_len(0);
    receipt_account.set_owner(&SYSTEM_PROGRAM_ID);

    events::withdrawal_cancelled(vault_account.key(), owner.key(), request_id, shares, fee_shares, now);
    if retained > 0 {
        events::surplus_retained(vault_account.key(), retained, vault, now);
    }
    Ok(())
}

/// Creates the vault's hole list (the owner whose cancel first needs it pays its rent, and is recorded
/// as the payer close_queue_holes returns it to). Inlined: with its
/// result pointer it has more arguments than the five a BPF call can carry.
#[inline(always)]
fn create_hole_list<'a>(
    payer: &Account,
    account: &'a Account,
    vault_key: &Pubkey,
    program_id: &Pubkey,
    bump: u8,
) -> Result<&'a mut QueueHoles> {
    let bump_seed = [bump];
    let seeds = Seeds::new(&[b"queue_holes", vault_key]).with_bump(&bump_seed);
    runtime::create_pda_account(payer, account, QUEUE_HOLES_SIZE, program_id, &seeds)?;
    // SAFETY: the account was just created with QUEUE_HOLES_SIZE zeroed bytes, and `take` refused
    // duplicates, so this is the only reference to its data.
    let holes = unsafe { state::fresh::<QueueHoles>(account) };
    holes.discriminator = QUEUE_HOLES_DISCRIMINATOR;
    crate::account::copy_key(&mut holes.vault, vault_key);
    holes.bump = bump;
    crate::account::copy_key(&mut holes.payer, payer.key());
    Ok(holes)
}
