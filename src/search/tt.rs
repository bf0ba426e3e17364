//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two atomic words: the data and the hash XOR the data. A torn
//! write (two threads storing at once) leaves a pair whose XOR no longer gives
//! the hash, so a probe rejects it instead of reading a mix of two positions.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::eval::Score;
use crate::game::Pos;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The true value is at least the score (a fail-high).
    Lower = 1,
    /// The true value is at most the score (a fail-low).
    Upper = 2,
    /// The score is exact.
    Exact = 3,
}

/// A probed entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Best or refuting move found (may be `Pos::NONE`).
    pub mv: Pos,
    /// Score, already adjusted to the probing ply for mate distances.
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Meaning of the score.
    pub bound: Bound,
}

/// Scores at or beyond this magnitude are wins or losses in some plies.
pub const WIN_BOUND: Score = 20_000;

/// Converts a score found `ply` plies from the root into one relative to the node.
#[inline]
fn to_tt(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

#[inline]
fn from_tt(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// The shared table.
pub struct TranspositionTable {
    slots: Box<[[AtomicU64; 2]]>,
    mask: u64,
    generation: AtomicU8,
}

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;

impl TranspositionTable {
    /// A table using at most `bytes` bytes (rounded down to a power of two
    /// number of entries, at least 1024 entries).
    pub fn new(bytes: usize) -> TranspositionTable {
        let entries = Self::bytes_for(bytes) / ENTRY_BYTES;
        // Zeroed memory straight from the allocator: pages are only touched
        // (and counted as resident) once the search writes to them.
        let words: Box<[u64]> = vec![0u64; 2 * entries].into_boxed_slice();
        // SAFETY: `AtomicU64` has the same size, alignment and bit validity as
        // `u64` (asserted below), and `[T; 2]` has no padding, so a boxed slice
        // of 2n `u64`s is a valid boxed slice of n `[AtomicU64; 2]`.
        const _: () = assert!(
            std::mem::size_of::<AtomicU64>() == 8 && std::mem::align_of::<AtomicU64>() == 8
        );
        let slots: Box<[[AtomicU64; 2]]> = unsafe {
            let raw = Box::into_raw(words) as *mut u64 as *mut [AtomicU64; 2];
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(raw, entries))
        };
        TranspositionTable {
            slots,
            mask: entries as u64 - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// The size in bytes a table asked for `bytes` gets.
    pub fn bytes_for(bytes: usize) -> usize {
        let wanted = (bytes / ENTRY_BYTES).max(1024);
        let entries = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        entries * ENTRY_BYTES
    }

    /// Memory used by the entries, in bytes.
    pub fn size_bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    /// Forgets everything (as good as a new table).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        (self.generation.load(Ordering::Relaxed) & 63) as u64
    }

    #[inline]
    fn slot(&self, hash: u64) -> &[AtomicU64; 2] {
        &self.slots[(hash & self.mask) as usize]
    }

    /// Asks the processor to bring the slot of `hash` into the cache, so that
    /// a probe made a little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slot(hash) as *const [AtomicU64; 2] as *const i8;
            // SAFETY: a prefetch is a hint: it never faults and has no effect
            // on the program's state; `p` points into the table anyway.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Looks `hash` up; `ply` is the probing node's distance from the root.
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Entry> {
        let s = self.slot(hash);
        let data = s[1].load(Ordering::Relaxed);
        let check = s[0].load(Ordering::Relaxed);
        if check ^ data != hash || data == 0 {
            return None;
        }
        let bound = match (data >> 40) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => Bound::None,
        };
        Some(Entry {
            mv: Pos((data & 0xFFFF) as u16),
            score: from_tt((data >> 16) as u16 as i16 as Score, ply),
            depth: ((data >> 32) as u8 as i8) as i32,
            bound,
        })
    }

    /// Stores a result for `hash`.
    pub fn store(&self, hash: u64, ply: usize, mv: Pos, score: Score, depth: i32, bound: Bound) {
        let s = self.slot(hash);
        let old = s[1].load(Ordering::Relaxed);
        let old_hash = s[0].load(Ordering::Relaxed) ^ old;
        let generation = self.generation();
        if old != 0 && old_hash == hash {
            let old_depth = ((old >> 32) as u8 as i8) as i32;
            if bound != Bound::Exact && depth + 2 < old_depth && (old >> 42) & 63 == generation {
                return;
            }
        }
        let mv = if mv == Pos::NONE && old_hash == hash {
            Pos((old & 0xFFFF) as u16)
        } else {
            mv
        };
        let score = to_tt(score, ply).clamp(i16::MIN as Score, i16::MAX as Score);
        let data = mv.0 as u64
            | ((score as i16 as u16 as u64) << 16)
            | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
            | ((bound as u64) << 40)
            | (generation << 42)
            | (1 << 48);
        s[0].store(hash ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1 << 20);
        assert_eq!(tt.size_bytes(), 1 << 20);
        let h = 0xDEAD_BEEF_1234_5678;
        assert!(tt.probe(h, 0).is_none());
        tt.store(h, 3, Pos::new(4, 5), -123, 7, Bound::Lower);
        let e = tt.probe(h, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Pos::new(4, 5), -123, 7, Bound::Lower)
        );
        assert!(tt.probe(h ^ 1 << 40, 3).is_none());
        tt.clear();
        assert!(tt.probe(h, 3).is_none());
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let tt = TranspositionTable::new(1 << 16);
        let win_in_5_from_root = 30_000 - 5;
        tt.store(42, 2, Pos::NONE, win_in_5_from_root, 3, Bound::Exact);
        // Found at ply 4 instead: the same node is then two plies further on.
        assert_eq!(tt.probe(42, 4).unwrap().score, 30_000 - 7);
    }

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let tt = TranspositionTable::new(3 << 20);
        assert!(tt.size_bytes() <= 3 << 20);
        assert!(tt.size_bytes() >= 3 << 19);
    }
}
