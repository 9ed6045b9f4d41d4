//! set_nav_bounds(max_gain_bps, max_loss_bps, min_nav_interval_seconds) (protocol admin): the bounds
//! every NAV strike of the protocol's vaults must keep from now on.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::error::Result;
use crate::events;
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [admin, protocol_account] = input.take::<2>()?;
    let bounds = super::NavBounds::read(&mut args)?;
    args.finish()?;

    let protocol = checks::protocol_by_admin(&admin, &protocol_account, input.program_id)?;
    bounds.validate()?;

    bounds.store(protocol);

    let now = runtime::unix_timestamp()?;
    events::nav_bounds_updated(protocol_account.key(), protocol, now);
    Ok(())
}
