//! A set of points of the padded board array, as a bitset.

use super::pos::{CELLS, Pos};

const WORDS: usize = CELLS.div_ceil(64);

/// A set of points (any cells of the padded array), iterated in index order:
/// row by row from the top, left to right.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PointSet {
    words: [u64; WORDS],
}

impl Default for PointSet {
    fn default() -> PointSet {
        PointSet::new()
    }
}

impl PointSet {
    /// The empty set.
    pub const fn new() -> PointSet {
        PointSet { words: [0; WORDS] }
    }

    /// Adds `p`.
    #[inline]
    pub fn insert(&mut self, p: Pos) {
        self.words[p.index() / 64] |= 1 << (p.index() % 64);
    }

    /// Removes `p`.
    #[inline]
    pub fn remove(&mut self, p: Pos) {
        self.words[p.index() / 64] &= !(1 << (p.index() % 64));
    }

    /// Adds or removes `p`.
    #[inline]
    pub fn set(&mut self, p: Pos, present: bool) {
        if present {
            self.insert(p);
        } else {
            self.remove(p);
        }
    }

    /// Is `p` in the set?
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        self.words[p.index() / 64] & (1 << (p.index() % 64)) != 0
    }

    /// Is the set empty?
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The points in index order.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(Pos((i * 64 + b) as u16))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = PointSet::new();
        assert!(s.is_empty());
        let pts = [
            Pos::new(31, 31),
            Pos::new(0, 0),
            Pos::new(7, 7),
            Pos::new(8, 7),
        ];
        for p in pts {
            s.insert(p);
        }
        assert_eq!(s.len(), 4);
        let got: Vec<Pos> = s.iter().collect();
        let mut want = pts.to_vec();
        want.sort();
        assert_eq!(got, want);
        s.remove(Pos::new(7, 7));
        assert!(!s.contains(Pos::new(7, 7)) && s.contains(Pos::new(8, 7)));
        s.set(Pos::new(7, 7), true);
        assert!(s.contains(Pos::new(7, 7)));
    }
}
