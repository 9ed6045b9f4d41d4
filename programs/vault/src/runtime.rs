//! Thin safe wrappers over the syscalls: PDAs, sysvars, logging, events and CPIs.

use crate::account::{Account, Pubkey};
use crate::error::{Error, Result, VaultError};
use crate::syscalls::*;

/// A PDA seed list (up to four seeds plus the bump).
pub struct Seeds<'a> {
    parts: [SolBytes; 5],
    len: usize,
    _borrow: core::marker::PhantomData<&'a [u8]>,
}

impl<'a> Seeds<'a> {
    pub fn new(seeds: &[&'a [u8]]) -> Seeds<'a> {
        let mut parts = [
            SolBytes { addr: core::ptr::null(), len: 0 },
            SolBytes { addr: core::ptr::null(), len: 0 },
            SolBytes { addr: core::ptr::null(), len: 0 },
            SolBytes { addr: core::ptr::null(), len: 0 },
            SolBytes { addr: core::ptr::null(), len: 0 },
        ];
        for (slot, seed) in parts.iter_mut().zip(seeds.iter()) {
            *slot = SolBytes { addr: seed.as_ptr(), len: seed.len() as u64 };
        }
        Seeds { parts, len: seeds.len(), _borrow: core::marker::PhantomData }
    }

    /// The same seeds with the bump appended (the bump must outlive the returned seeds).
    pub fn with_bump(mut self, bump: &'a [u8; 1]) -> Seeds<'a> {
        self.parts[self.len] = SolBytes { addr: bump.as_ptr(), len: 1 };
        self.len += 1;
        self
    }

    fn signer(&self) -> SolSignerSeeds {
        SolSignerSeeds { addr: self.parts.as_ptr(), len: self.len as u64 }
    }
}

/// The canonical PDA and its bump (a bump search: only at account creation).
pub fn find_program_address(seeds: &Seeds, program_id: &Pubkey) -> Result<(Pubkey, u8)> {
    let mut address = [0u8; 32];
    let mut bump = 0u8;
    // SAFETY: `parts` holds `len` seed slices borrowed for 'a, `address` and `bump` are writable locals
    // of the sizes the syscall writes.
    let rc = unsafe {
        sol_try_find_program_address(seeds.parts.as_ptr(), seeds.len as u64, program_id, &mut address, &mut bump)
    };
    if rc != 0 {
        return Err(VaultError::InvalidAccount.into());
    }
    Ok((address, bump))
}

/// Checks that `key` is the PDA of `seeds` (which include the stored bump).
pub fn verify_program_address(seeds: &Seeds, program_id: &Pubkey, key: &Pubkey) -> Result<()> {
    let mut address = [0u8; 32];
    // SAFETY: `parts` holds `len` seed slices borrowed for 'a; `address` is a writable 32-byte local.
    let rc = unsafe { sol_create_program_address(seeds.parts.as_ptr(), seeds.len as u64, program_id, &mut address) };
    if rc != 0 || !crate::account::keys_equal(&address, key) {
        return Err(VaultError::InvalidAccount.into());
    }
    Ok(())
}

/// The cluster's unix time from the clock sysvar.
pub fn unix_timestamp() -> Result<i64> {
    let mut clock = [0u64; 5];
    // SAFETY: the clock sysvar is 40 bytes, the size of `clock`.
    let rc = unsafe { sol_get_clock_sysvar(clock.as_mut_ptr() as *mut u8) };
    if rc != 0 {
        return Err(Error::runtime(rc));
    }
    Ok(clock[4] as i64)
}

/// Rent-exempt minimum for `len` bytes of data, from the rent sysvar. The exemption threshold is an
/// f64 that clusters publish as exactly 2 years (3480 lamports per byte-year) or, since SIMD-0194,
/// exactly 1 year (6960); both are read as integers, anything else is refused rather than computed
/// in floating point.
pub fn rent_exempt_minimum(len: usize) -> Result<u64> {
    const ACCOUNT_STORAGE_OVERHEAD: u64 = 128;
    const ONE_YEAR_F64_BITS: u64 = 0x3ff0_0000_0000_0000;
    const TWO_YEARS_F64_BITS: u64 = 0x4000_0000_0000_0000;
    let mut rent = [0u64; 3];
    // SAFETY: the rent sysvar is 17 bytes; `rent` has 24.
    let rc = unsafe { sol_get_rent_sysvar(rent.as_mut_ptr() as *mut u8) };
    if rc != 0 {
        return Err(Error::runtime(rc));
    }
    let years = match rent[1] {
        ONE_YEAR_F64_BITS => 1,
        TWO_YEARS_F64_BITS => 2,
        _ => return Err(VaultError::MathOverflow.into()),
    };
    let bytes = ACCOUNT_STORAGE_OVERHEAD + len as u64;
    let yearly = crate::math::mul_div_floor(bytes, rent[0], 1)?;
    crate::math::mul_div_floor(yearly, years, 1)
}

pub fn log(message: &str) {
    // SAFETY: the pointer and length describe `message`, alive for the call.
    unsafe { sol_log_(message.as_ptr(), message.len() as u64) }
}

/// Emits an Anchor event: one `Program data:` log of discriminator + Borsh fields.
pub fn emit(event: &[u8]) {
    let part = SolBytes { addr: event.as_ptr(), len: event.len() as u64 };
    // SAFETY: `part` describes `event`, alive for the call; one slice is passed.
    unsafe { sol_log_data(&part, 1) }
}

pub const TOKEN_PROGRAM_ID: Pubkey = [
    6, 221, 246, 225, 215, 101, 161, 147, 217, 203, 225, 70, 206, 235, 121, 172, 28, 180, 133, 237, 95, 91, 55, 145,
    58, 140, 245, 133, 126, 255, 0, 169,
];
pub const SYSTEM_PROGRAM_ID: Pubkey = [0; 32];
/// ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL, the Associated Token Account program (only its
/// addresses are derived here; it is never called).
pub const ASSOCIATED_TOKEN_PROGRAM_ID: Pubkey = [
    140, 151, 37, 143, 78, 36, 137, 241, 187, 61, 16, 41, 20, 142, 13, 131, 11, 90, 19, 153, 218, 255, 16, 132, 4,
    142, 123, 216, 219, 233, 248, 89,
];

fn meta(account: &Account, is_writable: bool, is_signer: bool) -> SolAccountMeta {
    SolAccountMeta { pubkey: account.key(), is_writable, is_signer }
}

fn info(account: &Account) -> SolAccountInfo {
    SolAccountInfo {
        key: account.key(),
        lamports: account.lamports_ptr(),
        data_len: account.data_len() as u64,
        data: account.data_ptr(),
        owner: account.owner(),
        rent_epoch: 0,
        is_signer: account.is_signer(),
        is_writable: account.is_writable(),
        executable: false,
    }
}

/// Invokes `program` with `data` over `metas`, with at most one PDA signing through its seeds.
fn invoke<const N: usize>(
    program: &Pubkey,
    metas: &[SolAccountMeta; N],
    infos: &[SolAccountInfo; N],
    data: &[u8],
    signer: Option<&Seeds>,
) -> Result<()> {
    let instruction = SolInstruction {
        program_id: program,
        accounts: metas.as_ptr(),
        account_len: N as u64,
        data: data.as_ptr(),
        data_len: data.len() as u64,
    };
    let seeds = signer.map(|s| s.signer());
    let (seeds_ptr, seeds_len) = match &seeds {
        Some(s) => (s as *const SolSignerSeeds, 1),
        None => (core::ptr::null(), 0),
    };
    // SAFETY: `instruction` points at `metas` and `data`, `infos` has N entries built from live
    // accounts, and `seeds_ptr` is null or one signer's seeds; all outlive the call.
    let rc = unsafe { sol_invoke_signed_c(&instruction, infos.as_ptr(), N as u64, seeds_ptr, seeds_len) };
    if rc != 0 {
        return Err(Error::runtime(rc));
    }
    Ok(())
}

fn amount_data(tag: u8, amount: u64) -> [u8; 9] {
    let a = amount.to_le_bytes();
    [tag, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]]
}

/// SPL Token `Transfer` of `amount` from `source` to `destination`, authorised by `authority`
/// (a wallet that signed the transaction, or the vault authority with `signer` seeds).
pub fn token_transfer(source: &Account, destination: &Account, authority: &Account, amount: u64, signer: Option<&Seeds>) -> Result<()> {
    let metas = [meta(source, true, false), meta(destination, true, false), meta(authority, false, true)];
    let infos = [info(source), info(destination), info(authority)];
    invoke(&TOKEN_PROGRAM_ID, &metas, &infos, &amount_data(3, amount), signer)
}

/// SPL Token `MintTo`, signed by the vault authority.
pub fn token_mint_to(mint: &Account, destination: &Account, authority: &Account, amount: u64, signer: &Seeds) -> Result<()> {
    let metas = [meta(mint, true, false), meta(destination, true, false), meta(authority, false, true)];
    let infos = [info(mint), info(destination), info(authority)];
    invoke(&TOKEN_PROGRAM_ID, &metas, &infos, &amount_data(7, amount), Some(signer))
}

/// SPL Token `Burn` from an account of the vault authority.
pub fn token_burn(account: &Account, mint: &Account, authority: &Account, amount: u64, signer: &Seeds) -> Result<()> {
    let metas = [meta(account, true, false), meta(mint, true, false), meta(authority, false, true)];
    let infos = [info(account), info(mint), info(authority)];
    invoke(&TOKEN_PROGRAM_ID, &metas, &infos, &amount_data(8, amount), Some(signer))
}

/// SPL Token `InitializeMint2` with `authority` as mint authority and no freeze authority.
pub fn token_initialize_mint(mint: &Account, decimals: u8, authority: &Pubkey) -> Result<()> {
    let mut data = [0u8; 35];
    data[0] = 20;
    data[1] = decimals;
    data[2..34].copy_from_slice(authority);
    let metas = [meta(mint, true, false)];
    let infos = [info(mint)];
    invoke(&TOKEN_PROGRAM_ID, &metas, &infos, &data, None)
}

/// SPL Token `InitializeAccount3` for `mint`, owned by `owner`.
pub fn token_initialize_account(account: &Account, mint: &Account, owner: &Pubkey) -> Result<()> {
    let mut data = [0u8; 33];
    data[0] = 18;
    data[1..33].copy_from_slice(owner);
    let metas = [meta(account, true, false), meta(mint, false, false)];
    let infos = [info(account), info(mint)];
    invoke(&TOKEN_PROGRAM_ID, &metas, &infos, &data, None)
}

/// Creates `new` (a PDA signing with `seeds`) with `space` bytes owned by `owner`, paid by `payer`.
/// An address someone pre-funded with lamports cannot be created with `CreateAccount`, so that case
/// tops it up, allocates and assigns instead.
pub fn create_pda_account(payer: &Account, new: &Account, space: usize, owner: &Pubkey, seeds: &Seeds) -> Result<()> {
    let minimum = rent_exempt_minimum(space)?;
    let current = new.lamports();
    if current == 0 {
        let mut data = [0u8; 52];
        data[4..12].copy_from_slice(&minimum.to_le_bytes());
        data[12..20].copy_from_slice(&(space as u64).to_le_bytes());
        data[20..52].copy_from_slice(owner);
        let metas = [meta(payer, true, true), meta(new, true, true)];
        let infos = [info(payer), info(new)];
        return invoke(&SYSTEM_PROGRAM_ID, &metas, &infos, &data, Some(seeds));
    }
    if current < minimum {
        let mut data = [0u8; 12];
        data[0] = 2;
        data[4..12].copy_from_slice(&(minimum - current).to_le_bytes());
        let metas = [meta(payer, true, true), meta(new, true, false)];
        let infos = [info(payer), info(new)];
        invoke(&SYSTEM_PROGRAM_ID, &metas, &infos, &data, None)?;
    }
    let mut allocate = [0u8; 12];
    allocate[0] = 8;
    allocate[4..12].copy_from_slice(&(space as u64).to_le_bytes());
    let metas = [meta(new, true, true)];
    let infos = [info(new)];
    invoke(&SYSTEM_PROGRAM_ID, &metas, &infos, &allocate, Some(seeds))?;
    let mut assign = [0u8; 36];
    assign[0] = 1;
    assign[4..36].copy_from_slice(owner);
    let infos = [info(new)];
    invoke(&SYSTEM_PROGRAM_ID, &metas, &infos, &assign, Some(seeds))
}
