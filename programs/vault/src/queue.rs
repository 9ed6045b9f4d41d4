//! The withdrawal queue's arithmetic for cancellation and staging. The queue is cumulative in shares:
//! receipts own ranges [queue_start, queue_end) below `tail`, the reserve has been set aside for
//! [0, funded) and `claimed` counts the shares of that prefix already settled, so the funded, unsettled
//! shares (what stage_withdrawals holds back) are `funded − claimed`.
//!
//! A cancelled request leaves the queue without moving value and without delaying anyone behind it:
//! - wholly unfunded and last: the tail shrinks back to its start (and past a hole just before it);
//! - otherwise reached by the funded frontier (wholly or partly funded): it is settled as a claim would be
//!   (`claimed += shares`) and the frontier moves past it, so its funded part is idle again and the
//!   requests behind it keep the funding they had;
//! - wholly unfunded inside the queue: it becomes a hole (`QueueHoles`), which staging passes at no
//!   asset cost (`funded` jumps over it, `claimed += size`), so the requests behind it are funded by
//!   exactly the assets their own shares need.
//! `funded − claimed` then stays exactly the funded shares of live receipts: never understated.

use crate::error::{Result, VaultError};
use crate::math::{checked_add, checked_sub};
use crate::state::{QueueHoles, QueueRange, MAX_QUEUE_HOLES};

/// The vault's cumulative queue counters (queue_tail, queue_funded, queue_claimed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queue {
    pub tail: u64,
    pub funded: u64,
    pub claimed: u64,
}

/// What cancelling a request does to the queue, decided by where the funded frontier stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Reached by the frontier (funded at least from its start): settled as if claimed, the frontier
    /// moves past it.
    Settle,
    /// Wholly unfunded and last in the queue: the tail shrinks (first, even at the frontier).
    ShrinkTail,
    /// Wholly unfunded with requests behind it: a hole.
    Hole,
}

pub fn exit_of(queue: &Queue, start: u64, end: u64) -> Exit {
    if queue.funded <= start && end == queue.tail {
        Exit::ShrinkTail
    } else if queue.funded >= start {
        Exit::Settle
    } else {
        Exit::Hole
    }
}

impl QueueHoles {
    pub fn len(&self) -> usize {
        let count = self.count as usize;
        if count > MAX_QUEUE_HOLES {
            MAX_QUEUE_HOLES
        } else {
            count
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn position(&self, matches: impl Fn(QueueRange) -> bool) -> Option<usize> {
        (0..self.len()).find(|&i| matches(self.holes[i]))
    }

    pub fn starting_at(&self, at: u64) -> Option<usize> {
        self.position(|hole| hole.start == at)
    }

    pub fn ending_at(&self, at: u64) -> Option<usize> {
        self.position(|hole| hole.end == at)
    }

    /// The first hole after `at`, if any: where funding must stop to pass it.
    pub fn next_start_after(&self, at: u64) -> Option<u64> {
        let mut next: Option<u64> = None;
        for i in 0..self.len() {
            let start = self.holes[i].start;
            if start > at && next.is_none_or(|n| start < n) {
                next = Some(start);
            }
        }
        next
    }

    /// Removes hole `i` by moving the last one into its place (no shifting: order does not matter).
    pub fn remove(&mut self, i: usize) -> QueueRange {
        let hole = self.holes[i];
        let last = self.len() - 1;
        self.holes[i] = self.holes[last];
        self.holes[last] = QueueRange { start: 0, end: 0 };
        self.count = last as u8;
        hole
    }

    /// Records `range` as a hole, merged with a hole ending at its start or starting at its end (so a
    /// run of cancelled neighbours takes one slot); refused when a new slot is needed and none is left.
    pub fn insert(&mut self, range: QueueRange) -> Result<()> {
        match (self.ending_at(range.start), self.starting_at(range.end)) {
            (Some(before), Some(after)) => {
                let end = self.holes[after].end;
                self.holes[before].end = end;
                self.remove(after);
            }
            (Some(before), None) => self.holes[before].end = range.end,
            (None, Some(after)) => self.holes[after].start = range.start,
            (None, None) => {
                let len = self.len();
                if len >= MAX_QUEUE_HOLES {
                    return Err(VaultError::QueueHolesFull.into());
                }
                self.holes[len] = range;
                self.count = (len + 1) as u8;
            }
        }
        Ok(())
    }
}

/// Moves the funded frontier past any hole it has reached, settling the hole's shares at no cost.
pub fn pass_holes(queue: &mut Queue, holes: Option<&mut QueueHoles>) -> Result<()> {
    let Some(holes) = holes else { return Ok(()) };
    while let Some(i) = holes.starting_at(queue.funded) {
        let hole = holes.remove(i);
        queue.claimed = checked_add(queue.claimed, checked_sub(hole.end, hole.start)?)?;
        queue.funded = hole.end;
    }
    Ok(())
}

/// Takes the request [start, end) out of the queue (see the module comment). `holes` may be `None`
/// only when the vault has no hole list yet and the exit is not `Hole`.
pub fn cancel(queue: &mut Queue, holes: Option<&mut QueueHoles>, start: u64, end: u64) -> Result<()> {
    if start >= end || end > queue.tail {
        return Err(VaultError::InvalidAccountData.into());
    }
    match exit_of(queue, start, end) {
        Exit::Settle => {
            queue.claimed = checked_add(queue.claimed, end - start)?;
            if queue.funded < end {
                queue.funded = end;
            }
            pass_holes(queue, holes)
        }
        Exit::ShrinkTail => {
            queue.tail = start;
            if let Some(holes) = holes {
                if let Some(i) = holes.ending_at(start) {
                    queue.tail = holes.remove(i).start;
                }
            }
            Ok(())
        }
        Exit::Hole => match holes {
            Some(holes) => holes.insert(QueueRange { start, end }),
            None => Err(VaultError::InvalidAccount.into()),
        },
    }
}

/// Funds at most `budget` shares of live requests in FIFO order from the frontier, passing holes for
/// free; returns the shares funded (what the reserve pays for).
pub fn stage(queue: &mut Queue, mut holes: Option<&mut QueueHoles>, budget: u64) -> Result<u64> {
    let mut staged = 0u64;
    loop {
        pass_holes(queue, holes.as_deref_mut())?;
        if queue.funded >= queue.tail || staged == budget {
            return Ok(staged);
        }
        let stop = match holes.as_deref().and_then(|h| h.next_start_after(queue.funded)) {
            Some(start) if start < queue.tail => start,
            _ => queue.tail,
        };
        let room = stop - queue.funded;
        let left = budget - staged;
        let step = if room < left { room } else { left };
        queue.funded += step;
        staged += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn empty_holes() -> QueueHoles {
        // SAFETY: QueueHoles is plain integers and byte arrays; all-zero is a valid value.
        unsafe { core::mem::zeroed() }
    }

    fn ranges(holes: &QueueHoles) -> Vec<(u64, u64)> {
        let mut all: Vec<(u64, u64)> = (0..holes.len()).map(|i| (holes.holes[i].start, holes.holes[i].end)).collect();
        all.sort();
        all
    }

    #[test]
    fn a_funded_request_is_settled_and_its_funding_freed() {
        // A [0,100) funded, B [100,300) half funded, C [300,400) unfunded.
        let mut q = Queue { tail: 400, funded: 200, claimed: 0 };
        assert_eq!(exit_of(&q, 0, 100), Exit::Settle);
        cancel(&mut q, None, 0, 100).unwrap();
        assert_eq!(q, Queue { tail: 400, funded: 200, claimed: 100 });
        // B's funded half (100 shares) leaves the liabilities; C keeps its place at the frontier.
        cancel(&mut q, None, 100, 300).unwrap();
        assert_eq!(q, Queue { tail: 400, funded: 300, claimed: 300 });
        assert_eq!(q.funded - q.claimed, 0);
    }

    #[test]
    fn an_unfunded_request_becomes_a_hole_staging_passes_for_free() {
        let mut holes = empty_holes();
        // A [0,100) funded, B [100,200), C [200,300), D [300,400) unfunded.
        let mut q = Queue { tail: 400, funded: 100, claimed: 0 };
        cancel(&mut q, Some(&mut holes), 200, 300).unwrap();
        assert_eq!(ranges(&holes), vec![(200, 300)]);
        assert_eq!(q, Queue { tail: 400, funded: 100, claimed: 0 });
        // 150 shares of budget fund B (100) and D's first 50: the hole costs nothing.
        assert_eq!(stage(&mut q, Some(&mut holes), 150), Ok(150));
        assert_eq!(q, Queue { tail: 400, funded: 350, claimed: 100 });
        assert!(holes.is_empty());
        assert_eq!(q.funded - q.claimed, 250); // A 100 + B 100 + D 50
    }

    #[test]
    fn the_last_request_shrinks_the_tail_past_a_hole_before_it() {
        let mut holes = empty_holes();
        let mut q = Queue { tail: 400, funded: 0, claimed: 0 };
        cancel(&mut q, Some(&mut holes), 100, 300).unwrap();
        cancel(&mut q, Some(&mut holes), 300, 400).unwrap();
        assert_eq!(q, Queue { tail: 100, funded: 0, claimed: 0 });
        assert!(holes.is_empty());
    }

    #[test]
    fn neighbouring_holes_merge_and_a_full_list_refuses() {
        let mut holes = empty_holes();
        let mut q = Queue { tail: 10_000, funded: 0, claimed: 0 };
        // Requests of 10 shares each from 0; cancel every other one from 10: 16 separate holes.
        for k in 0..MAX_QUEUE_HOLES as u64 {
            cancel(&mut q, Some(&mut holes), 10 + 20 * k, 20 + 20 * k).unwrap();
        }
        assert_eq!(holes.len(), MAX_QUEUE_HOLES);
        assert_eq!(cancel(&mut q, Some(&mut holes), 1_000, 1_010), Err(VaultError::QueueHolesFull.into()));
        // A request between two holes joins them: one slot fewer.
        cancel(&mut q, Some(&mut holes), 20, 30).unwrap();
        assert_eq!(holes.len(), MAX_QUEUE_HOLES - 1);
        assert_eq!(ranges(&holes)[0], (10, 40));
        // So does one between [10, 40) and [50, 60); one beside a single hole extends it, no new slot.
        cancel(&mut q, Some(&mut holes), 40, 50).unwrap();
        assert_eq!(ranges(&holes)[0], (10, 60));
        assert_eq!(holes.len(), MAX_QUEUE_HOLES - 2);
        cancel(&mut q, Some(&mut holes), 320, 330).unwrap();
        assert_eq!(ranges(&holes).last(), Some(&(310, 330)));
        assert_eq!(holes.len(), MAX_QUEUE_HOLES - 2);
    }

    /// A request of the reference: its range and whether it is still live.
    #[derive(Clone, Debug)]
    struct Request {
        start: u64,
        end: u64,
        live: bool,
    }

    fn funded_part(r: &Request, funded: u64) -> u64 {
        let top = if funded < r.end { funded } else { r.end };
        top.saturating_sub(r.start)
    }

    /// Random requests, cancels, claims and stagings against a plain list of requests: the funded,
    /// unsettled count is exactly the live requests' funded shares, staging pays only for live shares,
    /// and a live request's funding never goes backwards.
    #[test]
    fn the_queue_matches_a_list_of_requests() {
        for seed in 1..400u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut holes = empty_holes();
            let mut q = Queue { tail: 0, funded: 0, claimed: 0 };
            let mut requests: Vec<Request> = Vec::new();
            for _ in 0..120 {
                let live: Vec<usize> = (0..requests.len()).filter(|&i| requests[i].live).collect();
                match rng.below(10) {
                    0..=3 => {
                        let shares = 1 + rng.below(50);
                        requests.push(Request { start: q.tail, end: q.tail + shares, live: true });
                        q.tail += shares;
                    }
                    4..=6 if !live.is_empty() => {
                        let i = live[rng.below(live.len() as u64) as usize];
                        let (start, end) = (requests[i].start, requests[i].end);
                        let before: Vec<u64> = requests.iter().map(|r| funded_part(r, q.funded)).collect();
                        match cancel(&mut q, Some(&mut holes), start, end) {
                            Ok(()) => requests[i].live = false,
                            Err(e) => {
                                assert_eq!(e, VaultError::QueueHolesFull.into());
                                assert_eq!(holes.len(), MAX_QUEUE_HOLES);
                                continue;
                            }
                        }
                        for (r, was) in requests.iter().zip(before) {
                            if r.live {
                                assert!(funded_part(r, q.funded) >= was, "seed {seed}: cancel unfunded {r:?}");
                            }
                        }
                    }
                    7 if !live.is_empty() => {
                        let i = live[rng.below(live.len() as u64) as usize];
                        if q.funded >= requests[i].end {
                            q.claimed += requests[i].end - requests[i].start;
                            requests[i].live = false;
                        }
                    }
                    _ => {
                        let budget = rng.below(120);
                        let before: u64 = requests.iter().filter(|r| r.live).map(|r| funded_part(r, q.funded)).sum();
                        let staged = stage(&mut q, Some(&mut holes), budget).unwrap();
                        let after: u64 = requests.iter().filter(|r| r.live).map(|r| funded_part(r, q.funded)).sum();
                        assert_eq!(after - before, staged, "seed {seed}: staging paid for a hole");
                        let unfunded: u64 =
                            requests.iter().filter(|r| r.live).map(|r| r.end - r.start - funded_part(r, q.funded)).sum();
                        assert!(staged == budget || unfunded == 0, "seed {seed}: staging stopped early");
                    }
                }
                let funded_live: u64 = requests.iter().filter(|r| r.live).map(|r| funded_part(r, q.funded)).sum();
                assert_eq!(q.funded - q.claimed, funded_live, "seed {seed}: liabilities count");
                assert!(q.claimed <= q.funded && q.funded <= q.tail);
                let hole_list = ranges(&holes);
                for w in hole_list.windows(2) {
                    assert!(w[0].1 < w[1].0, "seed {seed}: holes overlap or touch {hole_list:?}");
                }
                for &(start, end) in &hole_list {
                    assert!(start > q.funded && end < q.tail, "seed {seed}: hole {start}..{end} out of {q:?}");
                    assert!(requests.iter().all(|r| !r.live || r.end <= start || r.start >= end));
                }
            }
        }
    }
}
