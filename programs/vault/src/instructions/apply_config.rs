//! apply_config (anyone): applies the vault's pending config once its notice has run out, so the
//! stored config and its ConfigUpdated event catch up even when no request comes to apply it.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::config;
use crate::error::{Result, VaultError};
use crate::events;
use crate::runtime;

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [vault_account] = input.take::<1>()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    let now = runtime::unix_timestamp()?;
    if !config::apply_due(vault, now) {
        return Err(VaultError::NoConfigDue.into());
    }
    events::config_updated(vault_account.key(), vault, now);
    Ok(())
}
