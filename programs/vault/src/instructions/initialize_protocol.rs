//! initialize_protocol(max_gain_bps, max_loss_bps, min_nav_interval_seconds): creates the protocol at
//! PDA ["protocol", creator]; the creator signs, pays and becomes the admin. Partner fees start at
//! most DEFAULT_MAX_PARTNER_FEE_BPS.

use crate::account::{copy_key, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::Result;
use crate::events;
use crate::math::DEFAULT_MAX_PARTNER_FEE_BPS;
use crate::runtime::{self, find_program_address, Seeds, SYSTEM_PROGRAM_ID};
use crate::state::{self, Protocol, PROTOCOL_DISCRIMINATOR, PROTOCOL_SIZE};

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [creator, protocol_account, system_program] = input.take::<3>()?;
    let bounds = super::NavBounds::read(&mut args)?;
    args.finish()?;

    let program_id = input.program_id;
    checks::writable_signer(&creator)?;
    checks::writable(&protocol_account)?;
    checks::uninitialized(&protocol_account)?;
    checks::program(&system_program, &SYSTEM_PROGRAM_ID)?;
    let seeds = Seeds::new(&[b"protocol", creator.key()]);
    let (address, bump) = find_program_address(&seeds, program_id)?;
    checks::address(&protocol_account, &address)?;
    bounds.validate()?;

    let b = [bump];
    runtime::create_pda_account(&creator, &protocol_account, PROTOCOL_SIZE, program_id, &seeds.with_bump(&b))?;
    // SAFETY: the account was just created with PROTOCOL_SIZE zeroed bytes, and `take` refused
    // duplicates, so this is the only reference to its data.
    let protocol = unsafe { state::fresh::<Protocol>(&protocol_account) };
    protocol.discriminator = PROTOCOL_DISCRIMINATOR;
    copy_key(&mut protocol.creator, creator.key());
    copy_key(&mut protocol.admin, creator.key());
    bounds.store(protocol);
    protocol.max_partner_fee_bps = DEFAULT_MAX_PARTNER_FEE_BPS;
    protocol.bump = bump;

    let now = runtime::unix_timestamp()?;
    events::protocol_initialized(protocol_account.key(), protocol, now);
    Ok(())
}
