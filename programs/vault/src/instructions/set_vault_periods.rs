//! set_vault_periods(config_notice_seconds, silence_seconds) (the vault's protocol admin): the notice a
//! holder-hurting config change waits, and how long the manager may stay silent before holders can
//! leave without it, each within the program's bounds (InvalidConfig otherwise). A change already
//! scheduled keeps the time it was given.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::config::{self, MAX_CONFIG_NOTICE_SECONDS, MAX_SILENCE_SECONDS, MIN_CONFIG_NOTICE_SECONDS, MIN_SILENCE_SECONDS};
use crate::error::Result;
use crate::events;
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [admin, protocol_account, vault_account] = input.take::<3>()?;
    let config_notice_seconds = args.u32()?;
    let silence_seconds = args.u32()?;
    args.finish()?;

    let vault = checks::vault_by_admin(&admin, &protocol_account, &vault_account, input.program_id)?;
    config::check_period(config_notice_seconds, MIN_CONFIG_NOTICE_SECONDS, MAX_CONFIG_NOTICE_SECONDS)?;
    config::check_period(silence_seconds, MIN_SILENCE_SECONDS, MAX_SILENCE_SECONDS)?;

    vault.config_notice_seconds = config_notice_seconds;
    vault.silence_seconds = silence_seconds;

    let now = runtime::unix_timestamp()?;
    events::vault_periods_updated(vault_account.key(), vault, now);
    Ok(())
}
