//! accept_admin (pending admin): the proposed key becomes the admin; the previous admin keeps no power.

use crate::account::{copy_key, keys_equal, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events;
use crate::runtime;

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [new_admin, protocol_account] = input.take::<2>()?;
    args.finish()?;

    let protocol = checks::protocol(&protocol_account, input.program_id, true)?;
    checks::signer(&new_admin)?;
    // The all-zero key means no proposal; nobody can sign for it, but say so rather than rely on it.
    if keys_equal(&protocol.pending_admin, &[0; 32]) || !keys_equal(new_admin.key(), &protocol.pending_admin) {
        return Err(VaultError::Unauthorized.into());
    }

    let mut previous_admin = [0u8; 32];
    copy_key(&mut previous_admin, &protocol.admin);
    copy_key(&mut protocol.admin, new_admin.key());
    protocol.pending_admin = [0; 32];

    let now = runtime::unix_timestamp()?;
    events::admin_accepted(protocol_account.key(), &previous_admin, protocol, now);
    Ok(())
}
