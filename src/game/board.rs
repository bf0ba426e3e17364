//! The board: stones, incremental line patterns and threats, Zobrist hash,
//! make/undo, win detection and Renju forbidden points.

use std::fmt;

use super::pattern::{HALF, Pattern, PatternTable, key_shift};
use super::pointset::PointSet;
use super::pos::{CELLS, Cell, Color, Direction, MAX_SIZE, MIN_SIZE, Pos, STRIDE};
use super::rng::splitmix64;
use super::rule::Rule;
use super::threat::{Threat, ThreatTable};

/// Why a Renju black move is forbidden.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ForbiddenKind {
    /// Six or more in a row (长连).
    Overline,
    /// Two or more fours at once, possibly on one line (四四).
    DoubleFour,
    /// Two or more true threes at once (三三).
    DoubleThree,
}

impl ForbiddenKind {
    /// The short name used in records and messages: `overline`, `44`, `33`.
    pub const fn short(self) -> &'static str {
        match self {
            ForbiddenKind::Overline => "overline",
            ForbiddenKind::DoubleFour => "44",
            ForbiddenKind::DoubleThree => "33",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForbiddenKind::Overline => "overline",
            ForbiddenKind::DoubleFour => "double four",
            ForbiddenKind::DoubleThree => "double three",
        })
    }
}

/// What a Renju black stone's four line patterns alone say about its point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenjuShape {
    /// Not forbidden, whatever the rest of the board (a five, or at most one
    /// four, no overline and fewer than two threes).
    Legal,
    /// Forbidden by the patterns alone (overline, double four).
    Forbidden(ForbiddenKind),
    /// Two or more threes: forbidden if at least two of them are true threes.
    ThreesToCheck,
}

/// Judges a Renju black point by its four line patterns `pats` (see [`RenjuShape`]).
pub fn renju_shape(pats: &[Pattern; 4]) -> RenjuShape {
    if pats.contains(&Pattern::F5) {
        return RenjuShape::Legal;
    }
    if pats.contains(&Pattern::Overline) {
        return RenjuShape::Forbidden(ForbiddenKind::Overline);
    }
    let fours: usize = pats
        .iter()
        .map(|&p| match p {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        })
        .sum();
    if fours >= 2 {
        return RenjuShape::Forbidden(ForbiddenKind::DoubleFour);
    }
    if pats.iter().filter(|p| p.is_three()).count() < 2 {
        return RenjuShape::Legal;
    }
    RenjuShape::ThreesToCheck
}

/// What is wrong with a request to the board. The board is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardError {
    /// Board dimensions outside 5..=32.
    BadSize {
        /// Requested width.
        width: i64,
        /// Requested height.
        height: i64,
    },
    /// A point outside the board.
    OffBoard {
        /// Column asked for.
        x: i64,
        /// Row asked for.
        y: i64,
    },
    /// A point that already holds a stone.
    Occupied {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A point that holds no stone (when removing one).
    NoStone {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// Undo on an empty board.
    NothingToUndo,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardError::BadSize { width, height } => write!(
                f,
                "board size {width}x{height} not supported (sides must be {MIN_SIZE}..={MAX_SIZE})"
            ),
            BoardError::OffBoard { x, y } => write!(f, "point {x},{y} is off the board"),
            BoardError::Occupied { x, y } => write!(f, "point {x},{y} is occupied"),
            BoardError::NoStone { x, y } => write!(f, "point {x},{y} holds no stone"),
            BoardError::NothingToUndo => write!(f, "no stone to take back"),
        }
    }
}

impl std::error::Error for BoardError {}

/// Zobrist keys per colour and cell.
static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut z = [[0u64; CELLS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            z[c][i] = splitmix64(((c * CELLS + i) as u64).wrapping_mul(0x1234_5678_9ABC_DEF1));
            i += 1;
        }
        c += 1;
    }
    z
};

/// Hashed in when a pass has changed the side to move.
const PASS_KEY: u64 = splitmix64(0x005E_ED0F_7A55);

/// The threat levels whose points the board keeps as sets (see `urgent_set`).
pub const URGENT_LEVELS: [Threat; 3] = [Threat::Five, Threat::Four, Threat::Three];

/// Array step of one cell along each direction, in `Direction` order.
const DELTAS: [usize; 4] = [
    Direction::Horizontal.delta() as usize,
    Direction::Vertical.delta() as usize,
    Direction::Diagonal.delta() as usize,
    Direction::AntiDiagonal.delta() as usize,
];

/// The furthest array distance `update_lines` reaches from a point.
const LINE_REACH: usize = HALF as usize * (STRIDE + 1);

/// `UPDATE_SHIFTS[k]`: where a stone sits in the line key of the cell `k`
/// steps before it (`[0]`, the stone is at `+k`) and after it (`[1]`, at `-k`).
const UPDATE_SHIFTS: [[u32; 2]; 6] = {
    let mut t = [[0u32; 2]; 6];
    let mut k = 1;
    while k <= HALF as usize {
        t[k] = [key_shift(k as i32), key_shift(-(k as i32))];
        k += 1;
    }
    t
};

/// The 5x5 neighbourhood (minus the centre) whose points become candidates
/// when a stone is placed.
const NEAR: [i32; 24] = {
    let mut n = [0i32; 24];
    let mut i = 0;
    let mut dy = -2;
    while dy <= 2 {
        let mut dx = -2;
        while dx <= 2 {
            if dx != 0 || dy != 0 {
                n[i] = dy * STRIDE as i32 + dx;
                i += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    n
};

/// A position with everything the search needs kept up to date incrementally.
///
/// Cloning is cheap enough (about 45 KB) for every search thread to own one.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: Box<[Cell]>,
    /// Line key of every cell per direction (kept for occupied cells too).
    keys: Box<[[u32; 4]]>,
    /// Line patterns of every cell: black's four directions in the low 16 bits
    /// (direction d at bits 4d), white's in the high 16.
    pats: Box<[u32]>,
    /// Threat class per cell, black then white.
    threats: Box<[[Threat; 2]]>,
    /// Number of stones in each cell's 5x5 neighbourhood.
    near: Box<[u8]>,
    /// Per colour, how many empty points have each threat class.
    threat_counts: [[u16; 16]; 2],
    /// Per colour, the empty points with a threat of at least
    /// [`URGENT_LEVELS`]`[k]` (five, four, three).
    urgent: [[PointSet; 3]; 2],
    hash: u64,
    history: Vec<(Pos, Color)>,
    /// Undo journal: (cell, patterns, threats) of every empty cell a move
    /// changed, as they were before it, so `undo` restores instead of recomputing.
    journal: Vec<(u32, u32, [Threat; 2])>,
    /// Journal length and shape sums before each of the last `marks.len()`
    /// moves (cleared by `remove`).
    marks: Vec<(u32, [[i32; 2]; 2])>,
    counts: [usize; 2],
    /// Passes (null moves) made in search: added to black's count when
    /// deciding whose turn it is (see [`Board::make_null`]).
    tempo: isize,
    table: &'static PatternTable,
    threat_tables: [&'static ThreatTable; 2],
    /// Per colour, the shape tables and their values summed over the empty
    /// points (see [`ShapeTable`]).
    shapes: [&'static ShapeTable; 2],
    shape_sums: [[i32; 2]; 2],
}

/// Values of one colour's four line patterns at an empty point, indexed by
/// the packed patterns (as [`Board::packed_patterns`] gives them), for two
/// roles (`[0]`, `[1]`; the evaluation uses them for the side to move and the
/// opponent). The board keeps their sums over its empty points up to date.
/// Entry 0 (four dead lines) must be zero: it also stands for occupied points.
pub type ShapeTable = [[i16; 2]; 1 << 16];

/// Whose turn it is with `counts` stones of each colour and `tempo` passes
/// (see [`Board::make_null`]): black when the colours are level, else white.
#[inline]
fn side_for(counts: [usize; 2], tempo: isize) -> Color {
    if counts[0] as isize + tempo <= counts[1] as isize {
        Color::Black
    } else {
        Color::White
    }
}

/// The table of no values (the default).
static NO_SHAPES: ShapeTable = [[0; 2]; 1 << 16];

impl Board {
    /// Whether a `width` x `height` board can be made (sides 5..=32).
    pub fn check_size(width: usize, height: usize) -> Result<(), BoardError> {
        let ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
        if ok(width) && ok(height) {
            Ok(())
        } else {
            Err(BoardError::BadSize {
                width: width as i64,
                height: height as i64,
            })
        }
    }

    /// An empty `width` x `height` board under `rule`.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        Board::check_size(width, height)?;
        let mut cells = vec![Cell::Wall; CELLS].into_boxed_slice();
        for y in 0..height {
            for x in 0..width {
                cells[Pos::new(x, y).index()] = Cell::Empty;
            }
        }
        let mut board = Board {
            width,
            height,
            rule,
            cells,
            keys: vec![[0u32; 4]; CELLS].into_boxed_slice(),
            pats: vec![0u32; CELLS].into_boxed_slice(),
            threats: vec![[Threat::None; 2]; CELLS].into_boxed_slice(),
            near: vec![0u8; CELLS].into_boxed_slice(),
            threat_counts: [[0; 16]; 2],
            urgent: Default::default(),
            hash: 0,
            history: Vec::with_capacity(width * height),
            journal: Vec::with_capacity(64 * width * height),
            marks: Vec::with_capacity(width * height),
            counts: [0, 0],
            tempo: 0,
            table: PatternTable::get(rule),
            threat_tables: [
                ThreatTable::get(rule.has_forbidden()),
                ThreatTable::get(false),
            ],
            shapes: [&NO_SHAPES; 2],
            shape_sums: [[0; 2]; 2],
        };
        for p in board.points().collect::<Vec<_>>() {
            for d in Direction::ALL {
                let mut key = 0u32;
                for k in (-HALF..0).chain(1..=HALF) {
                    key |= (board.cells[p.offset(d, k).index()] as u32) << key_shift(k);
                }
                board.keys[p.index()][d as usize] = key;
            }
        }
        let none = Threat::None as usize;
        for p in board.points().collect::<Vec<_>>() {
            // set_threats moves a point from its old class to its new one, so
            // every point starts counted as `None`.
            board.threat_counts[0][none] += 1;
            board.threat_counts[1][none] += 1;
            board.refresh_cell(p);
        }
        Ok(board)
    }

    /// Board width (columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule being played.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Is `(x, y)` on this board?
    #[inline]
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as u64) < self.width as u64 && (y as u64) < self.height as u64
    }

    /// The point `(x, y)`, or an error if it is off the board.
    pub fn pos(&self, x: i64, y: i64) -> Result<Pos, BoardError> {
        if self.contains(x, y) {
            Ok(Pos::new(x as usize, y as usize))
        } else {
            Err(BoardError::OffBoard { x, y })
        }
    }

    /// Is `p` a point of this board (not a wall cell)?
    #[inline]
    pub fn on_board(&self, p: Pos) -> bool {
        p.index() < CELLS && self.cells[p.index()] != Cell::Wall
    }

    /// What is on `p` (walls outside the board).
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.index()]
    }

    /// Is `p` an empty point of the board?
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == Cell::Empty
    }

    /// Every point of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// Zobrist hash of the stones and, after a null move, of the side to move
    /// (otherwise it follows from the counts).
    #[inline]
    pub fn hash(&self) -> u64 {
        if self.side_to_move() == self.side_by_counts() {
            self.hash
        } else {
            self.hash ^ PASS_KEY
        }
    }

    /// The [`hash`](Board::hash) the board will have once the side to move
    /// plays `p` (so that a table entry can be fetched before the move is made).
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        let me = self.side_to_move();
        let mut counts = self.counts;
        counts[me.index()] += 1;
        let stones = self.hash ^ ZOBRIST[me.index()][p.index()];
        if side_for(counts, self.tempo) == side_for(counts, 0) {
            stones
        } else {
            stones ^ PASS_KEY
        }
    }

    /// Stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// Stones of one colour on the board.
    #[inline]
    pub fn count(&self, color: Color) -> usize {
        self.counts[color.index()]
    }

    /// Is every point occupied?
    #[inline]
    pub fn is_full(&self) -> bool {
        self.history.len() == self.width * self.height
    }

    /// The stones in the order they were placed.
    #[inline]
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    /// The last stone placed.
    #[inline]
    pub fn last_move(&self) -> Option<(Pos, Color)> {
        self.history.last().copied()
    }

    /// Whose turn it is: black when the colours are level, else white.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        side_for(self.counts, self.tempo)
    }

    fn side_by_counts(&self) -> Color {
        side_for(self.counts, 0)
    }

    /// Passes the turn (a null move for the search); undo it with
    /// [`Board::undo_null`] before any other undo.
    #[inline]
    pub fn make_null(&mut self) {
        self.tempo += match self.side_to_move() {
            Color::Black => 1,
            Color::White => -1,
        };
    }

    /// Takes back the pass made by [`Board::make_null`].
    #[inline]
    pub fn undo_null(&mut self) {
        self.tempo -= match self.side_to_move() {
            Color::White => 1,
            Color::Black => -1,
        };
    }

    /// Places a stone of `color` on `p`, checking that `p` is an empty point.
    pub fn put(&mut self, p: Pos, color: Color) -> Result<(), BoardError> {
        if !self.on_board(p) {
            return Err(BoardError::OffBoard {
                x: p.x() as i64,
                y: p.y() as i64,
            });
        }
        if !self.is_empty(p) {
            return Err(BoardError::Occupied { x: p.x(), y: p.y() });
        }
        self.make_color(p, color);
        Ok(())
    }

    /// Places the side to move's stone on `p`, checking that `p` is an empty point.
    pub fn play(&mut self, p: Pos) -> Result<(), BoardError> {
        self.put(p, self.side_to_move())
    }

    /// Places the side to move's stone on the empty point `p` (unchecked).
    #[inline]
    pub fn make(&mut self, p: Pos) {
        self.make_color(p, self.side_to_move());
    }

    /// Places a `color` stone on the empty point `p` (unchecked).
    #[inline]
    pub fn make_color(&mut self, p: Pos, color: Color) {
        debug_assert!(self.on_board(p) && self.is_empty(p), "make on {p:?}");
        self.marks
            .push((self.journal.len() as u32, self.shape_sums));
        self.set_stone(p, color);
        self.history.push((p, color));
        self.counts[color.index()] += 1;
    }

    /// Takes back the last stone.
    #[inline]
    pub fn undo(&mut self) -> Result<(Pos, Color), BoardError> {
        let (p, color) = self.history.pop().ok_or(BoardError::NothingToUndo)?;
        self.counts[color.index()] -= 1;
        match self.marks.pop() {
            Some((mark, shape_sums)) => {
                self.restore_stone(p, color, mark as usize);
                self.shape_sums = shape_sums;
            }
            None => self.clear_stone(p),
        }
        Ok((p, color))
    }

    /// Removes the stone on `p`, wherever it stands in the move order.
    pub fn remove(&mut self, p: Pos) -> Result<Color, BoardError> {
        let i = self
            .history
            .iter()
            .rposition(|&(q, _)| q == p)
            .ok_or(BoardError::NoStone {
                x: if self.on_board(p) { p.x() } else { 0 },
                y: if self.on_board(p) { p.y() } else { 0 },
            })?;
        let (_, color) = self.history.remove(i);
        self.counts[color.index()] -= 1;
        // The journal describes the moves in order; it is void once one is taken out.
        self.journal.clear();
        self.marks.clear();
        self.clear_stone(p);
        Ok(color)
    }

    fn set_stone(&mut self, p: Pos, color: Color) {
        self.journal
            .push((p.0 as u32, self.pats[p.index()], self.threats[p.index()]));
        // An occupied point has no shape value (its patterns stay as they were).
        self.account_shapes(self.pats[p.index()], 0);
        // An occupied point counts as threat `None` until it is empty again.
        for c in 0..2 {
            self.threat_counts[c][self.threats[p.index()][c] as usize] -= 1;
            self.threat_counts[c][Threat::None as usize] += 1;
            for set in &mut self.urgent[c] {
                set.remove(p);
            }
        }
        self.threats[p.index()] = [Threat::None; 2];
        self.cells[p.index()] = Cell::from(color);
        self.hash ^= ZOBRIST[color.index()][p.index()];
        if self.rule.far_cells_matter() {
            self.update_lines::<true, true>(p, color as u32);
        } else {
            self.update_lines::<true, false>(p, color as u32);
        }
        for off in NEAR {
            self.near[(p.0 as i32 + off) as usize] += 1;
        }
    }

    fn clear_stone(&mut self, p: Pos) {
        let color = match self.cells[p.index()] {
            Cell::Black => Color::Black,
            _ => Color::White,
        };
        self.cells[p.index()] = Cell::Empty;
        self.hash ^= ZOBRIST[color.index()][p.index()];
        if self.rule.far_cells_matter() {
            self.update_lines::<false, true>(p, 0);
        } else {
            self.update_lines::<false, false>(p, 0);
        }
        for off in NEAR {
            self.near[(p.0 as i32 + off) as usize] -= 1;
        }
        self.refresh_cell(p);
    }

    /// Takes the last move's stone `color` off `p` by replaying the journal
    /// from `mark` backwards (the inverse of `set_stone`, without lookups).
    fn restore_stone(&mut self, p: Pos, color: Color, mark: usize) {
        self.cells[p.index()] = Cell::Empty;
        self.hash ^= ZOBRIST[color.index()][p.index()];
        let base = p.index();
        assert!(base >= LINE_REACH && base + LINE_REACH < CELLS);
        for (d, &delta) in DELTAS.iter().enumerate() {
            for (k, &[before, after]) in UPDATE_SHIFTS.iter().enumerate().skip(1) {
                self.keys[base - k * delta][d] &= !(3 << before);
                self.keys[base + k * delta][d] &= !(3 << after);
            }
        }
        for off in NEAR {
            self.near[(p.0 as i32 + off) as usize] -= 1;
        }
        while self.journal.len() > mark {
            let (i, pats, threats) = self.journal.pop().expect("journal entry");
            let i = i as usize;
            self.pats[i] = pats;
            self.put_threats(i, threats);
        }
    }

    /// Puts (`SET`) or clears the stone of value `v` on `p` in the line keys
    /// of the 40 cells that see it and refreshes the patterns and threats of
    /// the empty ones (those of stones and walls are never read; a point that
    /// becomes empty again is refreshed whole by `clear_stone`). With `SET`
    /// the old values of every changed cell go to the undo journal.
    ///
    /// The pattern-table lookups of all 40 cells are made first, in one loop
    /// whose loads do not depend on each other, so the processor can have many
    /// of them in flight (the table is larger than the L2 cache); the cells are
    /// then updated in a second loop.
    ///
    /// With `FAR` false (the rule's [`Rule::far_cells_matter`] says no) the
    /// cells five steps away keep their patterns: only their keys change.
    #[inline(always)]
    fn update_lines<const SET: bool, const FAR: bool>(&mut self, p: Pos, v: u32) {
        const N: usize = 8 * HALF as usize;
        let base = p.index();
        assert!(base >= LINE_REACH && base + LINE_REACH < CELLS);
        let mut cells = [0u16; N];
        let mut packs = [0u8; N];
        let mut dirs = [0u8; N];
        let mut n = 0;
        for (d, &delta) in DELTAS.iter().enumerate() {
            for (k, &[before, after]) in UPDATE_SHIFTS.iter().enumerate().skip(1) {
                for (q, shift) in [(base - k * delta, before), (base + k * delta, after)] {
                    // SAFETY: `q` is within HALF steps of an on-board point
                    // (asserted above), inside the padded array; `d < 4`.
                    let key = unsafe { self.keys.get_unchecked_mut(q).get_unchecked_mut(d) };
                    if SET {
                        *key |= v << shift;
                    } else {
                        *key &= !(3 << shift);
                    }
                    let key = *key;
                    // SAFETY: as above.
                    if (FAR || k < HALF as usize)
                        && unsafe { *self.cells.get_unchecked(q) } == Cell::Empty
                    {
                        cells[n] = q as u16;
                        packs[n] = self.table.packed(key);
                        dirs[n] = d as u8;
                        n += 1;
                    }
                }
            }
        }
        for j in 0..n {
            let i = cells[j] as usize;
            let packed = packs[j] as u32;
            let shift = 4 * dirs[j] as u32;
            let mask = !((15 << shift) | (15 << (shift + 16)));
            // SAFETY: `i` is one of the cells above.
            let slot = unsafe { self.pats.get_unchecked_mut(i) };
            let old = *slot;
            let pats = (old & mask) | ((packed & 15) << shift) | ((packed >> 4) << (shift + 16));
            if pats != old {
                *slot = pats;
                if SET {
                    self.journal.push((i as u32, old, self.threats[i]));
                }
                self.account_shapes(old, pats);
                self.set_threats(i, pats);
            }
        }
    }

    /// Moves the shape sums from an empty point's patterns `old` to `new`.
    #[inline(always)]
    fn account_shapes(&mut self, old: u32, new: u32) {
        for c in 0..2 {
            let (o, n) = ((old >> (16 * c)) as u16, (new >> (16 * c)) as u16);
            if o != n {
                let t = self.shapes[c];
                let (a, b) = (t[o as usize], t[n as usize]);
                self.shape_sums[c][0] += b[0] as i32 - a[0] as i32;
                self.shape_sums[c][1] += b[1] as i32 - a[1] as i32;
            }
        }
    }

    /// Recomputes all patterns and threats of the empty point `p`.
    fn refresh_cell(&mut self, p: Pos) {
        let i = p.index();
        let mut pats = 0u32;
        for d in Direction::ALL {
            let packed = self.table.packed(self.keys[i][d as usize]) as u32;
            let shift = 4 * d as u32;
            pats |= ((packed & 15) << shift) | ((packed >> 4) << (shift + 16));
        }
        self.pats[i] = pats;
        // The point was occupied (or new): it had no shape value.
        self.account_shapes(0, pats);
        self.set_threats(i, pats);
    }

    #[inline(always)]
    fn set_threats(&mut self, i: usize, pats: u32) {
        let new = [
            self.threat_tables[0].lookup(pats as u16),
            self.threat_tables[1].lookup((pats >> 16) as u16),
        ];
        self.put_threats(i, new);
    }

    /// Sets the threats of cell `i`, keeping the counts and urgent sets.
    #[inline(always)]
    fn put_threats(&mut self, i: usize, new: [Threat; 2]) {
        // SAFETY: `i` indexes the padded array (see `update_lines`).
        let slot = unsafe { self.threats.get_unchecked_mut(i) };
        let old = *slot;
        if old == new {
            return;
        }
        *slot = new;
        for c in 0..2 {
            if old[c] == new[c] {
                continue;
            }
            self.threat_counts[c][old[c] as usize] -= 1;
            self.threat_counts[c][new[c] as usize] += 1;
            if old[c] >= Threat::Three || new[c] >= Threat::Three {
                let p = Pos(i as u16);
                for (set, level) in self.urgent[c].iter_mut().zip(URGENT_LEVELS) {
                    set.set(p, new[c] >= level);
                }
            }
        }
    }

    /// The pattern a `color` stone on the empty point `p` makes along `d`.
    #[inline]
    pub fn pattern(&self, p: Pos, color: Color, d: Direction) -> Pattern {
        Pattern::from_u8(
            ((self.pats[p.index()] >> (16 * color.index() + 4 * d as usize)) & 15) as u8,
        )
    }

    /// The four line patterns (packed as by [`Self::packed_patterns`]) a
    /// `color` stone on the empty point `p` would make if the empty point `q`
    /// held a `stone` stone, or `None` when `q` is not on one of `p`'s lines
    /// within a line key's reach (so it cannot change them). Answers without
    /// making the move: one pattern lookup.
    pub fn patterns_with_stone(&self, p: Pos, color: Color, q: Pos, stone: Color) -> Option<u16> {
        debug_assert!(self.is_empty(p) && self.is_empty(q));
        let dx = q.x() as i32 - p.x() as i32;
        let dy = q.y() as i32 - p.y() as i32;
        let (d, k) = if dy == 0 {
            (Direction::Horizontal, dx)
        } else if dx == 0 {
            (Direction::Vertical, dy)
        } else if dx == dy {
            (Direction::Diagonal, dy)
        } else if dx == -dy {
            (Direction::AntiDiagonal, dy)
        } else {
            return None;
        };
        if k == 0 || k.abs() > HALF {
            return None;
        }
        let key = self.keys[p.index()][d as usize] | (stone as u32) << key_shift(k);
        let pattern = self.table.pattern(key, color) as u16;
        let shift = 4 * d as u32;
        Some((self.packed_patterns(p, color) & !(15 << shift)) | (pattern << shift))
    }

    /// The threat class of `color`'s four packed line patterns `pats` (as
    /// [`Self::packed_patterns`] gives them), under this board's rule.
    #[inline]
    pub fn threat_of_patterns(&self, color: Color, pats: u16) -> Threat {
        self.threat_tables[color.index()].lookup(pats)
    }

    /// The threat class a `color` stone on the empty point `p` would make if
    /// the empty point `q` held a `stone` stone, or `None` when `q` is out of
    /// `p`'s sight (see [`Self::patterns_with_stone`]).
    pub fn threat_with_stone(&self, p: Pos, color: Color, q: Pos, stone: Color) -> Option<Threat> {
        self.patterns_with_stone(p, color, q, stone)
            .map(|pats| self.threat_of_patterns(color, pats))
    }

    /// The four line patterns of a `color` stone on the empty point `p`, packed
    /// four bits per direction (direction `d` at bits `4d`).
    #[inline]
    pub fn packed_patterns(&self, p: Pos, color: Color) -> u16 {
        (self.pats[p.index()] >> (16 * color.index())) as u16
    }

    /// Uses `tables` (black's, white's) for the shape sums, recomputing them.
    pub fn set_shape_tables(&mut self, tables: [&'static ShapeTable; 2]) {
        assert!(
            tables.iter().all(|t| t[0] == [0, 0]),
            "entry 0 must be zero"
        );
        self.shapes = tables;
        self.shape_sums = self.shape_sums_of(tables);
        // Sums before earlier moves are unknown: undo recomputes them.
        self.marks.clear();
        self.journal.clear();
    }

    /// Per colour, the values of `tables` (black's, white's) in both roles
    /// summed afresh over the empty points (what the running sums hold when
    /// the board uses `tables`).
    pub fn shape_sums_of(&self, tables: [&ShapeTable; 2]) -> [[i32; 2]; 2] {
        let mut sums = [[0; 2]; 2];
        for i in (0..CELLS).filter(|&i| self.cells[i] == Cell::Empty) {
            for (c, (sum, table)) in sums.iter_mut().zip(tables).enumerate() {
                let v = table[(self.pats[i] >> (16 * c)) as u16 as usize];
                sum[0] += v[0] as i32;
                sum[1] += v[1] as i32;
            }
        }
        sums
    }

    /// The shape tables in use (black's, white's).
    pub fn shape_tables(&self) -> [&'static ShapeTable; 2] {
        self.shapes
    }

    /// The sum of `color`'s shape values in role `role` (0 or 1) over the empty points.
    #[inline]
    pub fn shape_sum(&self, color: Color, role: usize) -> i32 {
        self.shape_sums[color.index()][role]
    }

    /// The four line patterns of a `color` stone on the empty point `p`.
    #[inline]
    pub fn patterns(&self, p: Pos, color: Color) -> [Pattern; 4] {
        Pattern::unpack(self.packed_patterns(p, color))
    }

    /// The threat class of a `color` stone on the empty point `p`.
    #[inline]
    pub fn threat(&self, p: Pos, color: Color) -> Threat {
        self.threats[p.index()][color.index()]
    }

    /// How many empty points give `color` exactly the threat `t`.
    #[inline]
    pub fn threat_count(&self, color: Color, t: Threat) -> usize {
        self.threat_counts[color.index()][t as usize] as usize
    }

    /// How many empty points give `color` a threat of `t` or better
    /// ([`Threat::Forbidden`] is never counted as better).
    #[inline]
    pub fn threat_count_at_least(&self, color: Color, t: Threat) -> usize {
        let t = (t as usize).max(Threat::One as usize);
        self.threat_counts[color.index()][t..]
            .iter()
            .map(|&n| n as usize)
            .sum()
    }

    /// All counts of threat classes for `color` (index = `Threat as usize`).
    #[inline]
    pub fn threat_counts(&self, color: Color) -> &[u16; 16] {
        &self.threat_counts[color.index()]
    }

    /// The empty points where `color` has a threat of at least `min`.
    pub fn threat_points(&self, color: Color, min: Threat) -> Vec<Pos> {
        let min = min.max(Threat::One);
        if let Some(set) = self.urgent_set(color, min) {
            return set
                .iter()
                .filter(|&p| self.threat(p, color) >= min)
                .collect();
        }
        self.points()
            .filter(|&p| self.is_empty(p) && self.threat(p, color) >= min)
            .collect()
    }

    /// The smallest kept set holding every empty point where `color` has at
    /// least `min` (kept for `min` from [`Threat::Three`] up).
    #[inline]
    pub fn urgent_set(&self, color: Color, min: Threat) -> Option<&PointSet> {
        let k = URGENT_LEVELS.iter().position(|&l| min >= l)?;
        Some(&self.urgent[color.index()][k])
    }

    /// The line key of `p` along `d` (see [`crate::game::pattern`]).
    #[inline]
    pub fn line_key(&self, p: Pos, d: Direction) -> u32 {
        self.keys[p.index()][d as usize]
    }

    /// The pattern table of this board's rule.
    #[inline]
    pub fn pattern_table(&self) -> &'static PatternTable {
        self.table
    }

    /// Would a `color` stone on the empty point `p` win at once?
    #[inline]
    pub fn is_five(&self, p: Pos, color: Color) -> bool {
        self.threat(p, color) == Threat::Five
    }

    /// Does the stone on `p` stand in a winning line (under the board's rule)?
    pub fn is_win_stone(&self, p: Pos) -> bool {
        let color = match self.cell(p) {
            Cell::Black => Color::Black,
            Cell::White => Color::White,
            _ => return false,
        };
        Direction::ALL
            .iter()
            .any(|&d| self.table.pattern(self.keys[p.index()][d as usize], color) == Pattern::F5)
    }

    /// A colour with a winning line anywhere on the board (for positions set
    /// up stone by stone, where the last stone says nothing); black first if
    /// both have one.
    pub fn winner(&self) -> Option<Color> {
        let has_five = |cell: Cell| {
            self.points()
                .any(|p| self.cell(p) == cell && self.is_win_stone(p))
        };
        if has_five(Cell::Black) {
            Some(Color::Black)
        } else if has_five(Cell::White) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The winner, judging the last stone placed.
    pub fn last_move_wins(&self) -> Option<Color> {
        let (p, color) = self.last_move()?;
        self.is_win_stone(p).then_some(color)
    }

    /// Has the stone count of a point's 5x5 neighbourhood any stone?
    #[inline]
    pub fn is_near_stone(&self, p: Pos) -> bool {
        self.near[p.index()] > 0
    }

    /// Empty points within two steps (5x5 square) of a stone; the centre on an
    /// empty board.
    pub fn candidates(&self) -> Vec<Pos> {
        if self.history.is_empty() {
            return vec![self.center()];
        }
        self.points()
            .filter(|&p| self.is_empty(p) && self.near[p.index()] > 0)
            .collect()
    }

    /// The centre point (rounded towards the top-left on even sides).
    pub fn center(&self) -> Pos {
        Pos::new(self.width / 2, self.height / 2)
    }

    /// Is the empty point `p` forbidden for black, and why? Always `None` outside
    /// Renju, for occupied points and off the board. The board is restored.
    pub fn forbidden_kind(&mut self, p: Pos) -> Option<ForbiddenKind> {
        if self.rule != Rule::Renju || !self.on_board(p) || !self.is_empty(p) {
            return None;
        }
        self.forbidden_at(p)
    }

    /// Is the empty point `p` forbidden for black? (See [`Self::forbidden_kind`].)
    #[inline]
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.forbidden_kind(p).is_some()
    }

    /// Every forbidden point for black, row by row.
    pub fn forbidden_points(&mut self) -> Vec<(Pos, ForbiddenKind)> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let mut out = Vec::new();
        for p in self.points() {
            if !self.is_empty(p) {
                continue;
            }
            let t = self.threat(p, Color::Black);
            let candidate = matches!(
                t,
                Threat::Forbidden | Threat::Three3 | Threat::Four3 | Threat::Flex4
            );
            if candidate && let Some(k) = self.forbidden_at(p) {
                out.push((p, k));
            }
        }
        out
    }

    /// Can the side to move play `p` (an empty point, not forbidden for it)?
    pub fn is_legal(&mut self, p: Pos) -> bool {
        self.on_board(p)
            && self.is_empty(p)
            && !(self.side_to_move() == Color::Black && self.is_forbidden(p))
    }

    fn forbidden_at(&mut self, p: Pos) -> Option<ForbiddenKind> {
        let pats = self.patterns(p, Color::Black);
        match renju_shape(&pats) {
            RenjuShape::Legal => return None,
            RenjuShape::Forbidden(kind) => return Some(kind),
            RenjuShape::ThreesToCheck => {}
        }
        self.set_stone(p, Color::Black);
        let mut true_threes = 0;
        for d in Direction::ALL {
            if pats[d as usize].is_three() && self.is_true_three(p, d) {
                true_threes += 1;
                if true_threes >= 2 {
                    break;
                }
            }
        }
        self.clear_stone(p);
        (true_threes >= 2).then_some(ForbiddenKind::DoubleThree)
    }

    /// With a black stone on `p`, can the three along `d` become a straight four
    /// through a legal move? (The straight four must include `p`.)
    fn is_true_three(&mut self, p: Pos, d: Direction) -> bool {
        let key = self.keys[p.index()][d as usize];
        for k in (-(HALF - 1)..0).chain(1..HALF) {
            let e = p.offset(d, k);
            if !self.is_empty(e) {
                continue;
            }
            let with_e = key | (Color::Black as u32) << key_shift(k);
            if self.table.pattern(with_e, Color::Black) == Pattern::F4
                && self.forbidden_at(e).is_none()
            {
                return true;
            }
        }
        false
    }

    /// The board as a diagram: column letters on top, RIF row numbers
    /// (bottom row = 1) on the left, `X` black, `O` white, `.` empty.
    pub fn diagram(&self) -> String {
        self.diagram_marked(&[])
    }

    /// Like [`Self::diagram`], with `marks` drawn over the given points.
    pub fn diagram_marked(&self, marks: &[(Pos, char)]) -> String {
        let mut s = String::from("   ");
        for x in 0..self.width {
            s.push(' ');
            s.push_str(&super::notation::column_name(x));
        }
        s.push('\n');
        for y in 0..self.height {
            s.push_str(&format!("{:>3}", self.height - y));
            for x in 0..self.width {
                let p = Pos::new(x, y);
                let c = marks
                    .iter()
                    .find(|(q, _)| *q == p)
                    .map(|&(_, c)| c)
                    .unwrap_or(match self.cell(p) {
                        Cell::Black => 'X',
                        Cell::White => 'O',
                        _ => '.',
                    });
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s
    }

    /// Reads a board from a diagram: one text row per board row (top first),
    /// cells `X`/`x` black, `O`/`o` white, `.` or any other mark empty;
    /// optional leading row numbers and a header line of column letters are
    /// skipped. Returns the board and the marked points (cells that are neither
    /// stones nor `.`). Stones are placed in reading order, so use it only where
    /// move order does not matter.
    pub fn from_diagram(text: &str, rule: Rule) -> Result<(Board, Vec<(Pos, char)>), String> {
        let mut rows: Vec<Vec<char>> = Vec::new();
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            let cells: Vec<char> = t
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if cells.iter().all(|c| c.is_ascii_lowercase())
                && cells.iter().any(|&c| c != 'x' && c != 'o')
            {
                continue; // column header
            }
            rows.push(cells);
        }
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != w) {
            return Err("diagram rows differ in length".into());
        }
        let mut board = Board::new(w, h, rule).map_err(|e| e.to_string())?;
        let mut marks = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let p = Pos::new(x, y);
                match c {
                    'X' | 'x' => board.make_color(p, Color::Black),
                    'O' | 'o' => board.make_color(p, Color::White),
                    '.' => {}
                    m => marks.push((p, m)),
                }
            }
        }
        Ok((board, marks))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {}x{} {}\n{}",
            self.width,
            self.height,
            self.rule,
            self.diagram()
        )
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
