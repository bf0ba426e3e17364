//! Threat classes: what one more stone on an empty point makes over all four lines.
//!
//! Combines the four line [`Pattern`]s of a point for one colour into one class
//! (five, open four, four-three, double three, …) through a table indexed by the
//! four patterns packed in 16 bits, as the board stores them.

use std::sync::OnceLock;

use super::pattern::Pattern;

/// The combined threat one stone of a colour makes on an empty point, weakest first.
///
/// For Renju black, [`Threat::Forbidden`] marks overline and double-four points;
/// a double three (also inside [`Threat::Four3`], a 4-3-3) needs the exact,
/// recursive test of [`crate::game::Board::forbidden_kind`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Threat {
    /// Nothing worth naming.
    None = 0,
    /// Renju black: overline or double four (never a five).
    Forbidden = 1,
    /// Ones only, somewhere a five is still possible.
    One = 2,
    /// A blocked two.
    Block2 = 3,
    /// A free two.
    Two = 4,
    /// A blocked three.
    Block3 = 5,
    /// Two or more twos, or a blocked three with a two.
    Two2 = 6,
    /// A three.
    Three = 7,
    /// A three with a two or a blocked three beside it.
    ThreePlus = 8,
    /// Two or more threes (3-3; for Renju black maybe forbidden).
    Three3 = 9,
    /// A lone four.
    Four = 10,
    /// A four with a two or a blocked three beside it.
    FourPlus = 11,
    /// A four and a three (4-3).
    Four3 = 12,
    /// A straight four or two fours: wins unless the opponent has a five first.
    Flex4 = 13,
    /// A winning five.
    Five = 14,
}

impl Threat {
    const ALL: [Threat; 15] = [
        Threat::None,
        Threat::Forbidden,
        Threat::One,
        Threat::Block2,
        Threat::Two,
        Threat::Block3,
        Threat::Two2,
        Threat::Three,
        Threat::ThreePlus,
        Threat::Three3,
        Threat::Four,
        Threat::FourPlus,
        Threat::Four3,
        Threat::Flex4,
        Threat::Five,
    ];

    /// The threat with this numeric value (out of range reads as `None`).
    #[inline]
    pub fn from_u8(v: u8) -> Threat {
        Self::ALL.get(v as usize).copied().unwrap_or(Threat::None)
    }

    /// Makes at least a four (a threat the opponent must answer at once).
    #[inline]
    pub fn is_four_or_better(self) -> bool {
        self >= Threat::Four
    }

    /// Makes at least a three (a threat that wins if ignored).
    #[inline]
    pub fn is_three_or_better(self) -> bool {
        self >= Threat::Three
    }
}

/// Combines four line patterns. `renju_black` turns overlines and double fours
/// into [`Threat::Forbidden`] (unless a five is made at the same time).
pub fn combine(pats: [Pattern; 4], renju_black: bool) -> Threat {
    let count = |f: fn(Pattern) -> bool| pats.iter().filter(|&&p| f(p)).count();
    if pats.contains(&Pattern::F5) {
        return Threat::Five;
    }
    let fours =
        count(|p| matches!(p, Pattern::B4 | Pattern::F4)) + 2 * count(|p| p == Pattern::DoubleFour);
    if renju_black && (pats.contains(&Pattern::Overline) || fours >= 2) {
        return Threat::Forbidden;
    }
    let threes = count(Pattern::is_three);
    let block3 = count(|p| p == Pattern::B3);
    let twos = count(|p| matches!(p, Pattern::F2 | Pattern::F2A | Pattern::F2B));
    let block2 = count(|p| p == Pattern::B2);
    let ones = count(|p| matches!(p, Pattern::B1 | Pattern::F1));
    if pats.contains(&Pattern::F4) || fours >= 2 {
        return Threat::Flex4;
    }
    if fours == 1 {
        return if threes > 0 {
            Threat::Four3
        } else if block3 + twos > 0 {
            Threat::FourPlus
        } else {
            Threat::Four
        };
    }
    if threes >= 2 {
        Threat::Three3
    } else if threes == 1 {
        if block3 + twos > 0 {
            Threat::ThreePlus
        } else {
            Threat::Three
        }
    } else if twos >= 2 || (block3 > 0 && twos + block3 >= 2) {
        Threat::Two2
    } else if block3 > 0 {
        Threat::Block3
    } else if twos > 0 {
        Threat::Two
    } else if block2 > 0 {
        Threat::Block2
    } else if ones > 0 {
        Threat::One
    } else {
        Threat::None
    }
}

/// The combination table: index = four 4-bit patterns (direction 0 lowest).
pub struct ThreatTable {
    entries: Box<[u8; 1 << 16]>,
}

impl ThreatTable {
    fn build(renju_black: bool) -> ThreatTable {
        let entries: Box<[u8]> = (0..1usize << 16)
            .map(|i| {
                let pats = [0, 1, 2, 3].map(|d| Pattern::from_u8(((i >> (4 * d)) & 15) as u8));
                combine(pats, renju_black) as u8
            })
            .collect();
        ThreatTable {
            entries: entries.try_into().expect("65536 entries"),
        }
    }

    /// The table for ordinary play (`false`) or for Renju black (`true`).
    pub fn get(renju_black: bool) -> &'static ThreatTable {
        static TABLES: [OnceLock<ThreatTable>; 2] = [const { OnceLock::new() }; 2];
        TABLES[renju_black as usize].get_or_init(|| ThreatTable::build(renju_black))
    }

    /// The threat of four packed patterns.
    #[inline(always)]
    pub fn lookup(&self, packed: u16) -> Threat {
        let v = self.entries[packed as usize];
        debug_assert!(v < 15);
        // SAFETY: every entry was written as `combine(..) as u8`, a valid `Threat`.
        unsafe { std::mem::transmute::<u8, Threat>(v) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn combinations() {
        assert_eq!(combine([F5, DoubleFour, Overline, F3], true), Threat::Five);
        assert_eq!(combine([B4, B4, Dead, Dead], true), Threat::Forbidden);
        assert_eq!(combine([B4, B4, Dead, Dead], false), Threat::Flex4);
        assert_eq!(
            combine([DoubleFour, Dead, Dead, Dead], true),
            Threat::Forbidden
        );
        assert_eq!(combine([Overline, F3, Dead, Dead], true), Threat::Forbidden);
        assert_eq!(combine([Overline, F3, Dead, Dead], false), Threat::Three);
        assert_eq!(combine([B4, F3, Dead, Dead], true), Threat::Four3);
        assert_eq!(combine([F4, Dead, Dead, Dead], true), Threat::Flex4);
        assert_eq!(combine([F3, F3S, Dead, Dead], true), Threat::Three3);
        assert_eq!(combine([B4, F2, Dead, Dead], false), Threat::FourPlus);
        assert_eq!(combine([F2, F2A, Dead, Dead], false), Threat::Two2);
        assert_eq!(combine([B1, Dead, Dead, Dead], false), Threat::One);
    }

    #[test]
    fn table_matches_combine() {
        let t = ThreatTable::get(true);
        let packed = (B4 as u16) | (F3 as u16) << 4 | (Dead as u16) << 8 | (B2 as u16) << 12;
        assert_eq!(t.lookup(packed), combine([B4, F3, Dead, B2], true));
    }
}
