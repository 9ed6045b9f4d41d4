//! Events, one per state change, encoded as Anchor does: discriminator then Borsh fields.

use crate::account::Pubkey;
use crate::borsh::Writer;
use crate::config::Config;
use crate::runtime::emit;
use crate::state::{Protocol, Vault, WithdrawalReceipt};

const VAULT_INITIALIZED: [u8; 8] = [0xb4, 0x2b, 0xcf, 0x02, 0x12, 0x47, 0x03, 0x4b];
const DEPOSITED: [u8; 8] = [0x6f, 0x8d, 0x1a, 0x2d, 0xa1, 0x23, 0x64, 0x39];
const WITHDRAWAL_REQUESTED: [u8; 8] = [0x4b, 0xcf, 0x15, 0x0c, 0xa0, 0x66, 0x96, 0x37];
const WITHDRAWAL_CLAIMED: [u8; 8] = [0x09, 0x83, 0x63, 0x44, 0x07, 0x69, 0xb4, 0x24];
const NAV_UPDATED: [u8; 8] = [0xb6, 0x99, 0x8e, 0x1a, 0xcd, 0x18, 0x6e, 0x9a];
const WITHDRAWALS_STAGED: [u8; 8] = [0x46, 0x90, 0xa7, 0x3c, 0x9f, 0x6b, 0x19, 0xa7];
const CONFIG_UPDATED: [u8; 8] = [0x28, 0xf1, 0xe6, 0x7a, 0x0b, 0x13, 0xc6, 0xc2];
const PROTOCOL_INITIALIZED: [u8; 8] = [0xad, 0x7a, 0xa8, 0xfe, 0x09, 0x76, 0x4c, 0x84];
const ADMIN_PROPOSED: [u8; 8] = [0x81, 0xf9, 0xe2, 0xe3, 0xc7, 0x52, 0x6e, 0xf3];
const ADMIN_ACCEPTED: [u8; 8] = [0xae, 0x0c, 0x4c, 0x8b, 0x9e, 0x63, 0x6e, 0xfe];
const NAV_BOUNDS_UPDATED: [u8; 8] = [0xbf, 0xc3, 0x21, 0x1a, 0x33, 0x36, 0x02, 0xa1];
const MANAGER_PROPOSED: [u8; 8] = [0x85, 0xf5, 0xea, 0x11, 0x53, 0xb0, 0xfc, 0xf7];
const MANAGER_ACCEPTED: [u8; 8] = [0x94, 0xcb, 0x91, 0xce, 0x13, 0xb1, 0xa5, 0x9f];
const CONFIG_SCHEDULED: [u8; 8] = [0x3d, 0x39, 0x39, 0xed, 0x50, 0xb0, 0xe3, 0x97];
const VAULT_PERIODS_UPDATED: [u8; 8] = [0x13, 0x6a, 0x15, 0x34, 0xa1, 0x9c, 0x17, 0x4f];
const SURPLUS_RETAINED: [u8; 8] = [0x30, 0xc7, 0xc5, 0x7d, 0x18, 0x36, 0x97, 0x23];
const WITHDRAWAL_CANCELLED: [u8; 8] = [0x77, 0xaf, 0xcf, 0x50, 0xba, 0xed, 0xe5, 0x09];
const PARTNER_FEE_PAID: [u8; 8] = [0x9f, 0x2b, 0x92, 0xa8, 0x03, 0x86, 0xc4, 0x0f];
const MAX_PARTNER_FEE_UPDATED: [u8; 8] = [0x9d, 0x56, 0xfd, 0x9d, 0xb8, 0xac, 0xaa, 0xaf];

pub fn vault_initialized(vault_key: &Pubkey, vault: &Vault, now: i64) {
    let mut w = Writer::<192>::new(&VAULT_INITIALIZED);
    w.pubkey(vault_key);
    w.pubkey(&vault.protocol);
    w.pubkey(&vault.manager);
    w.pubkey(&vault.asset_mint);
    w.pubkey(&vault.share_mint);
    w.u64(vault.index);
    w.u8(vault.share_decimals);
    w.i64(now);
    emit(w.bytes());
}

/// Inlined: its six arguments exceed the five a BPF call can carry in registers.
#[inline(always)]
pub fn deposited(vault_key: &Pubkey, owner: &Pubkey, assets: u64, shares: u64, vault: &Vault, now: i64) {
    let mut w = Writer::<160>::new(&DEPOSITED);
    w.pubkey(vault_key);
    w.pubkey(owner);
    w.u64(assets);
    w.u64(shares);
    w.u64(vault.total_assets);
    w.u64(vault.total_shares);
    w.u64(vault.hourly_used);
    w.u64(vault.daily_used);
    w.i64(now);
    emit(w.bytes());
}

/// A deposit's partner fee: `assets` the depositor sent in all, `fee` of them (`fee_bps`, rounded down)
/// to the partner's associated token account, the rest deposited (the Deposited event beside it).
pub struct PartnerFee<'a> {
    pub vault: &'a Pubkey,
    pub owner: &'a Pubkey,
    pub partner: &'a Pubkey,
    pub assets: u64,
    pub fee: u64,
    pub fee_bps: u16,
}

pub fn partner_fee_paid(paid: &PartnerFee, now: i64) {
    let mut w = Writer::<136>::new(&PARTNER_FEE_PAID);
    w.pubkey(paid.vault);
    w.pubkey(paid.owner);
    w.pubkey(paid.partner);
    w.u64(paid.assets);
    w.u64(paid.fee);
    w.u16(paid.fee_bps);
    w.i64(now);
    emit(w.bytes());
}

pub fn withdrawal_requested(receipt: &WithdrawalReceipt, vault: &Vault) {
    let mut w = Writer::<184>::new(&WITHDRAWAL_REQUESTED);
    w.pubkey(&receipt.vault);
    w.pubkey(&receipt.owner);
    w.u64(receipt.request_id);
    w.u64(receipt.shares);
    w.u64(receipt.assets_at_request);
    w.u64(receipt.nav_floor);
    w.u64(receipt.queue_start);
    w.u64(receipt.queue_end);
    w.u16(receipt.fee_bps);
    w.u64(vault.hourly_used);
    w.u64(vault.daily_used);
    w.i64(receipt.requested_at);
    emit(w.bytes());
}

pub struct Claim {
    pub request_id: u64,
    pub shares: u64,
    pub gross: u64,
    pub fee: u64,
    pub net: u64,
}

pub fn withdrawal_claimed(vault_key: &Pubkey, owner: &Pubkey, claim: &Claim, vault: &Vault, now: i64) {
    let mut w = Writer::<160>::new(&WITHDRAWAL_CLAIMED);
    w.pubkey(vault_key);
    w.pubkey(owner);
    w.u64(claim.request_id);
    w.u64(claim.shares);
    w.u64(claim.gross);
    w.u64(claim.fee);
    w.u64(claim.net);
    w.u64(vault.total_assets);
    w.u64(vault.total_shares);
    w.i64(now);
    emit(w.bytes());
}

/// `shares` the request escrowed; `fee_shares` of them were burned as its fee, the rest came back.
pub fn withdrawal_cancelled(
    vault_key: &Pubkey,
    owner: &Pubkey,
    request_id: u64,
    shares: u64,
    fee_shares: u64,
    cancelled_at: i64,
) {
    let mut w = Writer::<104>::new(&WITHDRAWAL_CANCELLED);
    w.pubkey(vault_key);
    w.pubkey(owner);
    w.u64(request_id);
    w.u64(shares);
    w.u64(fee_shares);
    w.i64(cancelled_at);
    emit(w.bytes());
}

pub fn nav_updated(vault_key: &Pubkey, gain: u64, loss: u64, previous_total_assets: u64, vault: &Vault) {
    let mut w = Writer::<96>::new(&NAV_UPDATED);
    w.pubkey(vault_key);
    w.u64(vault.nav_sequence);
    w.u64(gain);
    w.u64(loss);
    w.u64(previous_total_assets);
    w.u64(vault.total_assets);
    w.u64(vault.total_shares);
    w.i64(vault.nav_updated_at);
    emit(w.bytes());
}

pub fn withdrawals_staged(vault_key: &Pubkey, staged_shares: u64, vault: &Vault, now: i64) {
    let mut w = Writer::<80>::new(&WITHDRAWALS_STAGED);
    w.pubkey(vault_key);
    w.u64(staged_shares);
    w.u64(vault.queue_funded);
    w.u64(vault.queue_tail);
    w.i64(now);
    emit(w.bytes());
}

/// The four fields holders' exits depend on, as ConfigUpdated and ConfigScheduled carry them.
fn config_fields<const N: usize>(w: &mut Writer<N>, config: &Config) {
    w.u16(config.fee_bps);
    w.u64(config.min_withdrawal_shares);
    w.u64(config.hourly_cap);
    w.u64(config.daily_cap);
}

/// The config in force with the pause: `paused`, its end `pause_until` (in force while now < it) and
/// `admin_paused` (the protocol admin's pause, which the manager cannot lift).
pub fn config_updated(vault_key: &Pubkey, vault: &Vault, now: i64) {
    let mut w = Writer::<128>::new(&CONFIG_UPDATED);
    w.pubkey(vault_key);
    config_fields(&mut w, &Config::current(vault));
    w.u8(vault.paused);
    w.i64(vault.pause_until);
    w.u8(vault.admin_paused);
    w.pubkey(&vault.name);
    w.i64(now);
    emit(w.bytes());
}

/// The config update_config scheduled: the fee, minimum and caps that apply at `effective_at` (0: the
/// pending config was withdrawn by an update that scheduled nothing).
pub fn config_scheduled(vault_key: &Pubkey, vault: &Vault, now: i64) {
    let mut w = Writer::<96>::new(&CONFIG_SCHEDULED);
    w.pubkey(vault_key);
    config_fields(&mut w, &Config::pending(vault));
    w.i64(vault.pending_effective_at);
    w.i64(now);
    emit(w.bytes());
}

pub fn vault_periods_updated(vault_key: &Pubkey, vault: &Vault, now: i64) {
    let mut w = Writer::<64>::new(&VAULT_PERIODS_UPDATED);
    w.pubkey(vault_key);
    w.u32(vault.config_notice_seconds);
    w.u32(vault.silence_seconds);
    w.i64(now);
    emit(w.bytes());
}

pub fn surplus_retained(vault_key: &Pubkey, assets: u64, vault: &Vault, now: i64) {
    let mut w = Writer::<64>::new(&SURPLUS_RETAINED);
    w.pubkey(vault_key);
    w.u64(assets);
    w.u64(vault.surplus_assets);
    w.i64(now);
    emit(w.bytes());
}

fn nav_bounds(w: &mut Writer<160>, protocol: &Protocol) {
    w.u16(protocol.max_gain_bps);
    w.u16(protocol.max_loss_bps);
    w.u32(protocol.min_nav_interval_seconds);
    w.u16(protocol.max_annual_gain_bps);
    w.u16(protocol.max_daily_loss_bps);
}

pub fn protocol_initialized(protocol_key: &Pubkey, protocol: &Protocol, now: i64) {
    let mut w = Writer::<160>::new(&PROTOCOL_INITIALIZED);
    w.pubkey(protocol_key);
    w.pubkey(&protocol.creator);
    w.pubkey(&protocol.admin);
    nav_bounds(&mut w, protocol);
    w.i64(now);
    emit(w.bytes());
}

pub fn nav_bounds_updated(protocol_key: &Pubkey, protocol: &Protocol, now: i64) {
    let mut w = Writer::<160>::new(&NAV_BOUNDS_UPDATED);
    w.pubkey(protocol_key);
    nav_bounds(&mut w, protocol);
    w.i64(now);
    emit(w.bytes());
}

pub fn max_partner_fee_updated(protocol_key: &Pubkey, protocol: &Protocol, now: i64) {
    let mut w = Writer::<56>::new(&MAX_PARTNER_FEE_UPDATED);
    w.pubkey(protocol_key);
    w.u16(protocol.max_partner_fee_bps);
    w.i64(now);
    emit(w.bytes());
}

/// A hand-over's event: the protocol or vault, then the keys it names, then the time.
fn keys_event(discriminator: &[u8; 8], keys: &[&Pubkey], now: i64) {
    let mut w = Writer::<144>::new(discriminator);
    for key in keys {
        w.pubkey(key);
    }
    w.i64(now);
    emit(w.bytes());
}

pub fn admin_proposed(protocol_key: &Pubkey, protocol: &Protocol, now: i64) {
    keys_event(&ADMIN_PROPOSED, &[protocol_key, &protocol.admin, &protocol.pending_admin], now);
}

pub fn admin_accepted(protocol_key: &Pubkey, previous_admin: &Pubkey, protocol: &Protocol, now: i64) {
    keys_event(&ADMIN_ACCEPTED, &[protocol_key, previous_admin, &protocol.admin], now);
}

pub fn manager_proposed(vault_key: &Pubkey, proposer: &Pubkey, vault: &Vault, now: i64) {
    keys_event(&MANAGER_PROPOSED, &[vault_key, proposer, &vault.manager, &vault.pending_manager], now);
}

pub fn manager_accepted(vault_key: &Pubkey, previous_manager: &Pubkey, vault: &Vault, now: i64) {
    keys_event(&MANAGER_ACCEPTED, &[vault_key, previous_manager, &vault.manager], now);
}
