//! set_max_partner_fee(max_partner_fee_bps) (protocol admin): the highest partner fee a deposit of the
//! protocol's vaults may pay, at most MAX_PARTNER_FEE_BPS (6018 above it).

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events;
use crate::math::MAX_PARTNER_FEE_BPS;
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [admin, protocol_account] = input.take::<2>()?;
    let max_partner_fee_bps = args.u16()?;
    args.finish()?;

    let protocol = checks::protocol_by_admin(&admin, &protocol_account, input.program_id)?;
    if max_partner_fee_bps > MAX_PARTNER_FEE_BPS {
        return Err(VaultError::InvalidConfig.into());
    }

    protocol.max_partner_fee_bps = max_partner_fee_bps;

    let now = runtime::unix_timestamp()?;
    events::max_partner_fee_updated(protocol_account.key(), protocol, now);
    Ok(())
}
