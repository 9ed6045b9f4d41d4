//! claim_withdrawal — the spec's claim: once a NAV has been struck after the request and the queue is
//! funded through it, burns the escrowed shares, pays their value less the fee the receipt recorded
//! from the reserve and closes the receipt (its rent goes back to the wallet). The claim that burns
//! the last shares moves what NAV still counts (fees, the virtual shares' part, rounding) out of NAV
//! into `surplus_assets`, so the next depositor into the empty vault is priced against nothing.
//! A pause does not stop it: a funded, claimable receipt is the holder's money, not the manager's.
//! Nor does the owner need to sign: anyone can deliver a claimable withdrawal to its owner.
//! Once the manager has struck no NAV for the vault's silence period, a funded receipt no longer waits
//! for a strike after its request: it is paid at the last struck NAV.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::config;
use crate::error::{Result, VaultError};
use crate::events::{self, Claim};
use crate::math::{assets_for_shares_floor, checked_add, checked_sub, withdrawal_fee};
use crate::runtime::{self, Seeds, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID};

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [owner, vault_account, authority, receipt_account, share_mint, escrow, reserve, owner_asset, token_program] =
        input.take::<9>()?;
    args.finish()?;

    let program_id = input.program_id;
    // Anyone may send the claim (the keeper, a partner, the owner): it pays only the owner's asset
    // account (its associated one unless the owner signs) and returns the receipt's rent to the owner,
    // so no signature of the owner is needed.
    checks::writable(&owner)?;
    let vault = checks::vault(&vault_account, program_id, true)?;
    checks::address(&authority, &vault.authority)?;
    checks::writable_address(&share_mint, &vault.share_mint)?;
    checks::writable_address(&escrow, &vault.escrow)?;
    checks::writable_address(&reserve, &vault.reserve)?;
    let receipt = checks::pending_receipt(&receipt_account, vault_account.key(), owner.key(), program_id)?;
    checks::writable(&owner_asset)?;
    checks::token_account(&owner_asset, &vault.asset_mint, owner.key())?;
    // The owner may name any asset account of its own; anyone else delivers only into the owner's
    // associated token account, the one its wallet watches.
    if !owner.is_signer() {
        checks::associated_token_account(&owner_asset, owner.key(), &vault.asset_mint)
            .map_err(|_| VaultError::NotAssociatedTokenAccount)?;
    }
    let reserve_balance = checks::token_account(&reserve, &vault.asset_mint, &vault.authority)?;
    checks::program(&token_program, &TOKEN_PROGRAM_ID)?;

    let now = runtime::unix_timestamp()?;
    // After a long silence of the manager (no strike), the last struck NAV pays.
    if vault.nav_sequence <= receipt.nav_floor && !config::nav_silent(vault, now) {
        return Err(VaultError::NavFloorNotPassed.into());
    }
    if vault.queue_funded < receipt.queue_end {
        return Err(VaultError::QueueNotFunded.into());
    }
    let shares = receipt.shares;
    let gross = assets_for_shares_floor(shares, vault.total_assets, vault.total_shares)?;
    let fee = withdrawal_fee(gross, receipt.fee_bps)?;
    let net = gross - fee;
    if net > reserve_balance {
        return Err(VaultError::InsufficientLiquidity.into());
    }
    let claim = Claim { request_id: receipt.request_id, shares, gross, fee, net };
    let owner_lamports = checked_add(owner.lamports(), receipt_account.lamports())?;

    // The fee stays in the reserve and so with the remaining holders; with none left, out of NAV.
    // The last holders' exit has no remaining holders to leave it to: a deposit made while it was
    // queued would take it, so its fee leaves NAV too (at most what NAV still counts).
    let mut total_assets = checked_sub(vault.total_assets, net)?;
    let total_shares = checked_sub(vault.total_shares, shares)?;
    let mut retained = 0;
    if receipt.last_holder_exit != 0 {
        retained = if fee < total_assets { fee } else { total_assets };
        total_assets -= retained;
    }
    if total_shares == 0 {
        retained = checked_add(retained, total_assets)?;
        total_assets = 0;
    }
    if retained > 0 {
        vault.surplus_assets = checked_add(vault.surplus_assets, retained)?;
    }
    vault.total_assets = total_assets;
    vault.total_shares = total_shares;
    vault.queue_claimed = checked_add(vault.queue_claimed, shares)?;
    vault.pending_requests = checked_sub(vault.pending_requests, 1)?;

    let authority_bump = [vault.authority_bump];
    let signer = Seeds::new(&[b"authority", vault_account.key()]).with_bump(&authority_bump);
    runtime::token_burn(&escrow, &share_mint, &authority, shares, &signer)?;
    if net > 0 {
        runtime::token_transfer(&reserve, &owner_asset, &authority, net, Some(&signer))?;
    }

    // Close the receipt: its rent to the wallet, no data, back to the system program.
    owner.set_lamports(owner_lamports);
    receipt_account.set_lamports(0);
    receipt_account.set_data_len(0);
    receipt_account.set_owner(&SYSTEM_PROGRAM_ID);

    events::withdrawal_claimed(vault_account.key(), owner.key(), &claim, vault, now);
    if retained > 0 {
        events::surplus_retained(vault_account.key(), retained, vault, now);
    }
    Ok(())
}
