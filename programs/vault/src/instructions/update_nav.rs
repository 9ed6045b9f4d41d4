//! update_nav(gain, loss) (manager): strikes a NAV. Total assets move by the result reported since
//! the last strike, so deposits and claims landing in between are kept; the NAV sequence advances,
//! which makes receipts requested before it claimable (their NAV ordering floor is passed).

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::error::Result;
use crate::events;
use crate::math::{checked_add, checked_sub};
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [manager, vault_account] = input.take::<2>()?;
    let gain = args.u64()?;
    let loss = args.u64()?;
    args.finish()?;

    let vault = checks::vault(&vault_account, input.program_id, true)?;
    checks::manager(&manager, vault)?;

    let previous_total_assets = vault.total_assets;
    let total_assets = checked_sub(checked_add(previous_total_assets, gain)?, loss)?;
    let nav_sequence = checked_add(vault.nav_sequence, 1)?;
    let now = runtime::unix_timestamp()?;

    vault.total_assets = total_assets;
    vault.nav_sequence = nav_sequence;
    vault.nav_updated_at = now;

    events::nav_updated(vault_account.key(), gain, loss, previous_total_assets, vault);
    Ok(())
}
