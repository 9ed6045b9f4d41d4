//! Account layouts. Borsh of fixed-size fields is the packed C layout in little-endian, so each account
//! is a `#[repr(C, packed)]` struct read in place behind its 8-byte Anchor discriminator.

use crate::account::{Account, Pubkey};
use crate::error::{Result, VaultError};

/// sha256("account:Vault")[..8]
pub const VAULT_DISCRIMINATOR: [u8; 8] = [0xd3, 0x08, 0xe8, 0x2b, 0x02, 0x98, 0x75, 0x77];
/// sha256("account:WithdrawalReceipt")[..8]
pub const RECEIPT_DISCRIMINATOR: [u8; 8] = [0xa7, 0xeb, 0x54, 0x07, 0xd2, 0x37, 0x43, 0x72];
/// sha256("account:Protocol")[..8]
pub const PROTOCOL_DISCRIMINATOR: [u8; 8] = [0x2d, 0x27, 0x65, 0x2b, 0x73, 0x48, 0x83, 0x28];

/// sha256("account:QueueHoles")[..8]
pub const QUEUE_HOLES_DISCRIMINATOR: [u8; 8] = [0x25, 0x4e, 0x9a, 0xe1, 0x46, 0x1c, 0xd7, 0x16];

pub const NAME_LEN: usize = 32;

/// The most holes a vault's queue can hold at once (see `QueueHoles`).
pub const MAX_QUEUE_HOLES: usize = 16;

/// The authority above the vaults, at PDA ["protocol", creator]: its admin registers vaults and sets
/// the bounds every NAV strike must keep.
#[repr(C, packed)]
pub struct Protocol {
    pub discriminator: [u8; 8],
    /// The initial admin, kept because it seeds the address.
    pub creator: Pubkey,
    pub admin: Pubkey,
    /// The admin proposed by `propose_admin`; all zero when none.
    pub pending_admin: Pubkey,
    pub max_gain_bps: u16,
    pub max_loss_bps: u16,
    pub min_nav_interval_seconds: u32,
    /// Vaults registered so far; the next vault's index.
    pub vault_count: u64,
    pub bump: u8,
    /// The NAV's gain bound over time, as an annual rate: a strike may gain at most
    /// `total_assets × max_annual_gain_bps × elapsed / (10000 × 365 days)`, elapsed being the time since
    /// the previous strike, at most one day (at most MAX_ANNUAL_GAIN_BPS).
    pub max_annual_gain_bps: u16,
    /// The NAV's loss bound over time, per day: at most `total_assets × max_daily_loss_bps × elapsed /
    /// (10000 × 1 day)` a strike (at most MAX_DAILY_LOSS_BPS).
    pub max_daily_loss_bps: u16,
    /// The highest partner fee a deposit of the protocol's vaults may pay (deposit_with_partner_fee),
    /// in bps of the deposit; DEFAULT_MAX_PARTNER_FEE_BPS at creation, set by the admin up to
    /// MAX_PARTNER_FEE_BPS.
    pub max_partner_fee_bps: u16,
    pub reserved: [u8; 58],
}

#[repr(C, packed)]
pub struct Vault {
    pub discriminator: [u8; 8],
    /// The protocol the vault is registered under (a seed of its address).
    pub protocol: Pubkey,
    pub manager: Pubkey,
    /// The manager proposed by `propose_manager`; all zero when none.
    pub pending_manager: Pubkey,
    pub asset_mint: Pubkey,
    pub share_mint: Pubkey,
    pub reserve: Pubkey,
    pub escrow: Pubkey,
    pub authority: Pubkey,
    pub index: u64,
    pub bump: u8,
    pub authority_bump: u8,
    pub share_mint_bump: u8,
    pub reserve_bump: u8,
    pub escrow_bump: u8,
    pub asset_decimals: u8,
    /// asset_decimals + DECIMALS_OFFSET: one asset unit is worth 10^3 shares at the start.
    pub share_decimals: u8,
    /// Borsh bool: 0 or 1.
    pub paused: u8,
    /// UTF-8, zero-padded.
    pub name: [u8; NAME_LEN],
    /// NAV in asset units.
    pub total_assets: u64,
    /// Mirrors the share mint's supply (the vault is its only minter and burner).
    pub total_shares: u64,
    pub nav_sequence: u64,
    pub nav_updated_at: i64,
    pub fee_bps: u16,
    pub min_withdrawal_shares: u64,
    pub hourly_cap: u64,
    pub daily_cap: u64,
    pub hourly_window_start: i64,
    pub hourly_used: u64,
    pub daily_window_start: i64,
    pub daily_used: u64,
    /// Shares ever queued; a receipt owns the range [queue_start, queue_end).
    pub queue_tail: u64,
    /// Shares of the queue the reserve has been set aside for, in FIFO order.
    pub queue_funded: u64,
    /// Shares of the queue already claimed (all of them funded).
    pub queue_claimed: u64,
    pub next_request_id: u64,
    pub pending_requests: u64,
    /// Assets the last claim of an emptied vault left behind: taken out of NAV (total_assets) so no
    /// later depositor is priced against them, and kept in the reserve where no share can claim them.
    pub surplus_assets: u64,
    /// The config a holder-hurting update_config scheduled (see `config`): the fee, minimum and caps
    /// that replace the current ones at `pending_effective_at`; meaningless while that is 0 (none).
    pub pending_fee_bps: u16,
    pub pending_min_withdrawal_shares: u64,
    pub pending_hourly_cap: u64,
    pub pending_daily_cap: u64,
    pub pending_effective_at: i64,
    /// The notice a holder-hurting config change waits, in seconds (0 = DEFAULT_CONFIG_NOTICE_SECONDS;
    /// set by the protocol's admin, at least MIN_CONFIG_NOTICE_SECONDS).
    pub config_notice_seconds: u32,
    /// How long the manager may stay silent (no strike, or no staging) before holders can leave without
    /// it (0 = DEFAULT_SILENCE_SECONDS; set by the protocol's admin within the program's bounds).
    pub silence_seconds: u32,
    /// The manager's last stage_withdrawals (0 = never: the vault's creation, nav_updated_at, counts).
    pub staged_at: i64,
    /// When the manager's pause ends by itself (a pause is in force while `paused` and now < this); after
    /// it, a new pause waits as long again (`max_pause_seconds`), so pausing cannot be chained.
    pub pause_until: i64,
    /// The longest a pause by the manager alone lasts (0 = DEFAULT_MAX_PAUSE_SECONDS).
    pub max_pause_seconds: u32,
    /// Borsh bool: the pause was set by the protocol's admin (set_admin_pause), so the manager cannot
    /// lift it; meaningful only while the pause is in force.
    pub admin_paused: u8,
    pub reserved: [u8; 1],
}

#[repr(C, packed)]
pub struct WithdrawalReceipt {
    pub discriminator: [u8; 8],
    pub vault: Pubkey,
    pub owner: Pubkey,
    pub shares: u64,
    pub assets_at_request: u64,
    /// The vault's nav_sequence at request time: a NAV struck after it must come before the claim.
    pub nav_floor: u64,
    pub request_id: u64,
    pub requested_at: i64,
    pub queue_start: u64,
    pub queue_end: u64,
    /// The vault's fee when the holder asked: the claim charges this one, whatever the fee is then.
    pub fee_bps: u16,
    pub bump: u8,
    /// Borsh bool: this request queued the last shares no request held (the holders' last exit). Its
    /// fee then leaves NAV into `surplus_assets` at the claim, so a deposit made meanwhile cannot take it.
    pub last_holder_exit: u8,
}

/// A range of the withdrawal queue, in cumulative shares: [start, end).
#[repr(C, packed)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueRange {
    pub start: u64,
    pub end: u64,
}

/// The holes cancelled requests left inside a vault's withdrawal queue, at PDA ["queue_holes", vault]:
/// ranges no receipt holds, wholly unfunded (each starts after `queue_funded`), before a live request
/// (each ends before `queue_tail`), disjoint and never adjacent (neighbours are merged), in no
/// particular order (removal swaps in the last one). `stage_withdrawals` passes them at no asset cost.
/// Kept out of the Vault account, whose layout other changes own; created by the first cancel that
/// leaves a hole.
#[repr(C, packed)]
pub struct QueueHoles {
    pub discriminator: [u8; 8],
    pub vault: Pubkey,
    pub bump: u8,
    /// Holes in use: `holes[..count]`.
    pub count: u8,
    pub holes: [QueueRange; MAX_QUEUE_HOLES],
}

pub const VAULT_SIZE: usize = core::mem::size_of::<Vault>();
pub const RECEIPT_SIZE: usize = core::mem::size_of::<WithdrawalReceipt>();
pub const PROTOCOL_SIZE: usize = core::mem::size_of::<Protocol>();
pub const QUEUE_HOLES_SIZE: usize = core::mem::size_of::<QueueHoles>();

/// Views `account` as a `T` after checking owner, size and discriminator.
///
/// A `&mut` from a shared `&Account` is sound only because no two `Account`s an instruction holds
/// point at the same data: `Input::take` refuses any account listed twice among those it hands out,
/// and every instruction loads each of its accounts at most once.
fn load<'a, T>(account: &'a Account, program_id: &Pubkey, discriminator: &[u8; 8], size: usize) -> Result<&'a mut T> {
    if !crate::account::keys_equal(account.owner(), program_id) {
        return Err(VaultError::InvalidAccountOwner.into());
    }
    if account.data_len() != size || !has_discriminator(account, discriminator) {
        return Err(VaultError::InvalidAccountData.into());
    }
    // SAFETY: the data is `size` = size_of::<T>() bytes inside the loader's input buffer, which lives
    // for the whole instruction; T is `repr(C, packed)` (alignment 1) with only integer and byte-array
    // fields, so any bytes are a valid T; no other reference to this data exists (see above).
    Ok(unsafe { &mut *(account.data_ptr() as *mut T) })
}

/// Views a freshly created account of this program (data zeroed, `size_of::<T>()` bytes) as a `T`.
///
/// # Safety
/// The caller created the account with exactly `size_of::<T>()` bytes in this instruction and holds
/// no other reference to its data (`Input::take` refused duplicates).
pub unsafe fn fresh<'a, T>(account: &'a Account) -> &'a mut T {
    // SAFETY: the caller's contract above: `size_of::<T>()` zeroed bytes in the input buffer, which
    // outlives the instruction, and no other reference to them; T has alignment 1 (`repr(C, packed)`).
    &mut *(account.data_ptr() as *mut T)
}

/// Whether the account's data starts with `discriminator` (one 8-byte compare, no memcmp call).
pub fn has_discriminator(account: &Account, discriminator: &[u8; 8]) -> bool {
    account.data_len() >= 8
        // SAFETY: at least 8 data bytes exist (checked just before); read_unaligned needs no alignment.
        && unsafe { core::ptr::read_unaligned(account.data_ptr() as *const u64) } == u64::from_le_bytes(*discriminator)
}

impl Vault {
    pub fn load<'a>(account: &'a Account, program_id: &Pubkey) -> Result<&'a mut Vault> {
        load(account, program_id, &VAULT_DISCRIMINATOR, VAULT_SIZE)
    }
}

impl Protocol {
    pub fn load<'a>(account: &'a Account, program_id: &Pubkey) -> Result<&'a mut Protocol> {
        load(account, program_id, &PROTOCOL_DISCRIMINATOR, PROTOCOL_SIZE)
    }
}

impl WithdrawalReceipt {
    pub fn load<'a>(account: &'a Account, program_id: &Pubkey) -> Result<&'a mut WithdrawalReceipt> {
        load(account, program_id, &RECEIPT_DISCRIMINATOR, RECEIPT_SIZE)
    }
}

impl QueueHoles {
    pub fn load<'a>(account: &'a Account, program_id: &Pubkey) -> Result<&'a mut QueueHoles> {
        load(account, program_id, &QUEUE_HOLES_DISCRIMINATOR, QUEUE_HOLES_SIZE)
    }
}

/// Fields of an SPL Token account (165 bytes) the vault reads.
pub mod token_account {
    pub const LEN: usize = 165;
    pub const MINT: usize = 0;
    pub const OWNER: usize = 32;
    pub const AMOUNT: usize = 64;
    pub const STATE: usize = 108;
    pub const STATE_INITIALIZED: u8 = 1;
}

/// Fields of an SPL Token mint (82 bytes) the vault reads.
pub mod mint {
    pub const LEN: usize = 82;
    pub const SUPPLY: usize = 36;
    pub const DECIMALS: usize = 44;
    pub const IS_INITIALIZED: usize = 45;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offset<T>(base: &T, field: *const u8) -> usize {
        field as usize - base as *const T as usize
    }

    #[test]
    fn vault_layout_matches_the_idl() {
        assert_eq!(VAULT_SIZE, 514);
        // SAFETY: Vault is plain integers and byte arrays; all-zero is a valid value.
        let v: Vault = unsafe { core::mem::zeroed() };
        assert_eq!(offset(&v, core::ptr::addr_of!(v.protocol) as *const u8), 8);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.manager) as *const u8), 40);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.pending_manager) as *const u8), 72);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.index) as *const u8), 264);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.share_decimals) as *const u8), 278);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.paused) as *const u8), 279);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.name) as *const u8), 280);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.total_assets) as *const u8), 312);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.fee_bps) as *const u8), 344);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.queue_tail) as *const u8), 402);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.surplus_assets) as *const u8), 442);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.pending_fee_bps) as *const u8), 450);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.pending_effective_at) as *const u8), 476);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.config_notice_seconds) as *const u8), 484);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.silence_seconds) as *const u8), 488);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.staged_at) as *const u8), 492);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.pause_until) as *const u8), 500);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.max_pause_seconds) as *const u8), 508);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.admin_paused) as *const u8), 512);
        assert_eq!(offset(&v, core::ptr::addr_of!(v.reserved) as *const u8), 513);
    }

    #[test]
    fn protocol_layout_matches_the_idl() {
        assert_eq!(PROTOCOL_SIZE, 185);
        // SAFETY: Protocol is plain integers and byte arrays; all-zero is a valid value.
        let p: Protocol = unsafe { core::mem::zeroed() };
        assert_eq!(offset(&p, core::ptr::addr_of!(p.creator) as *const u8), 8);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.admin) as *const u8), 40);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.max_gain_bps) as *const u8), 104);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.vault_count) as *const u8), 112);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.bump) as *const u8), 120);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.max_annual_gain_bps) as *const u8), 121);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.max_daily_loss_bps) as *const u8), 123);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.max_partner_fee_bps) as *const u8), 125);
        assert_eq!(offset(&p, core::ptr::addr_of!(p.reserved) as *const u8), 127);
    }

    #[test]
    fn receipt_layout_matches_the_idl() {
        assert_eq!(RECEIPT_SIZE, 132);
        // SAFETY: WithdrawalReceipt is plain integers and byte arrays; all-zero is a valid value.
        let r: WithdrawalReceipt = unsafe { core::mem::zeroed() };
        assert_eq!(offset(&r, core::ptr::addr_of!(r.vault) as *const u8), 8);
        assert_eq!(offset(&r, core::ptr::addr_of!(r.owner) as *const u8), 40);
        assert_eq!(offset(&r, core::ptr::addr_of!(r.shares) as *const u8), 72);
        assert_eq!(offset(&r, core::ptr::addr_of!(r.queue_end) as *const u8), 120);
        assert_eq!(offset(&r, core::ptr::addr_of!(r.fee_bps) as *const u8), 128);
        assert_eq!(offset(&r, core::ptr::addr_of!(r.bump) as *const u8), 130);
        assert_eq!(offset(&r, core::ptr::addr_of!(r.last_holder_exit) as *const u8), 131);
    }

    #[test]
    fn queue_holes_layout_matches_the_idl() {
        assert_eq!(QUEUE_HOLES_SIZE, 298);
        // SAFETY: QueueHoles is plain integers and byte arrays; all-zero is a valid value.
        let h: QueueHoles = unsafe { core::mem::zeroed() };
        assert_eq!(offset(&h, core::ptr::addr_of!(h.vault) as *const u8), 8);
        assert_eq!(offset(&h, core::ptr::addr_of!(h.bump) as *const u8), 40);
        assert_eq!(offset(&h, core::ptr::addr_of!(h.count) as *const u8), 41);
        assert_eq!(offset(&h, core::ptr::addr_of!(h.holes) as *const u8), 42);
    }

    #[test]
    fn discriminators_are_anchors() {
        // Spelled out so a renamed account type cannot silently keep an old discriminator.
        assert_eq!(VAULT_DISCRIMINATOR, [211, 8, 232, 43, 2, 152, 117, 119]);
        assert_eq!(RECEIPT_DISCRIMINATOR, [167, 235, 84, 7, 210, 55, 67, 114]);
        assert_eq!(PROTOCOL_DISCRIMINATOR, [45, 39, 101, 43, 115, 72, 131, 40]);
        assert_eq!(QUEUE_HOLES_DISCRIMINATOR, [37, 78, 154, 225, 70, 28, 215, 22]);
    }
}
