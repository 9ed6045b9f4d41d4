//! Account checks, each failing with the error that names what is wrong. Instructions call these for
//! every account before any effect.

use crate::account::{keys_equal, Account, Pubkey};
use crate::error::{Result, VaultError};
use crate::runtime::{
    find_program_address, verify_program_address, Seeds, ASSOCIATED_TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID,
};
use crate::state::{mint, token_account, Protocol, QueueHoles, Vault, WithdrawalReceipt};

pub fn signer(account: &Account) -> Result<()> {
    if account.is_signer() {
        Ok(())
    } else {
        Err(VaultError::MissingSigner.into())
    }
}

pub fn writable(account: &Account) -> Result<()> {
    if account.is_writable() {
        Ok(())
    } else {
        Err(VaultError::AccountNotWritable.into())
    }
}

/// The account signs and is writable (it pays rent, or gets it back).
pub fn writable_signer(account: &Account) -> Result<()> {
    signer(account)?;
    writable(account)
}

/// The account is exactly `expected` (a stored or well-known address).
pub fn address(account: &Account, expected: &Pubkey) -> Result<()> {
    if keys_equal(account.key(), expected) {
        Ok(())
    } else {
        Err(VaultError::InvalidAccount.into())
    }
}

/// The account is exactly `expected` and writable (a vault's own mint or token account it moves).
pub fn writable_address(account: &Account, expected: &Pubkey) -> Result<()> {
    address(account, expected)?;
    writable(account)
}

/// A stored key is `expected` (a receipt's vault, say).
pub fn address_is(stored: &Pubkey, expected: &Pubkey) -> Result<()> {
    if keys_equal(stored, expected) {
        Ok(())
    } else {
        Err(VaultError::InvalidAccount.into())
    }
}

/// The account signs and is `authority` (a stored manager or admin).
fn signed_by(account: &Account, authority: &Pubkey) -> Result<()> {
    signer(account)?;
    if keys_equal(account.key(), authority) {
        Ok(())
    } else {
        Err(VaultError::Unauthorized.into())
    }
}

/// The signer is the vault's manager.
pub fn manager(account: &Account, vault: &Vault) -> Result<()> {
    signed_by(account, &vault.manager)
}

/// Loads the vault (owner, size, discriminator) and re-derives its address from the stored seeds
/// and bump, so only the program's own vault PDA is ever accepted.
pub fn vault<'a>(account: &'a Account, program_id: &Pubkey, must_write: bool) -> Result<&'a mut Vault> {
    if must_write {
        writable(account)?;
    }
    let vault = Vault::load(account, program_id)?;
    let index = vault.index.to_le_bytes();
    let bump = [vault.bump];
    let seeds = Seeds::new(&[b"vault", &vault.protocol, &index]).with_bump(&bump);
    verify_program_address(&seeds, program_id, account.key())?;
    Ok(vault)
}

/// Loads the protocol (owner, size, discriminator) and re-derives its address from the stored
/// creator and bump, so an account of another program or another type is refused.
pub fn protocol<'a>(account: &'a Account, program_id: &Pubkey, must_write: bool) -> Result<&'a mut Protocol> {
    if must_write {
        writable(account)?;
    }
    let protocol = Protocol::load(account, program_id)?;
    let bump = [protocol.bump];
    let seeds = Seeds::new(&[b"protocol", &protocol.creator]).with_bump(&bump);
    verify_program_address(&seeds, program_id, account.key())?;
    Ok(protocol)
}

/// The protocol the vault is registered under (compared by address; load it with `protocol`).
pub fn vaults_protocol(account: &Account, vault: &Vault) -> Result<()> {
    address(account, &vault.protocol)
}

/// The protocol the vault is registered under, loaded read-only: its address is the vault's stored
/// protocol (the vault itself was re-derived), and it is this program's Protocol (owner, size,
/// discriminator). Only this program can have created an account it owns at that address, so no
/// re-derivation is needed (it would cost a hash on every deposit that reads the protocol).
pub fn protocol_of<'a>(account: &'a Account, vault: &Vault, program_id: &Pubkey) -> Result<&'a Protocol> {
    vaults_protocol(account, vault)?;
    Ok(Protocol::load(account, program_id)?)
}

/// The signer is the protocol's admin.
pub fn admin(account: &Account, protocol: &Protocol) -> Result<()> {
    signed_by(account, &protocol.admin)
}

/// The vault (writable, re-derived) and the protocol it is registered under (read-only, re-derived).
pub fn vault_and_protocol<'a>(
    vault_account: &'a Account,
    protocol_account: &'a Account,
    program_id: &Pubkey,
) -> Result<(&'a mut Vault, &'a Protocol)> {
    let vault = vault(vault_account, program_id, true)?;
    vaults_protocol(protocol_account, vault)?;
    let protocol = protocol(protocol_account, program_id, false)?;
    Ok((vault, protocol))
}

/// A vault instruction of its protocol's admin: the vault (writable) under its protocol, whose admin
/// signs.
pub fn vault_by_admin<'a>(
    admin_account: &Account,
    protocol_account: &'a Account,
    vault_account: &'a Account,
    program_id: &Pubkey,
) -> Result<&'a mut Vault> {
    let (vault, protocol) = vault_and_protocol(vault_account, protocol_account, program_id)?;
    admin(admin_account, protocol)?;
    Ok(vault)
}

/// A protocol instruction of its admin: the protocol (writable, re-derived), whose admin signs.
pub fn protocol_by_admin<'a>(
    admin_account: &Account,
    protocol_account: &'a Account,
    program_id: &Pubkey,
) -> Result<&'a mut Protocol> {
    let protocol = protocol(protocol_account, program_id, true)?;
    admin(admin_account, protocol)?;
    Ok(protocol)
}

/// The signer is the key a hand-over proposed. The all-zero key means no proposal: nobody can sign
/// for it, but say so rather than rely on it.
pub fn proposed(account: &Account, pending: &Pubkey) -> Result<()> {
    signer(account)?;
    if keys_equal(pending, &[0; 32]) || !keys_equal(account.key(), pending) {
        return Err(VaultError::Unauthorized.into());
    }
    Ok(())
}

/// The account does not exist yet (it may hold lamports someone sent to the address).
pub fn uninitialized(account: &Account) -> Result<()> {
    if keys_equal(account.owner(), &crate::runtime::SYSTEM_PROGRAM_ID) && account.data_len() == 0 {
        Ok(())
    } else {
        Err(VaultError::AlreadyInitialized.into())
    }
}

/// The vault's hole list as an instruction found it.
pub enum HoleList<'a> {
    Stored(&'a mut QueueHoles),
    /// Not created yet (no hole was ever needed); the canonical bump, for creating it.
    Missing(u8),
}

/// The writable account at ["queue_holes", vault]: loaded and re-derived from its stored bump, or
/// found empty at the canonical address — re-derived from `known_bump` (the vault's queue_holes_bump)
/// when the vault has one, else found by a bump search, whose bump the caller stores in the vault.
pub fn queue_holes<'a>(
    account: &'a Account,
    vault_key: &Pubkey,
    program_id: &Pubkey,
    known_bump: u8,
) -> Result<HoleList<'a>> {
    writable(account)?;
    if keys_equal(account.owner(), &SYSTEM_PROGRAM_ID) && account.data_len() == 0 {
        if known_bump != 0 {
            let bump = [known_bump];
            let seeds = Seeds::new(&[b"queue_holes", vault_key]).with_bump(&bump);
            verify_program_address(&seeds, program_id, account.key())?;
            return Ok(HoleList::Missing(known_bump));
        }
        let (expected, bump) = find_program_address(&Seeds::new(&[b"queue_holes", vault_key]), program_id)?;
        address(account, &expected)?;
        return Ok(HoleList::Missing(bump));
    }
    let holes = QueueHoles::load(account, program_id)?;
    let bump = [holes.bump];
    let seeds = Seeds::new(&[b"queue_holes", vault_key]).with_bump(&bump);
    verify_program_address(&seeds, program_id, account.key())?;
    Ok(HoleList::Stored(holes))
}

/// An initialized SPL Token account of `mint` owned by `owner`; returns its balance.
pub fn token_account(account: &Account, mint: &Pubkey, owner: &Pubkey) -> Result<u64> {
    if !keys_equal(account.owner(), &TOKEN_PROGRAM_ID) {
        return Err(VaultError::InvalidAccountOwner.into());
    }
    let data = account.data();
    if data.len() != token_account::LEN || data[token_account::STATE] != token_account::STATE_INITIALIZED {
        return Err(VaultError::InvalidAccountData.into());
    }
    if !keys_equal(field_key(data, token_account::MINT), mint) {
        return Err(VaultError::InvalidMint.into());
    }
    if !keys_equal(field_key(data, token_account::OWNER), owner) {
        return Err(VaultError::InvalidTokenOwner.into());
    }
    Ok(field_u64(data, token_account::AMOUNT))
}

/// The account is `owner`'s associated token account of `mint` (the one wallets and programs watch):
/// a bump search, so only on paths a second account could otherwise dodge.
pub fn associated_token_account(account: &Account, owner: &Pubkey, mint: &Pubkey) -> Result<()> {
    let seeds = Seeds::new(&[owner, &TOKEN_PROGRAM_ID, mint]);
    let (expected, _) = find_program_address(&seeds, &ASSOCIATED_TOKEN_PROGRAM_ID)?;
    address(account, &expected)
}

/// The account is `owner`'s associated token account of `mint`, re-derived from `bump` with one hash
/// (the caller's argument: no search, so the cost does not depend on the owner). A wrong bump gives
/// another address and is refused. A non-canonical bump that does give the account's address names
/// an address only the associated token program could sign for, which it never does below the
/// canonical bump, so no token account can exist there and `token_account` refuses it.
pub fn associated_token_account_at(account: &Account, owner: &Pubkey, mint: &Pubkey, bump: u8) -> Result<()> {
    let bump = [bump];
    let seeds = Seeds::new(&[owner, &TOKEN_PROGRAM_ID, mint]).with_bump(&bump);
    verify_program_address(&seeds, &ASSOCIATED_TOKEN_PROGRAM_ID, account.key())
}

/// The owner's pending withdrawal: the writable receipt, refused as NoPendingWithdrawal when nothing is
/// at its address, else loaded (owner, size, discriminator) and checked to be this vault's and owner's.
pub fn pending_receipt<'a>(
    account: &'a Account,
    vault_key: &Pubkey,
    owner: &Pubkey,
    program_id: &Pubkey,
) -> Result<&'a mut WithdrawalReceipt> {
    writable(account)?;
    if keys_equal(account.owner(), &SYSTEM_PROGRAM_ID) && account.data_len() == 0 {
        return Err(VaultError::NoPendingWithdrawal.into());
    }
    let receipt = WithdrawalReceipt::load(account, program_id)?;
    receipt_of(receipt, vault_key, owner)?;
    Ok(receipt)
}

/// A receipt loaded by the program belongs to this vault and owner. The program creates receipts only
/// at ["receipt", vault, owner] and stores both keys, so comparing them is the re-derivation without
/// its hash.
pub fn receipt_of(receipt: &WithdrawalReceipt, vault_key: &Pubkey, owner: &Pubkey) -> Result<()> {
    address_is(&receipt.vault, vault_key)?;
    address_is(&receipt.owner, owner)
}

/// An initialized SPL Token mint; returns its decimals.
pub fn mint_decimals(account: &Account) -> Result<u8> {
    if !keys_equal(account.owner(), &TOKEN_PROGRAM_ID) {
        return Err(VaultError::InvalidMint.into());
    }
    let data = account.data();
    if data.len() != mint::LEN || data[mint::IS_INITIALIZED] != 1 {
        return Err(VaultError::InvalidMint.into());
    }
    Ok(data[mint::DECIMALS])
}

/// The account is a program id we call into.
pub fn program(account: &Account, id: &Pubkey) -> Result<()> {
    address(account, id)
}

fn field_key(data: &[u8], offset: usize) -> &Pubkey {
    // SAFETY: callers pass offsets of 32-byte fields inside data whose length they checked (a token
    // account's 165 bytes); Pubkey is a byte array, alignment 1.
    unsafe { &*(data.as_ptr().add(offset) as *const Pubkey) }
}

fn field_u64(data: &[u8], offset: usize) -> u64 {
    // SAFETY: callers pass offsets of 8-byte fields inside data whose length they checked (a token
    // account or mint of the checked size); read_unaligned needs no alignment.
    unsafe { core::ptr::read_unaligned(data.as_ptr().add(offset) as *const u64) }
}
