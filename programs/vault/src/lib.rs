//! The vault program: deposits at NAV per share, queued withdrawals with hourly and daily
//! net-withdrawal caps, a NAV struck by the manager and a FIFO queue funded from the reserve.
//! No crates and `no_std`, Anchor-compatible on the wire (see README.md and idl.json).
#![cfg_attr(any(target_arch = "bpf", target_arch = "sbf"), no_std)]
#![allow(unexpected_cfgs)]

pub mod account;
pub mod borsh;
pub mod checks;
pub mod config;
pub mod error;
pub mod events;
pub mod instructions;
pub mod math;
pub mod queue;
pub mod runtime;
pub mod state;
pub mod syscalls;
#[cfg(test)]
mod test_rng;


/// The loader calls this with its serialized input; 0 is success, anything else an error code.
///
/// # Safety
/// `input` must be the loader's parameter buffer.
#[cfg(any(target_arch = "bpf", target_arch = "sbf"))]
#[no_mangle]
pub unsafe extern "C" fn entrypoint(input: *mut u8) -> u64 {
    // SAFETY: the loader passes its parameter buffer, which `parse` requires.
    let input = account::Input::parse(input);
    match instructions::process(&input) {
        Ok(()) => 0,
        Err(error) => error.code(),
    }
}

#[cfg(all(any(target_arch = "bpf", target_arch = "sbf"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `abort` takes no arguments and never returns.
    unsafe { syscalls::abort() }
}
