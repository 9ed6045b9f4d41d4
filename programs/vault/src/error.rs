//! Custom errors (Anchor-numbered from 6000); 6020 and 6021 are fixed by the API spec.

use core::num::NonZeroU64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum VaultError {
    Unauthorized = 6000,
    InvalidAmount = 6001,
    VaultPaused = 6002,
    MathOverflow = 6003,
    InvalidMint = 6004,
    InvalidTokenOwner = 6005,
    InvalidAccount = 6006,
    InvalidAccountOwner = 6007,
    InvalidAccountData = 6008,
    MissingSigner = 6009,
    AccountNotWritable = 6010,
    AlreadyInitialized = 6011,
    WithdrawalAlreadyPending = 6012,
    NoPendingWithdrawal = 6013,
    NavFloorNotPassed = 6014,
    QueueNotFunded = 6015,
    InsufficientLiquidity = 6016,
    BelowMinimumWithdrawal = 6017,
    InvalidConfig = 6018,
    SlippageExceeded = 6019,
    HourlyWithdrawalCapExceeded = 6020,
    DailyWithdrawalCapExceeded = 6021,
    NavGainAboveBound = 6022,
    NavLossAboveBound = 6023,
    NavStrikeTooSoon = 6024,
    VaultIndexMismatch = 6025,
    FeeAboveMaximum = 6026,
    NavGainAboveRate = 6027,
    NavLossAboveRate = 6028,
    QueueHolesFull = 6029,
    CapBelowFloor = 6030,
    NoConfigDue = 6031,
    PauseCooldown = 6032,
    NotAssociatedTokenAccount = 6033,
    SmallRequestCannotLeaveQueue = 6034,
    PartnerFeeAboveMaximum = 6035,
}

/// An instruction's failure as the runtime reads the program's return value: a custom code in the low
/// 32 bits, or a built-in error in the high 32 bits. One non-zero word, so a `Result<()>` travels in a
/// register (a wider error would cost every call an out-pointer, and BPF calls carry only five).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error(NonZeroU64);

impl Error {
    /// The instruction data does not decode (unknown discriminator, short or trailing bytes).
    pub const INVALID_INSTRUCTION_DATA: Error = Error::builtin(3);
    /// Fewer accounts than the instruction needs.
    pub const NOT_ENOUGH_ACCOUNT_KEYS: Error = Error::builtin(11);

    const fn builtin(index: u64) -> Error {
        match NonZeroU64::new(index << 32) {
            Some(code) => Error(code),
            None => panic!(),
        }
    }

    /// A failure a syscall reported (never zero: zero is success).
    pub fn runtime(code: u64) -> Error {
        match NonZeroU64::new(code) {
            Some(code) => Error(code),
            None => Error::builtin(1),
        }
    }

    pub fn code(self) -> u64 {
        self.0.get()
    }
}

impl From<VaultError> for Error {
    fn from(e: VaultError) -> Self {
        Error::runtime(e as u32 as u64)
    }
}

pub type Result<T> = core::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_codes_are_fixed() {
        assert_eq!(Error::from(VaultError::HourlyWithdrawalCapExceeded).code(), 6020);
        assert_eq!(Error::from(VaultError::DailyWithdrawalCapExceeded).code(), 6021);
        assert_eq!(Error::from(VaultError::NavGainAboveBound).code(), 6022);
        assert_eq!(Error::from(VaultError::VaultIndexMismatch).code(), 6025);
        assert_eq!(Error::INVALID_INSTRUCTION_DATA.code(), 0x3_0000_0000);
        assert_eq!(core::mem::size_of::<Result<()>>(), 8);
    }
}
