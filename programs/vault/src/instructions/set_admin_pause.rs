//! set_admin_pause(until) (the vault's protocol admin): `until > now` pauses deposits and new requests
//! until then, at most 30 days ahead (InvalidConfig otherwise), as the admin's pause, which the manager
//! cannot lift and which may hold the vault longer than a pause by the manager alone; `until ≤ now`
//! (0, say) ends the pause in force at once. Claims of funded requests and the silence hatch are
//! untouched, as under the manager's pause.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::config;
use crate::error::Result;
use crate::events;
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [admin, protocol_account, vault_account] = input.take::<3>()?;
    let until = args.i64()?;
    args.finish()?;

    let vault = checks::vault_by_admin(&admin, &protocol_account, &vault_account, input.program_id)?;

    let now = runtime::unix_timestamp()?;
    config::set_admin_pause(vault, until, now)?;

    events::config_updated(vault_account.key(), vault, now);
    Ok(())
}
