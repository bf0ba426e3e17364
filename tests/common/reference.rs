//! A slow, independent reference checker for Renju (RIF) forbidden points,
//! plus the position generators, sampler, PRNG and diagram printer the
//! forbidden-point tests use.
//!
//! The checker is written straight from the definitions in
//! `shared/docs/rules.md`: it walks lines cell by cell, tries stones on the
//! board and recurses. It uses no pattern tables and no engine code, so that
//! it can judge the engine's fast checker. Speed is deliberately not a goal;
//! the only shortcuts taken are "stop as soon as the answer is known" ones.
//!
//! The definitions, for a black stone P just placed on an empty point:
//! 1. Exact five (exactly 5 black in a row through P on some line): allowed,
//!    whatever else the move makes (overline elsewhere, 4-4, 3-3).
//! 2. Else six or more in a row through P: overline.
//! 3. Else fours: on each line, the "five points" are the empty points where one
//!    more black stone makes an exact five that contains P. A line whose five
//!    points are the two ends of one straight four is one four; any other line
//!    with n >= 1 five points holds n fours (`X X X . P . X X X` is two fours on
//!    one line). Two or more fours in all: double four.
//! 4. Else true threes, on lines that are not fours: a line holds one if some
//!    empty point e on it makes a straight four that contains P and e (four
//!    black in a row, both ends empty, each end making an exact five), and a
//!    black move on e, with P on the board, is not forbidden (recursively).
//!    Two or more: double three.
//!
//! The board edge blocks like a stone: a shape needs real empty points.
//!
//! `tests/reference_selfcheck.rs` has one hand-made position per subtlety.
//!
//! Coordinates: `x` is the column (0 = left), `y` the row (0 = top), as the
//! protocol counts them. Human notation (`h8`) numbers rows from the bottom:
//! row number = `h - y`.

use std::fmt::Write as _;

/// Cell values of a [`Grid`].
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
/// What [`Grid::at`] answers off the board. The edge blocks like a stone of
/// neither colour: it is not empty and not black.
pub const OFF: u8 = 3;

/// The four line directions (dx, dy): horizontal, vertical, and both diagonals.
/// Every line through a point is walked both ways from it, so four suffice.
pub const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Column letters for diagrams and notation (boards up to 32 wide).
const COLUMN_LETTERS: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyzABCDEF";

// ---------------------------------------------------------------------------
// Grid
// ---------------------------------------------------------------------------

/// A plain board: `cells[y * w + x]`, 0 empty, 1 black, 2 white.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Grid {
    pub w: usize,
    pub h: usize,
    pub cells: Vec<u8>,
}

impl Grid {
    /// An empty `w` x `h` board.
    pub fn new(w: usize, h: usize) -> Grid {
        Grid {
            w,
            h,
            cells: vec![EMPTY; w * h],
        }
    }

    /// A board with the given stones. Panics on a point off the board or
    /// listed twice.
    pub fn from_stones(
        w: usize,
        h: usize,
        black: &[(usize, usize)],
        white: &[(usize, usize)],
    ) -> Grid {
        let mut g = Grid::new(w, h);
        for (list, colour) in [(black, BLACK), (white, WHITE)] {
            for &(x, y) in list {
                assert!(x < w && y < h, "stone ({x},{y}) off a {w}x{h} board");
                assert_eq!(g.get(x, y), EMPTY, "point ({x},{y}) listed twice");
                g.set(x, y, colour);
            }
        }
        g
    }

    /// A board drawn as text, one line per row from the top: `X`/`x` black,
    /// `O`/`o` white, `.`/`+` empty; spaces are ignored. Blank lines are skipped.
    pub fn parse(text: &str) -> Grid {
        let (g, mark) = Grid::parse_marked(text);
        assert!(mark.is_none(), "unexpected '?' in board text");
        g
    }

    /// Like [`Grid::parse`], also accepting one `?`: an empty point to query,
    /// whose coordinates are returned.
    pub fn parse_marked(text: &str) -> (Grid, Option<(usize, usize)>) {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|l| !l.is_empty())
            .collect();
        let h = rows.len();
        let w = rows[0].len();
        assert!(rows.iter().all(|r| r.len() == w), "ragged board text");
        let mut g = Grid::new(w, h);
        let mut mark = None;
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let v = match c {
                    'X' | 'x' => BLACK,
                    'O' | 'o' => WHITE,
                    '.' | '+' => EMPTY,
                    '?' => {
                        assert!(mark.is_none(), "more than one '?' in board text");
                        mark = Some((x, y));
                        EMPTY
                    }
                    other => panic!("unexpected character {other:?} in board text"),
                };
                g.set(x, y, v);
            }
        }
        (g, mark)
    }

    #[inline]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        assert!(x < self.w && y < self.h);
        self.cells[y * self.w + x]
    }

    #[inline]
    pub fn set(&mut self, x: usize, y: usize, v: u8) {
        assert!(x < self.w && y < self.h);
        self.cells[y * self.w + x] = v;
    }

    #[inline]
    pub fn in_bounds(&self, x: isize, y: isize) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.h
    }

    /// The cell at signed coordinates, [`OFF`] outside the board.
    #[inline]
    pub fn at(&self, x: isize, y: isize) -> u8 {
        if self.in_bounds(x, y) {
            self.cells[y as usize * self.w + x as usize]
        } else {
            OFF
        }
    }

    /// All points holding `v` (EMPTY, BLACK or WHITE), row by row.
    pub fn points_of(&self, v: u8) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if self.get(x, y) == v {
                    out.push((x, y));
                }
            }
        }
        out
    }

    pub fn count(&self, v: u8) -> usize {
        self.cells.iter().filter(|&&c| c == v).count()
    }

    /// One of the 8 symmetries of a square board (0 = identity). Bit 0 mirrors
    /// x, bit 1 mirrors y, bit 2 swaps x and y (applied last).
    pub fn transform_point(&self, t: u8, x: usize, y: usize) -> (usize, usize) {
        assert_eq!(self.w, self.h, "symmetries need a square board");
        let n = self.w - 1;
        let x = if t & 1 != 0 { n - x } else { x };
        let y = if t & 2 != 0 { n - y } else { y };
        if t & 4 != 0 { (y, x) } else { (x, y) }
    }

    /// The board transformed by symmetry `t` (see [`Grid::transform_point`]).
    pub fn transformed(&self, t: u8) -> Grid {
        let mut g = Grid::new(self.w, self.h);
        for y in 0..self.h {
            for x in 0..self.w {
                let (tx, ty) = self.transform_point(t, x, y);
                g.set(tx, ty, self.get(x, y));
            }
        }
        g
    }
}

/// RIF-style name of a point, e.g. `h8` for (7,7) on 15x15: column letter from
/// the left, row number counted from the bottom (`h - y`).
pub fn notation(h: usize, x: usize, y: usize) -> String {
    format!("{}{}", COLUMN_LETTERS[x] as char, h - y)
}

/// The board as text: column letters on top and bottom, row numbers (`h - y`,
/// so the bottom row is 1) on both sides; `X` black, `O` white, `.` empty and
/// `?` the marked point.
pub fn diagram(g: &Grid, mark: Option<(usize, usize)>) -> String {
    let mut s = String::new();
    let letters = |s: &mut String| {
        s.push_str("   ");
        for &letter in &COLUMN_LETTERS[..g.w] {
            s.push(' ');
            s.push(letter as char);
        }
        s.push('\n');
    };
    letters(&mut s);
    for y in 0..g.h {
        let _ = write!(s, "{:>3}", g.h - y);
        for x in 0..g.w {
            let c = if mark == Some((x, y)) {
                '?'
            } else {
                match g.get(x, y) {
                    EMPTY => '.',
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '#',
                }
            };
            s.push(' ');
            s.push(c);
        }
        let _ = writeln!(s, " {:<3}", g.h - y);
    }
    letters(&mut s);
    s
}

// ---------------------------------------------------------------------------
// The reference checker
// ---------------------------------------------------------------------------

/// Why a black move is forbidden.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum RefKind {
    Overline,
    DoubleFour,
    DoubleThree,
}

/// The full verdict on a black move, keeping apart the two ways of being allowed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum RefVerdict {
    /// The move makes an exact five: it wins, whatever else it makes.
    Five,
    /// No five, and nothing forbidden.
    Legal,
    Forbidden(RefKind),
}

impl RefVerdict {
    pub fn forbidden(self) -> Option<RefKind> {
        match self {
            RefVerdict::Forbidden(k) => Some(k),
            _ => None,
        }
    }
}

/// Is a BLACK stone on the empty point (x,y) forbidden under RIF Renju, and why?
/// The board is restored before returning.
pub fn reference_forbidden(g: &mut Grid, x: usize, y: usize) -> Option<RefKind> {
    reference_verdict(g, x, y).forbidden()
}

/// The full verdict on a BLACK stone on the empty point (x,y). The board is
/// restored before returning.
pub fn reference_verdict(g: &mut Grid, x: usize, y: usize) -> RefVerdict {
    assert_eq!(
        g.get(x, y),
        EMPTY,
        "query point {} is not empty",
        notation(g.h, x, y)
    );
    g.set(x, y, BLACK);
    let v = verdict_with_stone_placed(g, x as isize, y as isize);
    g.set(x, y, EMPTY);
    v
}

/// The point `k` steps from (px,py) along direction `d` (k may be negative).
#[inline]
fn step(px: isize, py: isize, d: (isize, isize), k: isize) -> (isize, isize) {
    (px + k * d.0, py + k * d.1)
}

/// The offsets `k` (k != 0) of every on-board point of the line through (px,py)
/// along `d`, in increasing order. The whole line, not a window: the caller's
/// tests decide which points matter, so nothing is missed by a wrong bound.
fn line_offsets(g: &Grid, px: isize, py: isize, d: (isize, isize)) -> Vec<isize> {
    let n = (g.w.max(g.h)) as isize;
    (-n..=n)
        .filter(|&k| k != 0)
        .filter(|&k| {
            let (x, y) = step(px, py, d, k);
            g.in_bounds(x, y)
        })
        .collect()
}

/// The maximal run of black stones through the black stone (px,py) along `d`,
/// as the offsets (lo, hi) of its two end stones (lo <= 0 <= hi).
fn black_run(g: &Grid, px: isize, py: isize, d: (isize, isize)) -> (isize, isize) {
    assert_eq!(g.at(px, py), BLACK);
    let mut lo = 0;
    loop {
        let (x, y) = step(px, py, d, lo - 1);
        if g.at(x, y) != BLACK {
            break;
        }
        lo -= 1;
    }
    let mut hi = 0;
    loop {
        let (x, y) = step(px, py, d, hi + 1);
        if g.at(x, y) != BLACK {
            break;
        }
        hi += 1;
    }
    (lo, hi)
}

fn run_length(g: &Grid, px: isize, py: isize, d: (isize, isize)) -> isize {
    let (lo, hi) = black_run(g, px, py, d);
    hi - lo + 1
}

/// With black on (px,py): does a black stone on the empty point `k` steps along
/// `d` make an exact five (exactly five black in a row along `d`) that contains
/// (px,py)? Tried by placing the stone and counting; the board is restored.
fn makes_five_with(g: &mut Grid, px: isize, py: isize, d: (isize, isize), k: isize) -> bool {
    let (ex, ey) = step(px, py, d, k);
    if g.at(ex, ey) != EMPTY {
        return false;
    }
    g.set(ex as usize, ey as usize, BLACK);
    let (lo, hi) = black_run(g, px, py, d);
    // The run is measured through (px,py), so it contains (px,py) by
    // construction; it must also contain the new stone, and be exactly 5 long.
    let five = hi - lo + 1 == 5 && lo <= k && k <= hi;
    g.set(ex as usize, ey as usize, EMPTY);
    five
}

/// With black on (px,py): the "five points" of the line along `d`, i.e. the
/// offsets of the empty points where one more black stone makes an exact five
/// through (px,py). A five that would not contain (px,py) belongs to a four
/// that existed before this move and is not one this move forms.
fn five_points(g: &mut Grid, px: isize, py: isize, d: (isize, isize)) -> Vec<isize> {
    line_offsets(g, px, py, d)
        .into_iter()
        .filter(|&k| makes_five_with(g, px, py, d, k))
        .collect()
}

/// Are the five points `fp` (sorted) those of ONE straight four (活四): exactly
/// two of them, five apart, with the four points between them all black?
fn is_one_straight_four(g: &Grid, px: isize, py: isize, d: (isize, isize), fp: &[isize]) -> bool {
    if fp.len() != 2 || fp[1] - fp[0] != 5 {
        return false;
    }
    (fp[0] + 1..fp[1]).all(|k| {
        let (x, y) = step(px, py, d, k);
        g.at(x, y) == BLACK
    })
}

/// With black on (px,py) and on the point `k` steps along `d`: is there a
/// straight four along `d` made of exactly four consecutive black stones that
/// include both of them, with an empty point at each end where one more black
/// stone makes an exact five? (So `O . X X X X . X` is no straight four: the
/// right end would make six, an overline, not a five.)
fn is_straight_four_through(
    g: &mut Grid,
    px: isize,
    py: isize,
    d: (isize, isize),
    k: isize,
) -> bool {
    let (lo, hi) = black_run(g, px, py, d);
    if hi - lo + 1 != 4 || !(lo <= k && k <= hi) {
        return false;
    }
    // Both ends must be empty points of the board (not white, not the edge),
    // and each must make an exact five.
    makes_five_with(g, px, py, d, lo - 1) && makes_five_with(g, px, py, d, hi + 1)
}

/// With black on (px,py): does the line along `d` hold a TRUE three formed by
/// this stone? That is: is there an empty point e on the line such that black
/// on e makes a straight four along `d` that includes (px,py) and e, and black
/// on e is not itself a forbidden move (in the position with (px,py) placed)?
///
/// Why the straight four must include (px,py): a three is a shape this move
/// forms. If the straight four that e makes does not contain (px,py), it is
/// built only from stones that were on the board before this move: it is some
/// other, older three on the same line (e.g. `P . . X X . X .` with P the move:
/// e between the two groups makes `X X X X`, a straight four, but P has no part
/// in it). Counting it would make P a "double three" for a three it did not make.
///
/// Why e must be legal: a three is defined as a shape that one more move turns
/// into a straight four; if that move is forbidden it cannot be played, so the
/// three is not a real (活) three. This is recursive: e's own legality may again
/// depend on threes whose straight-four points are forbidden, and so on. Each
/// level adds a stone, so the recursion ends. A move on e that makes a five is
/// never forbidden (five beats everything), so such a three counts.
fn has_true_three(g: &mut Grid, px: isize, py: isize, d: (isize, isize)) -> bool {
    for k in line_offsets(g, px, py, d) {
        let (ex, ey) = step(px, py, d, k);
        if g.at(ex, ey) != EMPTY {
            continue;
        }
        g.set(ex as usize, ey as usize, BLACK);
        let straight = is_straight_four_through(g, px, py, d, k);
        g.set(ex as usize, ey as usize, EMPTY);
        if straight
            && reference_verdict(g, ex as usize, ey as usize)
                .forbidden()
                .is_none()
        {
            return true;
        }
    }
    false
}

/// With black on (px,py): the number of fours this stone forms, and which
/// lines they are on. A line is a four if some empty point on it completes an
/// exact five through the new stone. A straight four (two five points, five
/// apart, four black between) is one four. Any other two or more five points on
/// one line are as many different fours (`X X X . P . X X X`, `X X . X P . X X`,
/// `X . P X X . X`): the single-line double four.
fn count_fours(g: &mut Grid, px: isize, py: isize) -> (usize, [bool; 4]) {
    let mut fours = 0;
    let mut is_four_line = [false; 4];
    for (i, &d) in DIRS.iter().enumerate() {
        let fp = five_points(g, px, py, d);
        if fp.is_empty() {
            continue;
        }
        is_four_line[i] = true;
        fours += if is_one_straight_four(g, px, py, d, &fp) {
            1
        } else {
            fp.len()
        };
    }
    (fours, is_four_line)
}

/// With black on (px,py): the number of lines holding a true three formed by
/// this stone, not counting lines that are fours (a four that could also be
/// read as a three on the same line is still just a four; 4-3 is Black's legal
/// winning shape). Stops counting at `enough`.
fn count_true_threes(
    g: &mut Grid,
    px: isize,
    py: isize,
    is_four_line: [bool; 4],
    enough: usize,
) -> usize {
    let mut threes = 0;
    for (i, &d) in DIRS.iter().enumerate() {
        if threes >= enough {
            break;
        }
        if !is_four_line[i] && has_true_three(g, px, py, d) {
            threes += 1;
        }
    }
    threes
}

fn makes_exact_five(g: &Grid, px: isize, py: isize) -> bool {
    DIRS.iter().any(|&d| run_length(g, px, py, d) == 5)
}

fn makes_overline(g: &Grid, px: isize, py: isize) -> bool {
    DIRS.iter().any(|&d| run_length(g, px, py, d) >= 6)
}

/// The verdict on the black stone just placed on (px,py).
fn verdict_with_stone_placed(g: &mut Grid, px: isize, py: isize) -> RefVerdict {
    // 1. An exact five wins at once, even if the same move also makes an
    //    overline on another line, a double four or a double three.
    if makes_exact_five(g, px, py) {
        return RefVerdict::Five;
    }
    // 2. Six or more in a row on any line.
    if makes_overline(g, px, py) {
        return RefVerdict::Forbidden(RefKind::Overline);
    }
    // 3. Two or more fours.
    let (fours, is_four_line) = count_fours(g, px, py);
    if fours >= 2 {
        return RefVerdict::Forbidden(RefKind::DoubleFour);
    }
    // 4. Two or more true threes.
    if count_true_threes(g, px, py, is_four_line, 2) >= 2 {
        return RefVerdict::Forbidden(RefKind::DoubleThree);
    }
    RefVerdict::Legal
}

/// EVERY reason why a black stone on the empty point (x,y) is forbidden (empty
/// if it is allowed, in particular if it makes a five). [`reference_verdict`]
/// reports only the first of them in the order overline, double four, double
/// three; a checker that reports another one of these is not wrong (a 4-4-3
/// move is both a double four and a double three). The board is restored.
pub fn reference_all_kinds(g: &mut Grid, x: usize, y: usize) -> Vec<RefKind> {
    assert_eq!(
        g.get(x, y),
        EMPTY,
        "query point {} is not empty",
        notation(g.h, x, y)
    );
    g.set(x, y, BLACK);
    let (px, py) = (x as isize, y as isize);
    let mut kinds = Vec::new();
    if !makes_exact_five(g, px, py) {
        if makes_overline(g, px, py) {
            kinds.push(RefKind::Overline);
        }
        let (fours, is_four_line) = count_fours(g, px, py);
        if fours >= 2 {
            kinds.push(RefKind::DoubleFour);
        }
        if count_true_threes(g, px, py, is_four_line, 2) >= 2 {
            kinds.push(RefKind::DoubleThree);
        }
    }
    g.set(x, y, EMPTY);
    kinds
}

/// For statistics only, NOT a checker: the number of lines on which a black
/// stone on the empty point (x,y) would form a three if the legality of the
/// straight-four point were ignored (lines that are fours excluded). Where this
/// is 2 or more but the move is no double three, the recursive legality check
/// decided the answer: the position exercises dead threes. Board restored.
pub fn threes_ignoring_legality(g: &mut Grid, x: usize, y: usize) -> usize {
    assert_eq!(g.get(x, y), EMPTY);
    g.set(x, y, BLACK);
    let (px, py) = (x as isize, y as isize);
    let (_, is_four_line) = count_fours(g, px, py);
    let mut n = 0;
    for (i, &d) in DIRS.iter().enumerate() {
        if is_four_line[i] {
            continue;
        }
        let mut found = false;
        for k in line_offsets(g, px, py, d) {
            let (ex, ey) = step(px, py, d, k);
            if g.at(ex, ey) != EMPTY {
                continue;
            }
            g.set(ex as usize, ey as usize, BLACK);
            found |= is_straight_four_through(g, px, py, d, k);
            g.set(ex as usize, ey as usize, EMPTY);
        }
        n += found as usize;
    }
    g.set(x, y, EMPTY);
    n
}

// ---------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------

/// splitmix64: tiny, seedable, good enough for test positions.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }

    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: isize, hi: isize) -> isize {
        assert!(lo <= hi);
        lo + self.below((hi - lo + 1) as usize) as isize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        (self.below(100) as u32) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

// ---------------------------------------------------------------------------
// Position generators (15x15)
// ---------------------------------------------------------------------------

/// The board side the generators use.
pub const GEN_SIZE: usize = 15;

/// Which generator made a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Dense random stones in a cluster around the centre.
    Cluster,
    /// Black stones strung along a few random lines, with gaps; white nearby.
    Lines,
    /// Hard shapes planted on purpose: single-line 4-4s, overline skeletons,
    /// threes whose straight-four points are themselves forbidden (nested).
    Planted,
}

pub const GEN_KINDS: [GenKind; 3] = [GenKind::Cluster, GenKind::Lines, GenKind::Planted];

/// A generated position and the points its generator found interesting.
#[derive(Clone, Debug)]
pub struct Generated {
    pub kind: GenKind,
    pub grid: Grid,
    /// Points the generator shaped on purpose (may be occupied or far from
    /// anything by the time the position is done; the sampler checks).
    pub hints: Vec<(usize, usize)>,
    /// The points the generator tried hardest to make tricky (the roots and
    /// nested points of planted forbidden shapes): sampled first.
    pub focus: Vec<(usize, usize)>,
}

/// The position number `index` of the test run with seed `seed`: the same pair
/// always gives the same position, so a failure can be replayed alone.
/// Generators are mixed 30% clusters, 30% lines, 40% planted shapes.
pub fn position(seed: u64, index: u64) -> Generated {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17));
    rng.next_u64();
    let kind = match rng.below(10) {
        0..=2 => GenKind::Cluster,
        3..=5 => GenKind::Lines,
        _ => GenKind::Planted,
    };
    generate(kind, &mut rng)
}

/// A position from the given generator.
pub fn generate(kind: GenKind, rng: &mut Rng) -> Generated {
    let mut pos = Generated {
        kind,
        grid: Grid::new(GEN_SIZE, GEN_SIZE),
        hints: Vec::new(),
        focus: Vec::new(),
    };
    match kind {
        GenKind::Cluster => gen_cluster(&mut pos, rng),
        GenKind::Lines => gen_lines(&mut pos, rng),
        GenKind::Planted => gen_planted(&mut pos, rng),
    }
    break_long_runs(&mut pos.grid, rng);
    pos
}

/// Put `v` on (x,y) if it is on the board and empty; report whether it did.
fn put_if_empty(g: &mut Grid, x: isize, y: isize, v: u8) -> bool {
    if g.at(x, y) == EMPTY {
        g.set(x as usize, y as usize, v);
        true
    } else {
        false
    }
}

/// A roughly bell-shaped offset in -spread..=spread (sum of two uniforms).
fn bell(rng: &mut Rng, spread: isize) -> isize {
    let a = rng.range(-spread, spread);
    let b = rng.range(-spread, spread);
    (a + b) / 2
}

/// (a) Dense random clusters: 14..44 stones around a point near the centre,
/// a little more black than white so that black shapes are plentiful.
fn gen_cluster(pos: &mut Generated, rng: &mut Rng) {
    let g = &mut pos.grid;
    let centres = 1 + rng.below(2);
    for _ in 0..centres {
        let cx = 7 + rng.range(-2, 2);
        let cy = 7 + rng.range(-2, 2);
        let spread = rng.range(3, 6);
        let stones = rng.range(10, 30);
        let black_pct = rng.range(52, 66) as u32;
        for _ in 0..stones {
            let x = cx + bell(rng, spread);
            let y = cy + bell(rng, spread);
            let v = if rng.chance(black_pct) { BLACK } else { WHITE };
            put_if_empty(g, x, y, v);
        }
    }
}

/// (b) Black stones biased onto lines: 2..5 random segments, each cell black
/// with a fair chance (leaving gaps), white stones near the segments.
fn gen_lines(pos: &mut Generated, rng: &mut Rng) {
    let g = &mut pos.grid;
    let lines = rng.range(3, 6);
    let mut line_cells = Vec::new();
    for _ in 0..lines {
        let d = *rng.pick(&DIRS);
        let sign = if rng.chance(50) { 1 } else { -1 };
        let d = (d.0 * sign, d.1 * sign);
        // Start near the centre and centre the segment there, so lines cross.
        let len = rng.range(4, 8);
        let x0 = 7 + bell(rng, 4) - d.0 * len / 2;
        let y0 = 7 + bell(rng, 4) - d.1 * len / 2;
        let fill = rng.range(35, 60) as u32;
        for k in 0..len {
            let (x, y) = step(x0, y0, d, k);
            if !g.in_bounds(x, y) {
                continue;
            }
            line_cells.push((x, y));
            if rng.chance(fill) {
                put_if_empty(g, x, y, BLACK);
            }
        }
    }
    // White stones near the lines: blockers at ends and sides.
    let whites = rng.range(2, 12);
    for _ in 0..whites {
        if line_cells.is_empty() {
            break;
        }
        let &(x, y) = rng.pick(&line_cells);
        put_if_empty(g, x + rng.range(-2, 2), y + rng.range(-2, 2), WHITE);
    }
    // A little noise of both colours.
    for _ in 0..rng.range(0, 8) {
        let v = if rng.chance(50) { BLACK } else { WHITE };
        put_if_empty(g, 7 + bell(rng, 6), 7 + bell(rng, 6), v);
    }
    for (x, y) in line_cells {
        if g.at(x, y) == EMPTY {
            pos.hints.push((x as usize, y as usize));
        }
    }
}

/// Shapes for [`gen_planted`], one line each: `X` black, `O` white, `.` empty
/// (forced), `?` left as it is.
const TEMPLATES: &[&str] = &[
    "XXX.X.XXX", // single-line double four around the middle stone
    "XX.XX.XX",  // single-line double four
    "X.XXX.X",   // single-line double four
    "XX.X.XX",   // gap fills make overline skeletons (XXXX.XX)
    "XX.XXX",    // overline skeleton (六腐): the gap makes six
    "X.XXXX",    // overline skeleton
    "XXX.XX",    // overline skeleton
    "X.XX.X",    // fills give X.XXXX / XXXX.X
    ".XXX.",     // open three
    "..XX..",    // two: one stone makes a three
    ".X.X.",     // split two
    ".XX.X.",    // split three
    ".X.XX.",    // split three
    "OXXX..",    // closed three
    "..XXXO",    // closed three
    "OXX.X.",    // closed split three
    ".XXX.O",    // three blocked one step further (下止 when both sides)
    "O.XXX.O",   // three blocked further out (下止)
    "X..XX..X",  // threes whose four points make overlines
    "XXXX",      // a four (five points)
    ".X.X.X.",   // fills make split fours / double fours
    "X.X.X.X",   // fills make single-line double fours
];

/// Plant one template at (x0,y0) along `d`; optionally clear one of its black
/// stones again (that point becomes a hint: playing it back restores the shape).
fn plant_template(
    pos: &mut Generated,
    rng: &mut Rng,
    t: &str,
    x0: isize,
    y0: isize,
    d: (isize, isize),
) {
    let g = &mut pos.grid;
    let mut blacks = Vec::new();
    for (k, c) in t.bytes().enumerate() {
        let (x, y) = step(x0, y0, d, k as isize);
        if !g.in_bounds(x, y) {
            continue;
        }
        match c {
            b'X' => {
                g.set(x as usize, y as usize, BLACK);
                blacks.push((x as usize, y as usize));
            }
            b'O' => g.set(x as usize, y as usize, WHITE),
            b'.' => {
                g.set(x as usize, y as usize, EMPTY);
                pos.hints.push((x as usize, y as usize));
            }
            _ => {}
        }
    }
    if !blacks.is_empty() && rng.chance(60) {
        let &(x, y) = rng.pick(&blacks);
        g.set(x, y, EMPTY);
        pos.hints.push((x, y));
    }
    // White blockers sprinkled near either end or beside the shape.
    let len = t.len() as isize;
    for _ in 0..rng.range(0, 2) {
        let k = if rng.chance(50) {
            -1 - rng.range(0, 1)
        } else {
            len + rng.range(0, 1)
        };
        let (x, y) = step(x0, y0, d, k);
        put_if_empty(g, x, y, WHITE);
    }
    if rng.chance(30) {
        let (x, y) = step(x0, y0, d, rng.range(0, len - 1));
        put_if_empty(g, x + rng.range(-1, 1), y + rng.range(-1, 1), WHITE);
    }
}

/// Offsets of three stones that, with the point itself, fill 4 of a window of 5.
const FOUR_MAKERS: &[&[isize]] = &[
    &[1, 2, 3],
    &[-1, 1, 2],
    &[1, 2, 4],
    &[1, 3, 4],
    &[-1, 1, 3],
    &[-2, -1, 2],
    &[2, 3, 4],
];
/// Offsets of two stones that, with the point itself, make a three (span <= 3).
const THREE_MAKERS: &[&[isize]] = &[&[1, 2], &[-1, 1], &[1, 3], &[2, 3], &[-1, 2], &[-2, 1]];

/// Make the empty point (qx,qy) a 3-3, 4-4 or 4-3 point by planting black
/// stones on two (sometimes three) lines through it, leaving it empty. With
/// `depth > 0`, the straight-four points of the planted threes are in turn made
/// forbidden-looking points (recursively), so that whether (qx,qy) is a real
/// 3-3 depends on nested forbidden points. `used` holds direction indices
/// already taken through this point.
fn plant_forbidden_point(
    pos: &mut Generated,
    rng: &mut Rng,
    qx: isize,
    qy: isize,
    depth: u32,
    used: &[usize],
) {
    if !pos.grid.in_bounds(qx, qy) || pos.grid.at(qx, qy) != EMPTY {
        return;
    }
    pos.focus.push((qx as usize, qy as usize));
    let mut free: Vec<usize> = (0..4).filter(|i| !used.contains(i)).collect();
    rng.shuffle(&mut free);
    let lines = if rng.chance(20) { 3 } else { 2 };
    for (n, &di) in free.iter().take(lines).enumerate() {
        let sign = if rng.chance(50) { 1 } else { -1 };
        let d = (DIRS[di].0 * sign, DIRS[di].1 * sign);
        // Mostly threes (for 3-3), sometimes fours (for 4-4 and 4-3).
        let four = rng.chance(if n == 0 { 20 } else { 12 });
        let offsets: &[isize] = if four {
            // Three more stones that, with the point, fill 4 of a window of 5.
            let chosen: &&[isize] = rng.pick(FOUR_MAKERS);
            chosen
        } else {
            // Two more stones that, with the point, make a three (span <= 3).
            let chosen: &&[isize] = rng.pick(THREE_MAKERS);
            chosen
        };
        for &k in offsets {
            let (x, y) = step(qx, qy, d, k);
            if pos.grid.at(x, y) == EMPTY {
                pos.grid.set(x as usize, y as usize, BLACK);
            }
        }
        // Usually keep the ends of the shape open (a white stone may have
        // been planted there by an earlier shape).
        let (lo, hi) = (
            offsets.iter().copied().min().unwrap().min(0),
            offsets.iter().copied().max().unwrap().max(0),
        );
        if rng.chance(75) {
            for k in [lo - 1, hi + 1] {
                let (x, y) = step(qx, qy, d, k);
                if pos.grid.at(x, y) == WHITE {
                    pos.grid.set(x as usize, y as usize, EMPTY);
                }
            }
        }
        if four || depth == 0 {
            continue;
        }
        // The points that would turn this three (point + two stones) into a
        // straight four: the gap inside a split three, or either end of a
        // solid three. Make one (or both) of them forbidden-looking.
        let mut three: Vec<isize> = offsets.to_vec();
        three.push(0);
        three.sort();
        let (lo, hi) = (three[0], three[2]);
        let mut four_points = Vec::new();
        if hi - lo == 3 {
            four_points.extend((lo..=hi).filter(|k| !three.contains(k)));
        } else {
            four_points.push(lo - 1);
            four_points.push(hi + 1);
        }
        let both = rng.chance(60);
        for (j, &k) in four_points.iter().enumerate() {
            if j > 0 && !both {
                break;
            }
            let (rx, ry) = step(qx, qy, d, k);
            plant_forbidden_point(pos, rng, rx, ry, depth - 1, &[di]);
        }
    }
    // Sometimes a white stone right next to the point's shapes.
    if rng.chance(35) {
        put_if_empty(
            &mut pos.grid,
            qx + rng.range(-3, 3),
            qy + rng.range(-3, 3),
            WHITE,
        );
    }
}

/// (c) Planted hard shapes on a lightly filled board: templates, and nested
/// forbidden points (threes whose straight-four points are 4-4 or 3-3 points,
/// several levels deep), with white blockers sprinkled near.
fn gen_planted(pos: &mut Generated, rng: &mut Rng) {
    // Light background.
    for _ in 0..rng.range(0, 10) {
        let v = if rng.chance(55) { BLACK } else { WHITE };
        put_if_empty(&mut pos.grid, 7 + bell(rng, 6), 7 + bell(rng, 6), v);
    }
    for _ in 0..rng.range(0, 2) {
        let t = *rng.pick(TEMPLATES);
        let d = *rng.pick(&DIRS);
        let (x0, y0) = (rng.range(1, 13), rng.range(1, 13));
        // Start so that the template stays mostly on the board.
        let len = t.len() as isize;
        let (x0, y0) = (x0 - d.0 * len / 2, y0 - d.1 * len / 2);
        plant_template(pos, rng, t, x0, y0, d);
    }
    for _ in 0..rng.range(1, 3) {
        let (qx, qy) = (7 + bell(rng, 5), 7 + bell(rng, 5));
        let depth = if rng.chance(80) {
            rng.range(1, 4) as u32
        } else {
            0
        };
        plant_forbidden_point(pos, rng, qx, qy, depth, &[]);
    }
    // White stones near the action.
    for _ in 0..rng.range(0, 6) {
        if pos.hints.is_empty() {
            break;
        }
        let &(x, y) = rng.pick(&pos.hints);
        put_if_empty(
            &mut pos.grid,
            x as isize + rng.range(-2, 2),
            y as isize + rng.range(-2, 2),
            WHITE,
        );
    }
}

/// Game positions never hold a finished five: remove random stones from any
/// run of five or more (of either colour) until none is left.
fn break_long_runs(g: &mut Grid, rng: &mut Rng) {
    loop {
        let mut found = None;
        'scan: for y in 0..g.h as isize {
            for x in 0..g.w as isize {
                let v = g.at(x, y);
                if v != BLACK && v != WHITE {
                    continue;
                }
                for d in DIRS {
                    // Only from the first stone of a run.
                    if g.at(x - d.0, y - d.1) == v {
                        continue;
                    }
                    let mut len = 1;
                    while g.at(x + len * d.0, y + len * d.1) == v {
                        len += 1;
                    }
                    if len >= 5 {
                        found = Some((x, y, d, len));
                        break 'scan;
                    }
                }
            }
        }
        match found {
            None => return,
            Some((x, y, d, len)) => {
                let k = rng.range(0, len - 1);
                g.set((x + k * d.0) as usize, (y + k * d.1) as usize, EMPTY);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Point sampler
// ---------------------------------------------------------------------------

/// A quick interest score for a black move on the empty point (x,y): on each
/// line, the black stones within 4 steps that are not cut off by white or the
/// edge; busy lines score quadratically, and two busy lines more still.
pub fn interest(g: &Grid, x: usize, y: usize) -> u32 {
    let (x, y) = (x as isize, y as isize);
    let mut per_line = [0u32; 4];
    for (i, d) in DIRS.iter().enumerate() {
        for sign in [1isize, -1] {
            for k in 1..=4 {
                let v = g.at(x + sign * k * d.0, y + sign * k * d.1);
                if v == WHITE || v == OFF {
                    break;
                }
                if v == BLACK {
                    per_line[i] += 1;
                }
            }
        }
    }
    let busy = per_line.iter().filter(|&&n| n >= 2).count() as u32;
    per_line.iter().map(|n| n * n).sum::<u32>() + 8 * busy * busy
}

/// The points to query in a position: the empty points within distance 2
/// (king steps) of a black stone, at most `cap` of them. Two thirds of the
/// places go to the most interesting points (generator focus points, then hints, then
/// [`interest`]), the rest to random other candidates.
pub fn sample_points(pos: &Generated, rng: &mut Rng, cap: usize) -> Vec<(usize, usize)> {
    let g = &pos.grid;
    let mut near = vec![false; g.w * g.h];
    for (bx, by) in g.points_of(BLACK) {
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let (x, y) = (bx as isize + dx, by as isize + dy);
                if g.at(x, y) == EMPTY {
                    near[y as usize * g.w + x as usize] = true;
                }
            }
        }
    }
    let mut bonus = vec![0u32; g.w * g.h];
    for &(x, y) in &pos.hints {
        bonus[y * g.w + x] = 40;
    }
    for &(x, y) in &pos.focus {
        bonus[y * g.w + x] = 100;
    }
    let mut cands: Vec<(u32, u64, (usize, usize))> = Vec::new();
    for y in 0..g.h {
        for x in 0..g.w {
            if near[y * g.w + x] {
                cands.push((
                    interest(g, x, y) + bonus[y * g.w + x],
                    rng.next_u64(),
                    (x, y),
                ));
            }
        }
    }
    cands.sort_by(|a, b| b.cmp(a));
    if cands.len() <= cap {
        return cands.into_iter().map(|c| c.2).collect();
    }
    let top = (cap * 2).div_ceil(3);
    let mut out: Vec<(usize, usize)> = cands[..top].iter().map(|c| c.2).collect();
    let mut rest: Vec<(usize, usize)> = cands[top..].iter().map(|c| c.2).collect();
    rng.shuffle(&mut rest);
    out.extend(rest.into_iter().take(cap - top));
    out
}

/// Position number `index` of the run with seed `seed` (see [`position`]) and
/// the points to query in it (see [`sample_points`]); the same arguments always
/// give the same answer.
pub fn position_and_points(seed: u64, index: u64, cap: usize) -> (Generated, Vec<(usize, usize)>) {
    let pos = position(seed, index);
    let mut rng = Rng::new(seed ^ index.rotate_left(32) ^ 0x5A5A_5A5A);
    let points = sample_points(&pos, &mut rng, cap);
    (pos, points)
}

/// A number from the environment variable `name` (decimal, `_` allowed, or
/// `0x` hex), else `default`. Panics on a malformed value.
pub fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(s) => {
            let s = s.trim().replace('_', "");
            let parsed = match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name} must be a number, not {s:?}"))
        }
        Err(_) => default,
    }
}

/// How many random positions a test should run: `TIANYUAN_REF_POSITIONS` if
/// set, else `default`.
pub fn positions_from_env(default: u64) -> u64 {
    env_u64("TIANYUAN_REF_POSITIONS", default)
}

/// The seed of the random tests: `TIANYUAN_REF_SEED` if set, else `default`.
pub fn seed_from_env(default: u64) -> u64 {
    env_u64("TIANYUAN_REF_SEED", default)
}

/// The index of the first random position: `TIANYUAN_REF_FIRST` if set, else 0
/// (with `TIANYUAN_REF_POSITIONS=1`, replays one reported position).
pub fn first_from_env() -> u64 {
    env_u64("TIANYUAN_REF_FIRST", 0)
}
