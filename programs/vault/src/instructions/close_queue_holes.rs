//! close_queue_holes (anyone): once a vault's hole list holds no hole, closes it and returns every
//! lamport of its rent to the wallet that paid it (the owner of the cancel that created it, stored in the
//! list). An empty list and no list mean the same to cancel and stage_withdrawals (a cancel that needs a
//! hole creates the list again, its owner paying), so closing changes nothing about the queue; the rent
//! goes only to the stored payer, so sending it gains the sender nothing.

use crate::account::Input;
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::math::checked_add;
use crate::runtime::{self, Seeds, SYSTEM_PROGRAM_ID};
use crate::state::QueueHoles;

pub fn process(input: &Input, args: Reader) -> Result<()> {
    let [vault_account, holes_account, payer] = input.take::<3>()?;
    args.finish()?;

    let program_id = input.program_id;
    checks::vault(&vault_account, program_id, false)?;
    checks::writable(&holes_account)?;
    // A list never created, or already closed, is no account of this program: InvalidAccountOwner.
    let holes = QueueHoles::load(&holes_account, program_id)?;
    let bump = [holes.bump];
    let seeds = Seeds::new(&[b"queue_holes", vault_account.key()]).with_bump(&bump);
    runtime::verify_program_address(&seeds, program_id, holes_account.key())?;
    checks::writable_address(&payer, &holes.payer)?;
    if !holes.is_empty() {
        return Err(VaultError::QueueHolesNotEmpty.into());
    }

    // Close the list: its lamports to the payer, no data, back to the system program (so the address
    // can be created again).
    payer.set_lamports(checked_add(payer.lamports(), holes_account.lamports())?);
    holes_account.set_lamports(0);
    holes_account.set_data_len(0);
    holes_account.set_owner(&SYSTEM_PROGRAM_ID);
    Ok(())
}
