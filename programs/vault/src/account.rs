//! The loader's aligned input serialization, read in place: accounts are views into the input
//! buffer, so lamports and data written here are what the runtime sees after the instruction.

use crate::error::{Error, Result, VaultError};

/// Realloc headroom the loader leaves after each account's data.
const MAX_PERMITTED_DATA_INCREASE: usize = 10 * 1024;
const NON_DUP_MARKER: u8 = 0xff;
/// The most accounts any of our instructions takes; more are walked past and ignored.
pub const MAX_ACCOUNTS: usize = 12;

pub type Pubkey = [u8; 32];

/// An account of the current instruction: a pointer to its serialized header in the input.
#[derive(Clone, Copy)]
pub struct Account {
    header: *mut u8,
    /// The account already appeared earlier in the instruction's account list.
    pub duplicate: bool,
}

impl Account {
    #[inline]
    pub fn is_signer(&self) -> bool {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; byte 1 is is_signer.
        unsafe { *self.header.add(1) != 0 }
    }
    #[inline]
    pub fn is_writable(&self) -> bool {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; byte 2 is is_writable.
        unsafe { *self.header.add(2) != 0 }
    }
    #[inline]
    pub fn key(&self) -> &Pubkey {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; bytes 8..40 are the key.
        unsafe { &*(self.header.add(8) as *const Pubkey) }
    }
    #[inline]
    pub fn owner(&self) -> &Pubkey {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; bytes 40..72 are the owner.
        unsafe { &*(self.header.add(40) as *const Pubkey) }
    }
    #[inline]
    pub fn set_owner(&self, owner: &Pubkey) {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; bytes 40..72 are the owner,
        // which the runtime reads back after the instruction.
        unsafe { copy_key(&mut *(self.header.add(40) as *mut Pubkey), owner) }
    }
    #[inline]
    pub fn lamports_ptr(&self) -> *mut u64 {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; bytes 72..80 are the lamports
        // (8-aligned: the loader aligns every header).
        unsafe { self.header.add(72) as *mut u64 }
    }
    #[inline]
    pub fn lamports(&self) -> u64 {
        // SAFETY: `lamports_ptr` is the aligned lamports field of a live header.
        unsafe { *self.lamports_ptr() }
    }
    #[inline]
    pub fn set_lamports(&self, lamports: u64) {
        // SAFETY: `lamports_ptr` is the aligned lamports field of a live header.
        unsafe { *self.lamports_ptr() = lamports }
    }
    #[inline]
    pub fn data_len(&self) -> usize {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; bytes 80..88 are the data
        // length (8-aligned).
        unsafe { *(self.header.add(80) as *const u64) as usize }
    }
    /// Shrinks the data to `len` bytes (the loader accepts any length up to the original plus
    /// headroom; growing is never needed here).
    #[inline]
    pub fn set_data_len(&self, len: usize) {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; bytes 80..88 are the data
        // length; callers only shrink it (the loader checks the result against its headroom).
        unsafe { *(self.header.add(80) as *mut u64) = len as u64 }
    }
    #[inline]
    pub fn data_ptr(&self) -> *mut u8 {
        // SAFETY: `header` points at this account's serialized header in the loader's input buffer (never
        // null once `take` handed the account out), which outlives the instruction; the data starts at byte 88.
        unsafe { self.header.add(88) }
    }
    #[inline]
    pub fn data(&self) -> &[u8] {
        // SAFETY: the loader serialized `data_len` bytes of data at `data_ptr`, alive for the instruction;
        // no `&mut` to them is held while this slice is read (checks run before any `load`).
        unsafe { core::slice::from_raw_parts(self.data_ptr(), self.data_len()) }
    }
}

#[inline]
const fn align8(n: usize) -> usize {
    (n + 7) & !7
}

/// A two-step hand-over completes: the proposed key (checked by `checks::proposed`) becomes `current`,
/// no key is pending any more; returns the key it replaced.
pub fn hand_over(current: &mut Pubkey, pending: &mut Pubkey) -> Pubkey {
    let mut previous = [0u8; 32];
    copy_key(&mut previous, current);
    copy_key(current, pending);
    *pending = [0; 32];
    previous
}

#[inline]
pub fn copy_key(dst: &mut Pubkey, src: &Pubkey) {
    // SAFETY: both are 32-byte arrays, read and written as four unaligned u64 words inside them.
    unsafe {
        let d = dst.as_mut_ptr() as *mut u64;
        let s = src.as_ptr() as *const u64;
        for i in 0..4 {
            core::ptr::write_unaligned(d.add(i), core::ptr::read_unaligned(s.add(i)));
        }
    }
}

#[inline]
pub fn keys_equal(a: &Pubkey, b: &Pubkey) -> bool {
    // SAFETY: both are 32-byte arrays, read as four unaligned u64 words inside them.
    unsafe {
        let a = a.as_ptr() as *const u64;
        let b = b.as_ptr() as *const u64;
        let mut diff = 0u64;
        for i in 0..4 {
            diff |= core::ptr::read_unaligned(a.add(i)) ^ core::ptr::read_unaligned(b.add(i));
        }
        diff == 0
    }
}

/// The parsed input: the instruction's accounts, its data and the program id.
pub struct Input<'a> {
    pub accounts: [Account; MAX_ACCOUNTS],
    pub account_count: usize,
    pub data: &'a [u8],
    pub program_id: &'a Pubkey,
}

impl<'a> Input<'a> {
    /// Reads the loader's serialization starting at `input`.
    ///
    /// # Safety
    /// `input` must be the pointer the loader passed to the entrypoint.
    pub unsafe fn parse(input: *mut u8) -> Input<'a> {
        // SAFETY (every read below): the cursor walks the loader's serialization exactly as it is laid
        // out (count, per-account header or duplicate marker, data plus realloc headroom aligned to 8,
        // rent epoch, then instruction data and program id), so each read stays inside the buffer.
        let count = *(input as *const u64) as usize;
        let mut cursor = input.add(8);
        let mut accounts = [Account { header: core::ptr::null_mut(), duplicate: false }; MAX_ACCOUNTS];
        for i in 0..count {
            let marker = *cursor;
            let account = if marker == NON_DUP_MARKER {
                let header = cursor;
                let data_len = *(cursor.add(80) as *const u64) as usize;
                cursor = cursor.add(88 + align8(data_len + MAX_PERMITTED_DATA_INCREASE) + 8);
                Account { header, duplicate: false }
            } else {
                cursor = cursor.add(8);
                let index = marker as usize;
                let original = if index < MAX_ACCOUNTS { accounts[index].header } else { core::ptr::null_mut() };
                Account { header: original, duplicate: true }
            };
            if i < MAX_ACCOUNTS {
                accounts[i] = account;
            }
        }
        let data_len = *(cursor as *const u64) as usize;
        let data = core::slice::from_raw_parts(cursor.add(8), data_len);
        let program_id = &*(cursor.add(8 + data_len) as *const Pubkey);
        Input { accounts, account_count: if count < MAX_ACCOUNTS { count } else { MAX_ACCOUNTS }, data, program_id }
    }

    /// The first `N` accounts, refusing fewer than `N` and any account listed twice among them. Every
    /// `&mut` an instruction takes into account data relies on this refusal (see `state::load`).
    pub fn take<const N: usize>(&self) -> Result<[Account; N]> {
        self.take_aliasing::<N>(None)
    }

    /// As `take`, except that account `alias` may be the same account as `original`: for one signer in
    /// two roles (the protocol admin paying for its vault), neither of which is ever loaded as data.
    pub fn take_with_alias<const N: usize>(&self, alias: usize, original: usize) -> Result<[Account; N]> {
        self.take_aliasing::<N>(Some((alias, original)))
    }

    fn take_aliasing<const N: usize>(&self, allowed: Option<(usize, usize)>) -> Result<[Account; N]> {
        if self.account_count < N {
            return Err(Error::NOT_ENOUGH_ACCOUNT_KEYS);
        }
        let mut out = [self.accounts[0]; N];
        for (i, slot) in out.iter_mut().enumerate() {
            let account = self.accounts[i];
            if account.header.is_null() {
                return Err(VaultError::InvalidAccount.into());
            }
            if account.duplicate {
                let permitted = match allowed {
                    Some((alias, original)) => alias == i && account.header == self.accounts[original].header,
                    None => false,
                };
                if !permitted {
                    return Err(VaultError::InvalidAccount.into());
                }
            }
            *slot = account;
        }
        Ok(out)
    }
}
