//! deposit(amount, min_shares_out): moves assets from the depositor into the reserve and mints shares
//! at the current NAV per share, rounded down; gives the amount back to the withdrawal windows.
//! `checked` and `deposit_checked` are the body deposit_with_partner_fee shares.

use crate::account::{Account, Input, Pubkey};
use crate::borsh::Reader;
use crate::checks;
use crate::config;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{checked_add, shares_for_deposit, Window, DAY, HOUR};
use crate::runtime::{self, Seeds, TOKEN_PROGRAM_ID};
use crate::state::Vault;

/// deposit's accounts, in the IDL's order (deposit_with_partner_fee's first eight).
pub(super) type DepositAccounts = [Account; 8];

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let accounts = input.take::<8>()?;
    let amount = args.u64()?;
    let min_shares_out = args.u64()?;
    args.finish()?;

    let (vault, now) = checked(&accounts, input.program_id)?;
    deposit_checked(&accounts, vault, amount, min_shares_out, now)
}

/// Checks deposit's accounts and refuses a paused vault; returns the vault and the time. Not inlined:
/// deposit and deposit_with_partner_fee run this one copy (deposit's CU moved by −11).
#[inline(never)]
pub(super) fn checked<'a>(accounts: &'a DepositAccounts, program_id: &Pubkey) -> Result<(&'a mut Vault, i64)> {
    let [depositor, vault_account, authority, share_mint, reserve, depositor_asset, depositor_shares, token_program] =
        accounts;
    checks::signer(depositor)?;
    let vault = checks::vault(vault_account, program_id, true)?;
    checks::address(authority, &vault.authority)?;
    checks::address(share_mint, &vault.share_mint)?;
    checks::writable(share_mint)?;
    checks::address(reserve, &vault.reserve)?;
    checks::writable(reserve)?;
    checks::writable(depositor_asset)?;
    checks::token_account(depositor_asset, &vault.asset_mint, depositor.key())?;
    checks::writable(depositor_shares)?;
    checks::token_account(depositor_shares, &vault.share_mint, depositor.key())?;
    checks::program(token_program, &TOKEN_PROGRAM_ID)?;

    let now = runtime::unix_timestamp()?;
    if config::paused(vault, now) {
        return Err(VaultError::VaultPaused.into());
    }
    Ok((vault, now))
}

/// Deposits `amount` into the checked vault: shares at NAV rounded down (at least one and at least
/// `min_shares_out`), the totals and the windows, the transfer into the reserve, the mint, Deposited.
#[inline(never)]
pub(super) fn deposit_checked(
    accounts: &DepositAccounts,
    vault: &mut Vault,
    amount: u64,
    min_shares_out: u64,
    now: i64,
) -> Result<()> {
    let [depositor, vault_account, authority, share_mint, reserve, depositor_asset, depositor_shares, _] = accounts;
    if amount == 0 {
        return Err(VaultError::InvalidAmount.into());
    }
    let shares = shares_for_deposit(amount, vault.total_assets, vault.total_shares)?;
    if shares == 0 {
        return Err(VaultError::InvalidAmount.into());
    }
    if shares < min_shares_out {
        return Err(VaultError::SlippageExceeded.into());
    }
    let total_assets = checked_add(vault.total_assets, amount)?;
    let total_shares = checked_add(vault.total_shares, shares)?;
    let hourly = Window { start: vault.hourly_window_start, used: vault.hourly_used }.rolled(now, HOUR).credited(amount);
    let daily = Window { start: vault.daily_window_start, used: vault.daily_used }.rolled(now, DAY).credited(amount);

    vault.total_assets = total_assets;
    vault.total_shares = total_shares;
    vault.hourly_window_start = hourly.start;
    vault.hourly_used = hourly.used;
    vault.daily_window_start = daily.start;
    vault.daily_used = daily.used;

    runtime::token_transfer(depositor_asset, reserve, depositor, amount, None)?;
    let bump = [vault.authority_bump];
    let signer = Seeds::new(&[b"authority", vault_account.key()]).with_bump(&bump);
    runtime::token_mint_to(share_mint, depositor_shares, authority, shares, &signer)?;

    events::deposited(vault_account.key(), depositor.key(), amount, shares, vault, now);
    Ok(())
}
