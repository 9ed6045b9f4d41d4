//! The runtime's syscalls, declared by hand (no crates). On the host they are never reached: the host
//! build exists for unit tests of the pure parts, so the stand-ins abort loudly.

#[repr(C)]
pub struct SolBytes {
    pub addr: *const u8,
    pub len: u64,
}

#[repr(C)]
pub struct SolAccountMeta {
    pub pubkey: *const [u8; 32],
    pub is_writable: bool,
    pub is_signer: bool,
}

#[repr(C)]
pub struct SolInstruction {
    pub program_id: *const [u8; 32],
    pub accounts: *const SolAccountMeta,
    pub account_len: u64,
    pub data: *const u8,
    pub data_len: u64,
}

#[repr(C)]
pub struct SolAccountInfo {
    pub key: *const [u8; 32],
    pub lamports: *mut u64,
    pub data_len: u64,
    pub data: *mut u8,
    pub owner: *const [u8; 32],
    pub rent_epoch: u64,
    pub is_signer: bool,
    pub is_writable: bool,
    pub executable: bool,
}

/// One signer's seeds: an array of `SolBytes`.
#[repr(C)]
pub struct SolSignerSeeds {
    pub addr: *const SolBytes,
    pub len: u64,
}

#[cfg(any(target_arch = "bpf", target_arch = "sbf"))]
extern "C" {
    pub fn abort() -> !;
    pub fn sol_log_(message: *const u8, len: u64);
    pub fn sol_log_data(data: *const SolBytes, len: u64);
    pub fn sol_get_clock_sysvar(out: *mut u8) -> u64;
    pub fn sol_get_rent_sysvar(out: *mut u8) -> u64;
    pub fn sol_create_program_address(
        seeds: *const SolBytes,
        seeds_len: u64,
        program_id: *const [u8; 32],
        out: *mut [u8; 32],
    ) -> u64;
    pub fn sol_try_find_program_address(
        seeds: *const SolBytes,
        seeds_len: u64,
        program_id: *const [u8; 32],
        out: *mut [u8; 32],
        bump: *mut u8,
    ) -> u64;
    pub fn sol_invoke_signed_c(
        instruction: *const SolInstruction,
        account_infos: *const SolAccountInfo,
        account_infos_len: u64,
        signers_seeds: *const SolSignerSeeds,
        signers_seeds_len: u64,
    ) -> u64;
    pub fn sol_memset_(dst: *mut u8, value: u8, len: u64);
    pub fn sol_memcpy_(dst: *mut u8, src: *const u8, len: u64);
}

#[cfg(not(any(target_arch = "bpf", target_arch = "sbf")))]
mod host {
    use super::*;
    pub unsafe fn abort() -> ! {
        panic!("abort")
    }
    pub unsafe fn sol_log_(_: *const u8, _: u64) {}
    pub unsafe fn sol_log_data(_: *const SolBytes, _: u64) {}
    pub unsafe fn sol_get_clock_sysvar(_: *mut u8) -> u64 {
        unimplemented!("syscalls run on-chain only")
    }
    pub unsafe fn sol_get_rent_sysvar(_: *mut u8) -> u64 {
        unimplemented!("syscalls run on-chain only")
    }
    pub unsafe fn sol_create_program_address(
        _: *const SolBytes,
        _: u64,
        _: *const [u8; 32],
        _: *mut [u8; 32],
    ) -> u64 {
        unimplemented!("syscalls run on-chain only")
    }
    pub unsafe fn sol_try_find_program_address(
        _: *const SolBytes,
        _: u64,
        _: *const [u8; 32],
        _: *mut [u8; 32],
        _: *mut u8,
    ) -> u64 {
        unimplemented!("syscalls run on-chain only")
    }
    pub unsafe fn sol_invoke_signed_c(
        _: *const SolInstruction,
        _: *const SolAccountInfo,
        _: u64,
        _: *const SolSignerSeeds,
        _: u64,
    ) -> u64 {
        unimplemented!("syscalls run on-chain only")
    }
    pub unsafe fn sol_memset_(dst: *mut u8, value: u8, len: u64) {
        core::ptr::write_bytes(dst, value, len as usize)
    }
    pub unsafe fn sol_memcpy_(dst: *mut u8, src: *const u8, len: u64) {
        core::ptr::copy_nonoverlapping(src, dst, len as usize)
    }
}
#[cfg(not(any(target_arch = "bpf", target_arch = "sbf")))]
pub use host::*;
