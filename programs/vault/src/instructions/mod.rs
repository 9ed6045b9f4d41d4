//! Dispatch on the 8-byte Anchor instruction discriminator, one module per instruction.

mod accept_admin;
mod accept_manager;
mod apply_config;
mod cancel_withdrawal;
mod claim_withdrawal;
mod deposit;
mod deposit_with_partner_fee;
mod initialize_protocol;
mod initialize_vault;
mod propose_admin;
mod propose_manager;
mod request_withdrawal;
mod set_admin_pause;
mod set_max_partner_fee;
mod set_nav_bounds;
mod set_vault_periods;
mod stage_withdrawals;
mod update_config;
mod update_nav;

use crate::account::Input;
use crate::borsh::Reader;
use crate::error::{Error, Result};

/// sha256("global:<name>")[..8] as a little-endian u64, for one compare per instruction.
const fn discriminator(bytes: [u8; 8]) -> u64 {
    u64::from_le_bytes(bytes)
}
const INITIALIZE_VAULT: u64 = discriminator([0x30, 0xbf, 0xa3, 0x2c, 0x47, 0x81, 0x3f, 0xa4]);
const DEPOSIT: u64 = discriminator([0xf2, 0x23, 0xc6, 0x89, 0x52, 0xe1, 0xf2, 0xb6]);
const REQUEST_WITHDRAWAL: u64 = discriminator([0xfb, 0x55, 0x79, 0xcd, 0x38, 0xc9, 0x0c, 0xb1]);
const CLAIM_WITHDRAWAL: u64 = discriminator([0x76, 0xce, 0xad, 0x26, 0xef, 0xa5, 0x41, 0x1e]);
const UPDATE_NAV: u64 = discriminator([0x38, 0x10, 0xea, 0x6d, 0x9b, 0xa5, 0x05, 0x00]);
const STAGE_WITHDRAWALS: u64 = discriminator([0xf0, 0xac, 0x81, 0x78, 0x7c, 0x4d, 0xd8, 0xe2]);
const UPDATE_CONFIG: u64 = discriminator([0x1d, 0x9e, 0xfc, 0xbf, 0x0a, 0x53, 0xdb, 0x63]);
const INITIALIZE_PROTOCOL: u64 = discriminator([0xbc, 0xe9, 0xfc, 0x6a, 0x86, 0x92, 0xca, 0x5b]);
const PROPOSE_ADMIN: u64 = discriminator([0x79, 0xd6, 0xc7, 0xd4, 0x57, 0x27, 0x75, 0xea]);
const ACCEPT_ADMIN: u64 = discriminator([0x70, 0x2a, 0x2d, 0x5a, 0x74, 0xb5, 0x0d, 0xaa]);
const SET_NAV_BOUNDS: u64 = discriminator([0xb7, 0x15, 0x42, 0x16, 0x00, 0x99, 0x9a, 0xb1]);
const PROPOSE_MANAGER: u64 = discriminator([0xb6, 0xb2, 0xde, 0xe2, 0x06, 0x7a, 0xfb, 0x74]);
const CANCEL_WITHDRAWAL: u64 = discriminator([0xb7, 0x68, 0xb5, 0xfa, 0x1c, 0x80, 0xd2, 0x46]);
const ACCEPT_MANAGER: u64 = discriminator([0xd4, 0x17, 0xfe, 0x3a, 0x33, 0xee, 0xe8, 0x43]);
const APPLY_CONFIG: u64 = discriminator([0x79, 0x2a, 0x35, 0x08, 0x33, 0x96, 0x69, 0xf9]);
const SET_VAULT_PERIODS: u64 = discriminator([0x90, 0x60, 0x31, 0x65, 0x67, 0xbb, 0x64, 0xc1]);
const SET_ADMIN_PAUSE: u64 = discriminator([0x8a, 0xa4, 0x9a, 0xf5, 0x70, 0xff, 0x76, 0xf4]);
const DEPOSIT_WITH_PARTNER_FEE: u64 = discriminator([0x60, 0xc2, 0x85, 0xfb, 0xde, 0xad, 0x5f, 0x1f]);
const SET_MAX_PARTNER_FEE: u64 = discriminator([0x0e, 0xdf, 0x71, 0x50, 0xf1, 0xe3, 0x33, 0x7b]);

pub fn process(input: &Input) -> Result<()> {
    let mut args = Reader::new(input.data);
    let tag = args.u64()?;
    match tag {
        DEPOSIT => deposit::process(input, args),
        REQUEST_WITHDRAWAL => request_withdrawal::process(input, args),
        CLAIM_WITHDRAWAL => claim_withdrawal::process(input, args),
        CANCEL_WITHDRAWAL => cancel_withdrawal::process(input, args),
        UPDATE_NAV => update_nav::process(input, args),
        STAGE_WITHDRAWALS => stage_withdrawals::process(input, args),
        UPDATE_CONFIG => update_config::process(input, args),
        INITIALIZE_VAULT => initialize_vault::process(input, args),
        INITIALIZE_PROTOCOL => initialize_protocol::process(input, args),
        PROPOSE_ADMIN => propose_admin::process(input, args),
        ACCEPT_ADMIN => accept_admin::process(input, args),
        SET_NAV_BOUNDS => set_nav_bounds::process(input, args),
        PROPOSE_MANAGER => propose_manager::process(input, args),
        ACCEPT_MANAGER => accept_manager::process(input, args),
        APPLY_CONFIG => apply_config::process(input, args),
        SET_VAULT_PERIODS => set_vault_periods::process(input, args),
        SET_ADMIN_PAUSE => set_admin_pause::process(input, args),
        DEPOSIT_WITH_PARTNER_FEE => deposit_with_partner_fee::process(input, args),
        SET_MAX_PARTNER_FEE => set_max_partner_fee::process(input, args),
        _ => Err(Error::INVALID_INSTRUCTION_DATA),
    }
}

/// The protocol's NAV strike bounds, as `initialize_protocol` and `set_nav_bounds` carry them: per
/// strike (gain, loss, interval) and over time (an annual gain rate, a daily loss rate).
pub(crate) struct NavBounds {
    max_gain_bps: u16,
    max_loss_bps: u16,
    min_nav_interval_seconds: u32,
    max_annual_gain_bps: u16,
    max_daily_loss_bps: u16,
}

impl NavBounds {
    fn read(args: &mut Reader) -> Result<NavBounds> {
        Ok(NavBounds {
            max_gain_bps: args.u16()?,
            max_loss_bps: args.u16()?,
            min_nav_interval_seconds: args.u32()?,
            max_annual_gain_bps: args.u16()?,
            max_daily_loss_bps: args.u16()?,
        })
    }

    /// Each per-strike bound is at most 100% (a loss beyond it is impossible, a gain beyond it no sanity
    /// limit); the rates over time are at most the program's ceilings, whoever the admin is.
    fn validate(&self) -> Result<()> {
        use crate::math::{BPS_DENOMINATOR, MAX_ANNUAL_GAIN_BPS, MAX_DAILY_LOSS_BPS};
        if self.max_gain_bps as u64 > BPS_DENOMINATOR
            || self.max_loss_bps as u64 > BPS_DENOMINATOR
            || self.max_annual_gain_bps > MAX_ANNUAL_GAIN_BPS
            || self.max_daily_loss_bps > MAX_DAILY_LOSS_BPS
        {
            return Err(crate::error::VaultError::InvalidConfig.into());
        }
        Ok(())
    }

    fn store(&self, protocol: &mut crate::state::Protocol) {
        protocol.max_gain_bps = self.max_gain_bps;
        protocol.max_loss_bps = self.max_loss_bps;
        protocol.min_nav_interval_seconds = self.min_nav_interval_seconds;
        protocol.max_annual_gain_bps = self.max_annual_gain_bps;
        protocol.max_daily_loss_bps = self.max_daily_loss_bps;
    }
}

/// A vault name: 1 to 32 bytes of UTF-8, stored zero-padded.
pub(crate) fn vault_name(bytes: &[u8]) -> Result<[u8; crate::state::NAME_LEN]> {
    if bytes.is_empty() || bytes.len() > crate::state::NAME_LEN || core::str::from_utf8(bytes).is_err() {
        return Err(crate::error::VaultError::InvalidConfig.into());
    }
    let mut name = [0u8; crate::state::NAME_LEN];
    // SAFETY: `bytes.len()` ≤ NAME_LEN (checked above), so the copy stays inside `name`; the two
    // buffers are distinct.
    unsafe { crate::syscalls::sol_memcpy_(name.as_mut_ptr(), bytes.as_ptr(), bytes.len() as u64) };
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::VaultError;

    #[test]
    fn names_are_short_utf8() {
        let name = vault_name("USDC Prime".as_bytes()).unwrap();
        assert_eq!(&name[..10], b"USDC Prime");
        assert!(name[10..].iter().all(|b| *b == 0));
        assert_eq!(vault_name(b""), Err(VaultError::InvalidConfig.into()));
        assert_eq!(vault_name(&[b'a'; 33]), Err(VaultError::InvalidConfig.into()));
        assert_eq!(vault_name(&[0xff, 0xfe]), Err(VaultError::InvalidConfig.into()));
        assert!(vault_name("é".repeat(16).as_bytes()).is_ok());
    }
}
