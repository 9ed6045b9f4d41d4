//! accept_admin (pending admin): the proposed key becomes the admin; the previous admin keeps no power.

use crate::account::{hand_over, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::Result;
use crate::events;
use crate::runtime;

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [new_admin, protocol_account] = input.take::<2>()?;
    args.finish()?;

    let protocol = checks::protocol(&protocol_account, input.program_id, true)?;
    checks::proposed(&new_admin, &protocol.pending_admin)?;

    let previous_admin = hand_over(&mut protocol.admin, &mut protocol.pending_admin);

    let now = runtime::unix_timestamp()?;
    events::admin_accepted(protocol_account.key(), &previous_admin, protocol, now);
    Ok(())
}
