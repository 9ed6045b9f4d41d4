//! accept_manager (pending manager): the proposed key becomes the vault's manager.

use crate::account::{hand_over, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::Result;
use crate::events;
use crate::runtime;

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [new_manager, vault_account] = input.take::<2>()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    checks::proposed(&new_manager, &vault.pending_manager)?;

    let previous_manager = hand_over(&mut vault.manager, &mut vault.pending_manager);

    let now = runtime::unix_timestamp()?;
    events::manager_accepted(vault_account.key(), &previous_manager, vault, now);
    Ok(())
}
