//! Line patterns: what one more stone on an empty point makes along one line.
//!
//! Every empty point has, per direction, a *line key*: the contents of the ten
//! cells within five steps of it on that line (two bits each: empty, black,
//! white, wall). A per-rule table built once maps every key to the [`Pattern`]
//! each colour would make by playing on the point. The board keeps keys and
//! patterns up to date on every make and undo; nothing rescans the board.
//!
//! The classification is recursive over the line, exactly as the shapes are
//! defined: a point is a *five* when the stone makes a winning five through
//! it; a *four* when afterwards one more stone on the line makes such a five
//! (a *straight four* when two points do, four stones between them); a
//! *three* when one more stone makes a straight four (that includes this
//! stone); and so on down to ones. Winning is judged by the rule (exact five,
//! overline, Caro's blocked five), so a Renju "three" whose four would be an
//! overline is no three here.

use std::sync::OnceLock;

use super::pos::{Cell, Color};
use super::rule::Rule;

/// Cells on each side of the centre that a line key covers.
pub const HALF: i32 = 5;
/// Number of distinct line keys (ten cells, two bits each).
pub const KEY_COUNT: usize = 1 << 20;

/// The bit position in a line key of the cell `k` steps from the centre
/// (`k` in `-5..=-1` or `1..=5`).
#[inline]
pub const fn key_shift(k: i32) -> u32 {
    let slot = if k < 0 { k + HALF } else { k + HALF - 1 };
    2 * slot as u32
}

/// What a stone of one colour on an empty point makes along one line.
///
/// Ordered roughly by strength; [`Pattern::DoubleFour`] only arises for Renju
/// black (elsewhere two fours on one line are as good as a straight four).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through this point on this line.
    Dead = 0,
    /// Six or more in a row that does not win (exact-five rules, Renju black).
    Overline = 1,
    /// A one with room for a five on one side only.
    B1 = 2,
    /// A one with room to grow into a free two.
    F1 = 3,
    /// A blocked two (can become a blocked three).
    B2 = 4,
    /// A free two with one point that makes a free three.
    F2 = 5,
    /// A free two with two such points.
    F2A = 6,
    /// A free two with three or more such points.
    F2B = 7,
    /// A blocked three: one more stone makes a four, never a straight four.
    B3 = 8,
    /// A three: one more stone (one point) makes a straight four.
    F3 = 9,
    /// A three with two or more points that make a straight four.
    F3S = 10,
    /// A four: exactly one point completes a five.
    B4 = 11,
    /// A straight four (or, except for Renju black, two fours on one line).
    F4 = 12,
    /// A winning five.
    F5 = 13,
    /// Renju black only: two fours on one line (`X X X . P . X X X`), forbidden.
    DoubleFour = 14,
}

impl Pattern {
    const ALL: [Pattern; 15] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::F2A,
        Pattern::F2B,
        Pattern::B3,
        Pattern::F3,
        Pattern::F3S,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
        Pattern::DoubleFour,
    ];

    /// The pattern with this numeric value (values above 14 read as `Dead`).
    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        Self::ALL.get(v as usize).copied().unwrap_or(Pattern::Dead)
    }

    /// The four patterns packed four bits per direction (direction `d` at
    /// bits `4d`), as the board stores them for one colour.
    #[inline]
    pub fn unpack(packed: u16) -> [Pattern; 4] {
        [0, 1, 2, 3].map(|d| Pattern::from_u8(((packed >> (4 * d)) & 15) as u8))
    }

    /// A three of either strength.
    #[inline]
    pub fn is_three(self) -> bool {
        matches!(self, Pattern::F3 | Pattern::F3S)
    }

    /// A four of any kind (including a straight four and a line double four).
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::B4 | Pattern::F4 | Pattern::DoubleFour)
    }
}

/// Result of putting the centre stone on a decoded line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FiveStatus {
    None,
    Five,
    Overline,
    /// Caro: an exact five with opponent stones at both ends.
    Blocked,
}

/// Judges the run through the centre (index 5) of an 11-cell line.
fn five_status(line: &[u8; 11], me: u8, rule: Rule, color: Color) -> FiveStatus {
    let mut l = 5;
    while l > 0 && line[l - 1] == me {
        l -= 1;
    }
    let mut r = 5;
    while r < 10 && line[r + 1] == me {
        r += 1;
    }
    let len = r - l + 1;
    if len < 5 {
        FiveStatus::None
    } else if len > 5 {
        if rule.overline_wins(color) {
            FiveStatus::Five
        } else {
            FiveStatus::Overline
        }
    } else {
        // len == 5 implies 1 <= l and r <= 9: both end cells are in the window.
        let opp = color.opponent() as u8;
        if rule.blocked_five_loses() && line[l - 1] == opp && line[r + 1] == opp {
            FiveStatus::Blocked
        } else {
            FiveStatus::Five
        }
    }
}

fn decode(key: u32, me: u8) -> [u8; 11] {
    let mut line = [0u8; 11];
    for (i, cell) in line.iter_mut().enumerate() {
        let k = i as i32 - HALF;
        *cell = if k == 0 {
            me
        } else {
            ((key >> key_shift(k)) & 3) as u8
        };
    }
    line
}

/// A key is reachable on a real board only if walls, once they start on a
/// side, continue to the end of the window.
fn key_is_reachable(key: u32) -> bool {
    for side in [-1i32, 1] {
        let mut wall = false;
        for step in 1..=HALF {
            let v = (key >> key_shift(side * step)) & 3;
            if wall && v != Cell::Wall as u32 {
                return false;
            }
            wall |= v == Cell::Wall as u32;
        }
    }
    true
}

struct Classifier {
    rule: Rule,
    color: Color,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = 0xFF;

impl Classifier {
    fn classify(&mut self, key: u32) -> Pattern {
        let cached = self.memo[key as usize];
        if cached != UNKNOWN {
            return Pattern::from_u8(cached);
        }
        let p = self.compute(key);
        self.memo[key as usize] = p as u8;
        p
    }

    #[allow(clippy::needless_range_loop)] // indices are line offsets, not just positions
    fn compute(&mut self, key: u32) -> Pattern {
        let me = self.color as u8;
        let mut line = decode(key, me);
        match five_status(&line, me, self.rule, self.color) {
            FiveStatus::Five => return Pattern::F5,
            FiveStatus::Overline => return Pattern::Overline,
            FiveStatus::Blocked => return Pattern::Dead,
            FiveStatus::None => {}
        }
        // Points that complete a winning five through the centre.
        let mut fives = [0usize; 9];
        let mut n = 0;
        for i in 1..=9 {
            if line[i] != Cell::Empty as u8 {
                continue;
            }
            line[i] = me;
            if five_status(&line, me, self.rule, self.color) == FiveStatus::Five {
                fives[n] = i;
                n += 1;
            }
            line[i] = Cell::Empty as u8;
        }
        if n >= 2 && self.rule.blocked_five_loses() {
            // Caro: the opponent's block on one five point may leave the other
            // five with opponent stones at both ends. An open four needs a five
            // point to survive every single block.
            let opp = self.color.opponent() as u8;
            let survives = (0..n).all(|i| {
                line[fives[i]] = opp;
                let ok = (0..n).any(|j| {
                    if j == i {
                        return false;
                    }
                    line[fives[j]] = me;
                    let s = five_status(&line, me, self.rule, self.color) == FiveStatus::Five;
                    line[fives[j]] = Cell::Empty as u8;
                    s
                });
                line[fives[i]] = Cell::Empty as u8;
                ok
            });
            if !survives {
                return Pattern::B4;
            }
        }
        if n >= 2 {
            let straight = n == 2
                && fives[1] - fives[0] == 5
                && line[fives[0] + 1..fives[1]].iter().all(|&c| c == me);
            if straight || !(self.rule == Rule::Renju && self.color == Color::Black) {
                return Pattern::F4;
            }
            return Pattern::DoubleFour;
        }
        if n == 1 {
            return Pattern::B4;
        }
        // One more stone on the line: what is the best it can make?
        let (mut f4, mut b4, mut f3, mut b3, mut f2, mut b2) = (0, 0, 0, 0, 0, 0);
        for i in 1..=9 {
            if line[i] != Cell::Empty as u8 {
                continue;
            }
            let sub = self.classify(key | (me as u32) << key_shift(i as i32 - HALF));
            match sub {
                Pattern::F4 => f4 += 1,
                Pattern::B4 => b4 += 1,
                Pattern::F3 | Pattern::F3S => f3 += 1,
                Pattern::B3 => b3 += 1,
                Pattern::F2 | Pattern::F2A | Pattern::F2B => f2 += 1,
                Pattern::B2 => b2 += 1,
                _ => {}
            }
        }
        if f4 >= 2 {
            Pattern::F3S
        } else if f4 == 1 {
            Pattern::F3
        } else if b4 > 0 {
            Pattern::B3
        } else if f3 >= 3 {
            Pattern::F2B
        } else if f3 == 2 {
            Pattern::F2A
        } else if f3 == 1 {
            Pattern::F2
        } else if b3 > 0 {
            Pattern::B2
        } else if f2 > 0 {
            Pattern::F1
        } else if b2 > 0 {
            Pattern::B1
        } else {
            Pattern::Dead
        }
    }
}

/// The line-pattern table of one rule: for every line key, black's pattern in
/// the low four bits and white's in the high four.
pub struct PatternTable {
    entries: Box<[u8; KEY_COUNT]>,
}

impl PatternTable {
    fn build(rule: Rule) -> PatternTable {
        let mut entries = vec![0u8; KEY_COUNT].into_boxed_slice();
        let mut per_color = Color::BOTH.map(|color| Classifier {
            rule,
            color,
            memo: vec![UNKNOWN; KEY_COUNT],
        });
        for key in 0..KEY_COUNT as u32 {
            if !key_is_reachable(key) {
                continue;
            }
            let b = per_color[0].classify(key) as u8;
            let w = per_color[1].classify(key) as u8;
            entries[key as usize] = b | (w << 4);
        }
        PatternTable {
            entries: entries.try_into().expect("KEY_COUNT entries"),
        }
    }

    /// The table for `rule`, built on first use and shared afterwards.
    pub fn get(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; 5] = [const { OnceLock::new() }; 5];
        TABLES[rule.index()].get_or_init(|| PatternTable::build(rule))
    }

    /// Both colours' patterns for a key, packed (black low nibble, white high nibble).
    #[inline]
    pub fn packed(&self, key: u32) -> u8 {
        self.entries[key as usize & (KEY_COUNT - 1)]
    }

    /// The pattern `color` makes on a point whose line key is `key`.
    #[inline]
    pub fn pattern(&self, key: u32, color: Color) -> Pattern {
        Pattern::from_u8((self.packed(key) >> (4 * color.index())) & 15)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a line picture centred on `*`: `X` black, `O` white,
    /// `|` wall, `.` empty; cells beyond the picture are empty.
    fn key_of(picture: &str) -> u32 {
        let cells: Vec<char> = picture.chars().filter(|c| !c.is_whitespace()).collect();
        let centre = cells.iter().position(|&c| c == '*').expect("centre");
        let mut key = 0;
        let mut walled = [false, false];
        for step in 1..=HALF {
            for (side, sign) in [(0usize, -1i32), (1, 1)] {
                let idx = centre as i32 + sign * step;
                let c = if idx < 0 || idx >= cells.len() as i32 {
                    if walled[side] { '|' } else { '.' }
                } else {
                    cells[idx as usize]
                };
                let v = match c {
                    'X' => 1,
                    'O' => 2,
                    '|' => {
                        walled[side] = true;
                        3
                    }
                    _ => {
                        if walled[side] {
                            3
                        } else {
                            0
                        }
                    }
                };
                key |= v << key_shift(sign * step);
            }
        }
        key
    }

    fn black(rule: Rule, picture: &str) -> Pattern {
        PatternTable::get(rule).pattern(key_of(picture), Color::Black)
    }

    fn white(rule: Rule, picture: &str) -> Pattern {
        PatternTable::get(rule).pattern(key_of(picture), Color::White)
    }

    #[test]
    fn fives_and_overlines_per_rule() {
        assert_eq!(black(Rule::Freestyle, "XX*XX"), Pattern::F5);
        assert_eq!(black(Rule::Freestyle, "XX*XXX"), Pattern::F5);
        assert_eq!(black(Rule::Standard, "XX*XXX"), Pattern::Overline);
        assert_eq!(black(Rule::Renju, "XX*XXX"), Pattern::Overline);
        assert_eq!(white(Rule::Renju, "OO*OOO"), Pattern::F5);
        assert_eq!(white(Rule::Standard, "OO*OOO"), Pattern::Overline);
        // Caro: an exact five blocked by opponent stones at both ends does not win...
        assert_eq!(black(Rule::Caro, "OXX*XXO"), Pattern::Dead);
        // ...but a board edge is no block, and an overline wins.
        assert_eq!(black(Rule::Caro, "|XX*XXO"), Pattern::F5);
        assert_eq!(black(Rule::Caro, "OXX*XXXO"), Pattern::F5);
        assert_eq!(black(Rule::CaroExact, "OXX*XXXO"), Pattern::Overline);
        assert_eq!(black(Rule::CaroExact, ".XX*XXO"), Pattern::F5);
    }

    #[test]
    fn fours() {
        assert_eq!(black(Rule::Freestyle, "..X*XX.."), Pattern::F4);
        assert_eq!(black(Rule::Freestyle, "O.X*XX.O"), Pattern::F4);
        assert_eq!(black(Rule::Freestyle, "OX*XX.."), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, "X.X*X"), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, "|X*XX."), Pattern::B4);
        // Renju: the end that would make six is no five point.
        assert_eq!(black(Rule::Renju, "X..X*XX."), Pattern::F4);
        assert_eq!(black(Rule::Renju, ".X*XX.X"), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, ".X*XX.X"), Pattern::F4);
        // Two fours on one line: forbidden shape for Renju black only.
        assert_eq!(black(Rule::Renju, "XXX.*.XXX"), Pattern::DoubleFour);
        assert_eq!(black(Rule::Renju, "XX.X*.XX"), Pattern::DoubleFour);
        assert_eq!(white(Rule::Renju, "OOO.*.OOO"), Pattern::F4);
        assert_eq!(black(Rule::Freestyle, "XXX.*.XXX"), Pattern::F4);
    }

    #[test]
    fn threes() {
        assert_eq!(black(Rule::Freestyle, "...X*X..."), Pattern::F3S);
        assert_eq!(black(Rule::Freestyle, "..X.*X..."), Pattern::F3);
        assert_eq!(black(Rule::Freestyle, "|X*X...."), Pattern::B3);
        assert_eq!(black(Rule::Freestyle, "O.X*X.O"), Pattern::B3);
        // Renju: a straight four that would really be an overline (六腐) is no four,
        // so a three with only such extensions is no three.
        assert_eq!(black(Rule::Renju, "X..X*X.."), Pattern::F3);
        assert_eq!(black(Rule::Freestyle, "X..X*X.."), Pattern::F3S);
        assert_eq!(black(Rule::Renju, "X..X*X..X"), Pattern::B3);
        assert_eq!(black(Rule::Freestyle, "X..X*X..X"), Pattern::F3S);
        // False three blocked further away (下止): `O . X X X . O`-like limits.
        assert_eq!(black(Rule::Renju, "O.X*X.O"), Pattern::B3);
        assert_eq!(black(Rule::Renju, "O.X*X..O"), Pattern::F3);
    }

    #[test]
    fn twos_and_ones() {
        assert_eq!(black(Rule::Freestyle, "....*X...."), Pattern::F2B);
        assert_eq!(black(Rule::Freestyle, ".....*....."), Pattern::F1);
        assert_eq!(black(Rule::Freestyle, "|*X...."), Pattern::B2);
        assert_eq!(black(Rule::Freestyle, "O*...O"), Pattern::Dead);
        assert_eq!(black(Rule::Freestyle, "O*....O"), Pattern::B1);
    }

    /// Outside the rules where an overline or a blocked end counts, what a
    /// stone makes depends on its four nearest cells each way only: the board
    /// skips the pattern lookups of the cells five steps away
    /// ([`Rule::far_cells_matter`]).
    #[test]
    fn far_cells_matter_only_where_the_rule_says() {
        let far = [key_shift(-HALF), key_shift(HALF)];
        for rule in Rule::ALL {
            let table = PatternTable::get(rule);
            let mut differs = false;
            for key in (0..KEY_COUNT as u32).filter(|&k| key_is_reachable(k)) {
                for shift in far {
                    for v in 0..4u32 {
                        let other = (key & !(3 << shift)) | (v << shift);
                        if key_is_reachable(other) && table.packed(other) != table.packed(key) {
                            differs = true;
                        }
                    }
                }
                if differs {
                    break;
                }
            }
            assert_eq!(differs, rule.far_cells_matter(), "{rule:?}");
        }
    }

    #[test]
    fn key_shift_slots_are_distinct() {
        let mut seen = 0u32;
        for k in (-HALF..0).chain(1..=HALF) {
            let bits = 3u32 << key_shift(k);
            assert_eq!(seen & bits, 0);
            seen |= bits;
        }
        assert_eq!(seen, (KEY_COUNT - 1) as u32);
    }
}
