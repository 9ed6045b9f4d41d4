//! propose_manager(new_manager) (the vault's manager or its protocol's admin): names the vault's next
//! manager; nothing changes until that key accepts. The default (all-zero) key withdraws a proposal.

use crate::account::{copy_key, keys_equal, Input};
use crate::borsh::Reader;
use crate::checks;
use crate::error::{Result, VaultError};
use crate::events;
use crate::runtime;

pub fn process(input: &Input, mut args: Reader) -> Result<()> {
    let [proposer, vault_account, protocol_account] = input.take::<3>()?;
    let new_manager = args.pubkey()?;
    args.finish()?;

    let (vault, protocol) = checks::vault_and_protocol(&vault_account, &protocol_account, input.program_id)?;
    checks::signer(&proposer)?;
    if !keys_equal(proposer.key(), &vault.manager) && !keys_equal(proposer.key(), &protocol.admin) {
        return Err(VaultError::Unauthorized.into());
    }

    copy_key(&mut vault.pending_manager, new_manager);

    let now = runtime::unix_timestamp()?;
    events::manager_proposed(vault_account.key(), proposer.key(), vault, now);
    Ok(())
}
