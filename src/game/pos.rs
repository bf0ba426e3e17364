//! Points, colours and directions on a padded board array.
//!
//! A [`Pos`] is an index into a fixed-stride array that surrounds the largest
//! board (32x32) with [`PAD`] wall cells on every side, so that walking up to
//! five steps in any direction from an on-board point never leaves the array.
//! `x` is the column (0 = left), `y` the row as the protocol counts it
//! (0 = top row). See [`crate::game::notation`] for the one mapping to `h8`.

use std::fmt;

/// Largest board side the engine supports.
pub const MAX_SIZE: usize = 32;
/// Smallest board side the engine supports.
pub const MIN_SIZE: usize = 5;
/// Wall cells around the board on every side (the pattern window's reach).
pub const PAD: usize = 5;
/// Row stride of the padded array.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded array.
pub const CELLS: usize = STRIDE * STRIDE;

/// A point of the padded board array.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// A marker for "no point" (never on any board).
    pub const NONE: Pos = Pos(0);

    /// The point at column `x`, row `y` (both 0-based). Caller guarantees `x, y < MAX_SIZE`.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// Column, 0-based from the left.
    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    /// Row, 0-based as the protocol counts it (0 = top).
    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    /// Index into per-cell arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The king-move (Chebyshev) distance to `other`: the larger of the
    /// column and row differences.
    #[inline]
    pub const fn king_distance(self, other: Pos) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        if dx > dy { dx } else { dy }
    }

    /// The point `steps` cells away along `dir` (negative = backwards).
    #[inline]
    pub const fn offset(self, dir: Direction, steps: i32) -> Pos {
        Pos((self.0 as i32 + dir.delta() * steps) as u16)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Pos::NONE {
            write!(f, "Pos(none)")
        } else {
            write!(f, "Pos({},{})", self.x(), self.y())
        }
    }
}

/// A stone colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// The first player.
    Black = 1,
    /// The second player.
    White = 2,
}

impl Color {
    /// Both colours, black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }
}

/// What occupies a cell of the padded array.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Off the board.
    Wall = 3,
}

impl From<Color> for Cell {
    #[inline]
    fn from(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// One of the four line directions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Left to right.
    Horizontal = 0,
    /// Top to bottom.
    Vertical = 1,
    /// Top-left to bottom-right.
    Diagonal = 2,
    /// Top-right to bottom-left.
    AntiDiagonal = 3,
}

impl Direction {
    /// All four directions, in index order.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// Index step in the padded array for one cell along this direction.
    #[inline]
    pub const fn delta(self) -> i32 {
        match self {
            Direction::Horizontal => 1,
            Direction::Vertical => STRIDE as i32,
            Direction::Diagonal => STRIDE as i32 + 1,
            Direction::AntiDiagonal => STRIDE as i32 - 1,
        }
    }

    /// (dx, dy) of one step.
    #[inline]
    pub const fn dxdy(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (-1, 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_round_trips_coordinates() {
        for x in 0..MAX_SIZE {
            for y in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert_ne!(p, Pos::NONE);
            }
        }
    }

    #[test]
    fn king_distance_is_the_larger_coordinate_difference() {
        let p = Pos::new(7, 7);
        assert_eq!(p.king_distance(p), 0);
        assert_eq!(p.king_distance(Pos::new(9, 8)), 2);
        assert_eq!(Pos::new(9, 8).king_distance(p), 2);
        assert_eq!(p.king_distance(Pos::new(0, 10)), 7);
        assert_eq!(p.king_distance(Pos::new(3, 3)), 4);
    }

    #[test]
    fn offsets_follow_dxdy() {
        let p = Pos::new(10, 10);
        for d in Direction::ALL {
            let (dx, dy) = d.dxdy();
            let q = p.offset(d, 3);
            assert_eq!(q.x() as i32, 10 + 3 * dx);
            assert_eq!(q.y() as i32, 10 + 3 * dy);
            assert_eq!(q.offset(d, -3), p);
        }
    }
}
