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
    /// The node was on a principal variation when stored.
    pub pv: bool,
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
    slots: Slots,
    mask: u64,
    generation: AtomicU8,
}

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;

/// The fewest entries a table has.
pub const MIN_ENTRIES: usize = 1024;

/// The machine's memory in bytes (Linux: `MemTotal` of `/proc/meminfo`), if known.
pub fn physical_memory() -> Option<u64> {
    static MEMORY: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *MEMORY.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        kb.checked_mul(1024)
    })
}

/// Size of a huge page on x86-64 Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// The table's entries, zeroed, in memory of their own.
///
/// On Linux a table of at least a [`HUGE_PAGE`] is mapped directly (zeroed
/// by the kernel), aligned to a huge page and marked for huge pages
/// (`madvise(MADV_HUGEPAGE)`; the kernel's default `madvise` mode gives them
/// only to memory that asks). The kernel backs a page when the search first
/// writes to it: 64 faults for 128 MB instead of 32,768. Given 20 Renju
/// positions at 1 s, each to a fresh engine process (two threads), the engine
/// spent 12.8 s in the kernel against 15.0 s searching with 4 KB pages, and
/// 1.7 s against 22.4 s with huge pages; a probe, which lands anywhere in the
/// table, also misses the processor's address-translation cache far less
/// (about 11 % less time for the same nodes; docs/benchmarks.md).
struct Slots {
    ptr: std::ptr::NonNull<[AtomicU64; 2]>,
    len: usize,
    backing: Backing,
}

/// Where the entries of [`Slots`] live, for freeing them.
enum Backing {
    /// A mapping of its own: its start and length in bytes.
    #[cfg(target_os = "linux")]
    Mapped { base: *mut u8, bytes: usize },
    /// A zeroed allocation of the global allocator with this layout.
    Heap { layout: std::alloc::Layout },
}

// SAFETY: `Slots` owns its memory like a `Box<[[AtomicU64; 2]]>` would, and
// the entries are atomics, safe to share between threads.
unsafe impl Send for Slots {}
// SAFETY: as above.
unsafe impl Sync for Slots {}

const _: () = assert!(
    std::mem::size_of::<[AtomicU64; 2]>() == ENTRY_BYTES
        && std::mem::align_of::<[AtomicU64; 2]>() == 8
);

impl Slots {
    /// `len` zeroed entries (`len` >= 1), or `None` if the memory cannot be had.
    fn zeroed(len: usize) -> Option<Slots> {
        #[cfg(target_os = "linux")]
        if len * ENTRY_BYTES >= HUGE_PAGE
            && let Some(s) = Self::mapped(len)
        {
            return Some(s);
        }
        Self::on_heap(len)
    }

    /// A small table, or elsewhere (or if the mapping failed): a plain zeroed
    /// allocation; `None` if the allocator has no such memory.
    fn on_heap(len: usize) -> Option<Slots> {
        let layout = std::alloc::Layout::array::<[AtomicU64; 2]>(len).ok()?;
        // SAFETY: the layout has a non-zero size (`len` >= 1 entries of 16 bytes).
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        Some(Slots {
            ptr: std::ptr::NonNull::new(base.cast())?,
            len,
            backing: Backing::Heap { layout },
        })
    }

    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Slots> {
        let bytes = len * ENTRY_BYTES;
        let size = bytes.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        let mapped = size + HUGE_PAGE;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let base = base.cast::<u8>();
        let start = base.wrapping_add(base.align_offset(HUGE_PAGE));
        // SAFETY: `start..start + size` lies inside the mapping (it has a huge
        // page to spare for the alignment). The advice only changes how the
        // pages are backed; if it fails they are ordinary pages.
        unsafe { libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE) };
        Some(Slots {
            ptr: std::ptr::NonNull::new(start.cast()).expect("mmap gave a non-null address"),
            len,
            backing: Backing::Mapped {
                base,
                bytes: mapped,
            },
        })
    }
}

impl std::ops::Deref for Slots {
    type Target = [[AtomicU64; 2]];

    fn deref(&self) -> &[[AtomicU64; 2]] {
        // SAFETY: `ptr` holds `len` initialised entries for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        match self.backing {
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping made in `mapped`, unmapped only here.
            Backing::Mapped { base, bytes } => unsafe {
                libc::munmap(base.cast(), bytes);
            },
            // SAFETY: the allocation of `on_heap`, with its layout, freed only here.
            Backing::Heap { layout } => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), layout);
            },
        }
    }
}

impl TranspositionTable {
    /// A table using at most `bytes` bytes (see [`bytes_for`](Self::bytes_for)),
    /// zeroed, in memory of its own (huge pages on Linux). If the system
    /// cannot give that much memory, half as much is tried, and so on (with a
    /// warning on the log): a manager's memory limit may be more than the
    /// machine has.
    pub fn new(bytes: usize) -> TranspositionTable {
        let asked = Self::bytes_for(bytes);
        let mut entries = asked / ENTRY_BYTES;
        loop {
            if let Some(slots) = Slots::zeroed(entries) {
                if entries * ENTRY_BYTES < asked {
                    log::warn!(
                        "transposition table: {} MB asked, only {} MB could be had",
                        asked >> 20,
                        (entries * ENTRY_BYTES) >> 20
                    );
                }
                return TranspositionTable {
                    slots,
                    mask: entries as u64 - 1,
                    generation: AtomicU8::new(0),
                };
            }
            if entries <= MIN_ENTRIES {
                let layout = std::alloc::Layout::array::<[AtomicU64; 2]>(entries)
                    .expect("a small table's layout");
                std::alloc::handle_alloc_error(layout);
            }
            entries /= 2;
        }
    }

    /// The size in bytes a table asked for `bytes` gets: at most half the
    /// machine's memory ([`physical_memory`]), rounded down to a power of two
    /// number of entries, at least [`MIN_ENTRIES`] (unless the memory is not there).
    pub fn bytes_for(bytes: usize) -> usize {
        let cap =
            physical_memory().map_or(usize::MAX, |m| usize::try_from(m / 2).unwrap_or(usize::MAX));
        let wanted = (bytes.min(cap) / ENTRY_BYTES).max(MIN_ENTRIES);
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
            pv: (data >> 49) & 1 == 1,
        })
    }

    /// Stores a result for `hash`, with whether the node was on a principal variation.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        hash: u64,
        ply: usize,
        mv: Pos,
        score: Score,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
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
            | (1 << 48)
            | ((pv as u64) << 49);
        s[0].store(hash ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

impl TranspositionTable {
    /// Writes every stored entry to `w` as 16 bytes (its two words, little
    /// endian, as in memory: the hash XOR the data, then the data); returns
    /// how many. Meant for a table no search is writing to.
    pub fn write_entries(&self, w: &mut dyn std::io::Write) -> std::io::Result<u64> {
        let mut count = 0;
        for s in self.slots.iter() {
            let data = s[1].load(Ordering::Relaxed);
            if data == 0 {
                continue;
            }
            w.write_all(&s[0].load(Ordering::Relaxed).to_le_bytes())?;
            w.write_all(&data.to_le_bytes())?;
            count += 1;
        }
        Ok(count)
    }

    /// Reads entries written by [`write_entries`](Self::write_entries) up to
    /// the end of `r` and stores each in the slot its hash gives in this
    /// table (of any size), as if searched now; where two fall on one slot
    /// the deeper stays. Returns how many were read.
    ///
    /// # Errors
    ///
    /// A read error, or `InvalidData` for a record cut short or one that is
    /// not an entry (no bound, or the mark every stored entry has missing);
    /// the records read before it stay in the table.
    pub fn read_entries(&self, r: &mut dyn std::io::Read) -> std::io::Result<u64> {
        let generation = self.generation();
        let mut count = 0;
        let mut record = [0u8; ENTRY_BYTES];
        loop {
            let mut got = 0;
            while got < ENTRY_BYTES {
                match r.read(&mut record[got..]) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if got == 0 {
                return Ok(count);
            }
            let invalid = |what: &str| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("entry {} {what}", count + 1),
                )
            };
            if got < ENTRY_BYTES {
                return Err(invalid("is cut short"));
            }
            let check = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            let data = u64::from_le_bytes(record[8..].try_into().expect("8 bytes"));
            if (data >> 48) & 1 == 0 || (data >> 40) & 3 == 0 {
                return Err(invalid("is not a table entry"));
            }
            let hash = check ^ data;
            let data = (data & !(63 << 42)) | (generation << 42);
            let s = self.slot(hash);
            let old = s[1].load(Ordering::Relaxed);
            let depth_of = |d: u64| (d >> 32) as u8 as i8;
            if old == 0 || depth_of(old) <= depth_of(data) {
                s[0].store(hash ^ data, Ordering::Relaxed);
                s[1].store(data, Ordering::Relaxed);
            }
            count += 1;
        }
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
        tt.store(h, 3, Pos::new(4, 5), -123, 7, Bound::Lower, false);
        let e = tt.probe(h, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Pos::new(4, 5), -123, 7, Bound::Lower)
        );
        assert!(tt.probe(h ^ 1 << 40, 3).is_none());
        assert!(!e.pv);
        tt.store(h, 3, Pos::new(4, 5), -123, 7, Bound::Lower, true);
        let e = tt.probe(h, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.pv),
            (Pos::new(4, 5), -123, 7, true)
        );
        tt.clear();
        assert!(tt.probe(h, 3).is_none());
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let tt = TranspositionTable::new(1 << 16);
        let win_in_5_from_root = 30_000 - 5;
        tt.store(42, 2, Pos::NONE, win_in_5_from_root, 3, Bound::Exact, false);
        // Found at ply 4 instead: the same node is then two plies further on.
        assert_eq!(tt.probe(42, 4).unwrap().score, 30_000 - 7);
    }

    #[test]
    fn a_large_table_is_empty_and_usable_to_its_last_slot() {
        // 6 MB asked, 4 MB given: two huge pages of its own memory (see `Slots`).
        let tt = TranspositionTable::new(6 << 20);
        let n = tt.slots.len() as u64;
        assert_eq!(n * ENTRY_BYTES as u64, 4 << 20);
        assert!(tt.slots.iter().all(|s| s[0].load(Ordering::Relaxed) == 0));
        for h in [0x77 << 40, (0x77 << 40) | (n - 1)] {
            assert!(tt.probe(h, 0).is_none());
            tt.store(h, 0, Pos::new(1, 2), 55, 4, Bound::Exact, false);
            assert_eq!(tt.probe(h, 0).unwrap().score, 55);
        }
        drop(tt);
        // Freed and made again: empty again.
        let tt = TranspositionTable::new(6 << 20);
        assert!(tt.probe((0x77 << 40) | (n - 1), 0).is_none());
    }

    #[test]
    fn an_impossible_size_gets_what_the_machine_has() {
        // Far more than any machine: no abort, a table of at most half the
        // machine's memory (its pages are not touched, so it costs nothing).
        let tt = TranspositionTable::new(usize::MAX);
        assert!(tt.size_bytes() >= MIN_ENTRIES * ENTRY_BYTES);
        if let Some(m) = physical_memory() {
            assert!(
                tt.size_bytes() as u64 <= m / 2,
                "{} of {m}",
                tt.size_bytes()
            );
        }
        tt.store(12345, 0, Pos::new(3, 3), 9, 1, Bound::Exact, false);
        assert_eq!(tt.probe(12345, 0).unwrap().score, 9);
    }

    #[test]
    fn the_fallback_memory_is_zeroed_and_freed() {
        let slots = Slots::on_heap(1000).expect("a small allocation");
        assert_eq!(slots.len(), 1000);
        assert!(slots.iter().all(|s| s[1].load(Ordering::Relaxed) == 0));
        slots[999][1].store(7, Ordering::Relaxed);
        drop(slots);
    }

    #[test]
    fn entries_written_and_read_back_land_in_a_table_of_any_size() {
        let tt = TranspositionTable::new(1 << 20);
        let hashes = [0x1234_5678_9ABC_DEF0u64, 0x0FED_CBA9_8765_4321, 77];
        for (i, &h) in hashes.iter().enumerate() {
            tt.store(
                h,
                0,
                Pos::new(i, 2),
                10 * i as Score - 5,
                i as i32 + 1,
                Bound::Exact,
                i == 1,
            );
        }
        let mut bytes = Vec::new();
        assert_eq!(tt.write_entries(&mut bytes).unwrap(), 3);
        assert_eq!(bytes.len(), 3 * ENTRY_BYTES);
        for size in [1 << 16, 1 << 20, 1 << 22] {
            let other = TranspositionTable::new(size);
            other.new_search();
            assert_eq!(other.read_entries(&mut bytes.as_slice()).unwrap(), 3);
            for (i, &h) in hashes.iter().enumerate() {
                let e = other.probe(h, 0).expect("loaded");
                assert_eq!(
                    (e.mv, e.score, e.depth, e.bound, e.pv),
                    (
                        Pos::new(i, 2),
                        10 * i as Score - 5,
                        i as i32 + 1,
                        Bound::Exact,
                        i == 1
                    )
                );
            }
        }
    }

    #[test]
    fn a_damaged_entry_file_is_refused_after_the_good_entries() {
        let tt = TranspositionTable::new(1 << 16);
        tt.store(5, 0, Pos::new(1, 1), 3, 2, Bound::Lower, false);
        let mut bytes = Vec::new();
        tt.write_entries(&mut bytes).unwrap();
        let other = TranspositionTable::new(1 << 16);
        let cut = &bytes[..ENTRY_BYTES - 3];
        assert!(other.read_entries(&mut &cut[..]).is_err());
        let mut junk = bytes.clone();
        junk.extend_from_slice(&[0xAB; ENTRY_BYTES]);
        junk[ENTRY_BYTES + 14] = 0; // the entry mark (bit 48) cleared
        let err = other.read_entries(&mut junk.as_slice()).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(other.probe(5, 0).unwrap().score, 3);
        assert_eq!(other.read_entries(&mut &[][..]).unwrap(), 0);
    }

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let tt = TranspositionTable::new(3 << 20);
        assert!(tt.size_bytes() <= 3 << 20);
        assert!(tt.size_bytes() >= 3 << 19);
    }
}
