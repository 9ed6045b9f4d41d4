//! deposit_with_partner_fee(amount, min_shares_out, partner_fee_bps, partner_asset_bump): a deposit
//! that pays its partner.
//! `floor(amount × partner_fee_bps / 10000)` goes from the depositor's asset account to the partner's
//! associated token account of the vault's asset, and `amount − fee` is deposited exactly as `deposit`
//! does (its checks, min_shares_out against the net shares, the Deposited event of the net amount).
//! The depositor signs the bps; the protocol's max_partner_fee_bps bounds it. partner_asset_bump is the
//! bump of the partner's associated token account, so the program re-derives it with one hash instead of
//! a bump search (~1,500 CU a try below 255). Emits PartnerFeePaid.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events::{self, PartnerFee};
use crate::math::partner_fee;
use crate::runtime;

use super::deposit::{checked, deposit_checked, DepositAccounts};

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [
        depositor,
        vault_account,
        authority,
        share_mint,
        reserve,
        depositor_asset,
        depositor_shares,
        token_program,
        protocol_account,
        partner,
        partner_asset,
    ] = input.take::<11>()?;
    let amount = args.u64()?;
    let min_shares_out = args.u64()?;
    let fee_bps = args.u16()?;
    let partner_asset_bump = args.u8()?;
    args.finish()?;

    let accounts: DepositAccounts =
        [depositor, vault_account, authority, share_mint, reserve, depositor_asset, depositor_shares, token_program];
    let (vault, now) = checked(&accounts, input.program_id)?;
    let protocol = checks::protocol_of(&protocol_account, vault, input.program_id)?;
    checks::writable(&partner_asset)?;
    // Only the partner's associated token account, the one its wallet watches: a fee paid anywhere
    // else (another account of the partner's, another wallet's, another mint's) is refused, as is a
    // bump that does not derive the account.
    checks::associated_token_account_at(&partner_asset, partner.key(), &vault.asset_mint, partner_asset_bump)
        .map_err(|_| VaultError::NotAssociatedTokenAccount)?;
    checks::token_account(&partner_asset, &vault.asset_mint, partner.key())?;

    // No fee is a plain deposit (`deposit`), which needs neither the partner nor its accounts.
    if fee_bps == 0 {
        return Err(VaultError::InvalidAmount.into());
    }
    if fee_bps > protocol.max_partner_fee_bps {
        return Err(VaultError::PartnerFeeAboveMaximum.into());
    }
    let fee = partner_fee(amount, fee_bps)?;

    if fee > 0 {
        runtime::token_transfer(&depositor_asset, &partner_asset, &depositor, fee, None)?;
    }
    deposit_checked(&accounts, vault, amount - fee, min_shares_out, now)?;

    let paid = PartnerFee {
        vault: vault_account.key(),
        owner: depositor.key(),
        partner: partner.key(),
        assets: amount,
        fee,
        fee_bps,
    };
    events::partner_fee_paid(&paid, now);
    Ok(())
}
