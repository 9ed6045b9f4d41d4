//! propose_admin(new_admin) (protocol admin): names the next admin; nothing changes until that key
//! accepts. The default (all-zero) key withdraws a proposal.

use crate::account::{copy_key, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::Result;
use crate::events;
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [admin, protocol_account] = input.take::<2>()?;
    let new_admin = args.pubkey()?;
    args.finish()?;

    let protocol = checks::protocol_by_admin(&admin, &protocol_account, input.program_id)?;

    copy_key(&mut protocol.pending_admin, new_admin);

    let now = runtime::unix_timestamp()?;
    events::admin_proposed(protocol_account.key(), protocol, now);
    Ok(())
}
