//! accept_manager (pending manager): the proposed key becomes the vault's manager.

use crate::account::{copy_key, keys_equal, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events;
use crate::runtime;

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [new_manager, vault_account] = input.take::<2>()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    checks::signer(&new_manager)?;
    if keys_equal(&vault.pending_manager, &[0; 32]) || !keys_equal(new_manager.key(), &vault.pending_manager) {
        return Err(VaultError::Unauthorized.into());
    }

    let mut previous_manager = [0u8; 32];
    copy_key(&mut previous_manager, &vault.manager);
    copy_key(&mut vault.manager, new_manager.key());
    vault.pending_manager = [0; 32];

    let now = runtime::unix_timestamp()?;
    events::manager_accepted(vault_account.key(), &previous_manager, vault, now);
    Ok(())
}
