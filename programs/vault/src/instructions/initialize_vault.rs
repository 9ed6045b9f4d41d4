//! initialize_vault(index, manager, name, fee_bps, min_withdrawal_shares, hourly_cap, daily_cap)
//! (protocol admin): registers the vault under the protocol at ["vault", protocol, index] with
//! index = protocol.vault_count, and creates its share mint (asset decimals + 3), reserve and escrow;
//! the payer pays every account's rent. A non-zero cap below the minimum withdrawal's value is refused
//! (CapBelowFloor), as update_config refuses it.

use crate::config::{self, Config, DEFAULT_CONFIG_NOTICE_SECONDS, DEFAULT_MAX_PAUSE_SECONDS, DEFAULT_SILENCE_SECONDS};
use crate::account::{copy_key, Account, Input, Pubkey};
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::{checked_add, max_min_withdrawal_shares, window_start, DAY, DECIMALS_OFFSET, HOUR, MAX_FEE_BPS};
use crate::runtime::{self, find_program_address, Seeds, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID};
use crate::state::{self, mint, token_account, Vault, VAULT_DISCRIMINATOR, VAULT_SIZE};

/// Derives the PDA for `seeds` and checks the account is at it; returns the bump.
fn derived(account: &Account, seeds: &Seeds, program_id: &Pubkey) -> Result<u8> {
    let (address, bump) = find_program_address(seeds, program_id)?;
    checks::address(account, &address)?;
    Ok(bump)
}

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [payer, admin, protocol_account, vault_account, authority, share_mint, reserve, escrow, asset_mint, token_program, system_program] =
        input.take_with_alias::<11>(1, 0)?;
    let index = args.u64()?;
    let manager = args.pubkey()?;
    let name = args.string()?;
    let fee_bps = args.u16()?;
    let min_withdrawal_shares = args.u64()?;
    let hourly_cap = args.u64()?;
    let daily_cap = args.u64()?;
    args.finish()?;

    let program_id = input.program_id;
    checks::writable_signer(&payer)?;
    let protocol = checks::protocol(&protocol_account, program_id, true)?;
    checks::admin(&admin, protocol)?;
    for account in [&vault_account, &share_mint, &reserve, &escrow] {
        checks::writable(account)?;
        checks::uninitialized(account)?;
    }
    checks::program(&token_program, &TOKEN_PROGRAM_ID)?;
    checks::program(&system_program, &SYSTEM_PROGRAM_ID)?;
    let asset_decimals = checks::mint_decimals(&asset_mint)?;
    let share_decimals = match asset_decimals.checked_add(DECIMALS_OFFSET) {
        Some(decimals) => decimals,
        None => return Err(VaultError::InvalidMint.into()),
    };
    if index != protocol.vault_count {
        return Err(VaultError::VaultIndexMismatch.into());
    }
    let vault_count = checked_add(protocol.vault_count, 1)?;
    let name = super::vault_name(name)?;
    if fee_bps > MAX_FEE_BPS || min_withdrawal_shares > max_min_withdrawal_shares(share_decimals) {
        return Err(VaultError::InvalidConfig.into());
    }
    // The caps' floor holds from the start, as update_config holds it: at an empty NAV it is the
    // minimum withdrawal's value, so the smallest request the minimum allows fits an empty window.
    let initial = Config { fee_bps, min_withdrawal_shares, hourly_cap, daily_cap };
    config::check_cap_floor(&initial, 0, 0)?;

    let index_bytes = index.to_le_bytes();
    let vault_key = vault_account.key();
    let bump = derived(&vault_account, &Seeds::new(&[b"vault", protocol_account.key(), &index_bytes]), program_id)?;
    let authority_bump = derived(&authority, &Seeds::new(&[b"authority", vault_key]), program_id)?;
    let share_mint_bump = derived(&share_mint, &Seeds::new(&[b"shares", vault_key]), program_id)?;
    let reserve_bump = derived(&reserve, &Seeds::new(&[b"reserve", vault_key]), program_id)?;
    let escrow_bump = derived(&escrow, &Seeds::new(&[b"escrow", vault_key]), program_id)?;

    let b = [share_mint_bump];
    let seeds = Seeds::new(&[b"shares", vault_key]).with_bump(&b);
    runtime::create_pda_account(&payer, &share_mint, mint::LEN, &TOKEN_PROGRAM_ID, &seeds)?;
    runtime::token_initialize_mint(&share_mint, share_decimals, authority.key())?;

    let b = [reserve_bump];
    let seeds = Seeds::new(&[b"reserve", vault_key]).with_bump(&b);
    runtime::create_pda_account(&payer, &reserve, token_account::LEN, &TOKEN_PROGRAM_ID, &seeds)?;
    runtime::token_initialize_account(&reserve, &asset_mint, authority.key())?;

    let b = [escrow_bump];
    let seeds = Seeds::new(&[b"escrow", vault_key]).with_bump(&b);
    runtime::create_pda_account(&payer, &escrow, token_account::LEN, &TOKEN_PROGRAM_ID, &seeds)?;
    runtime::token_initialize_account(&escrow, &share_mint, authority.key())?;

    let b = [bump];
    let seeds = Seeds::new(&[b"vault", protocol_account.key(), &index_bytes]).with_bump(&b);
    runtime::create_pda_account(&payer, &vault_account, VAULT_SIZE, program_id, &seeds)?;

    let now = runtime::unix_timestamp()?;
    protocol.vault_count = vault_count;
    // SAFETY: the account was just created with VAULT_SIZE zeroed bytes (so every field not set here
    // is zero), and `take` refused duplicates, so this is the only reference to its data.
    let vault = unsafe { state::fresh::<Vault>(&vault_account) };
    vault.discriminator = VAULT_DISCRIMINATOR;
    copy_key(&mut vault.protocol, protocol_account.key());
    copy_key(&mut vault.manager, manager);
    copy_key(&mut vault.asset_mint, asset_mint.key());
    copy_key(&mut vault.share_mint, share_mint.key());
    copy_key(&mut vault.reserve, reserve.key());
    copy_key(&mut vault.escrow, escrow.key());
    copy_key(&mut vault.authority, authority.key());
    vault.index = index;
    vault.bump = bump;
    vault.authority_bump = authority_bump;
    vault.share_mint_bump = share_mint_bump;
    vault.reserve_bump = reserve_bump;
    vault.escrow_bump = escrow_bump;
    vault.asset_decimals = asset_decimals;
    vault.share_decimals = share_decimals;
    vault.name = name;
    vault.nav_updated_at = now;
    vault.fee_bps = fee_bps;
    vault.min_withdrawal_shares = min_withdrawal_shares;
    vault.hourly_cap = hourly_cap;
    vault.daily_cap = daily_cap;
    vault.hourly_window_start = window_start(now, HOUR);
    vault.daily_window_start = window_start(now, DAY);
    vault.config_notice_seconds = DEFAULT_CONFIG_NOTICE_SECONDS;
    vault.silence_seconds = DEFAULT_SILENCE_SECONDS;
    vault.max_pause_seconds = DEFAULT_MAX_PAUSE_SECONDS;

    events::vault_initialized(vault_key, vault, now);
    Ok(())
}
