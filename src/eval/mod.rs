//! Static evaluation and move scoring, built on the board's threat classes.
//!
//! The board keeps, per colour, how many empty points give each
//! [`Threat`](crate::game::Threat) class; the evaluation is a weighted sum of those counts (own threats
//! weighted as attack for the side to move, the opponent's as danger), plus
//! the board's running sums of shape values: a value per combination of one
//! colour's four line patterns at an empty point ([`shape_tables`]), which
//! tells apart shapes of one threat class. It costs a few dozen
//! multiplications and is exact after every make/undo.
//! All weights live in [`Weights`] (indexed by [`crate::game::Threat`]), one table
//! (with a row per rule family for the evaluation), and the shape values in
//! `shapes.rs`; both are fitted to search scores by `examples/distil.rs`.

use std::sync::LazyLock;

use crate::game::board::ShapeTable;
use crate::game::{Board, Color, Pos, Rule};

mod shapes;

/// A score in the search's units (roughly: an open three is worth ~100).
pub type Score = i32;

/// Every evaluation and ordering weight, indexed by [`Threat`](crate::game::Threat) value; the
/// evaluation weights per rule family ([`family`]).
#[derive(Clone, Debug)]
pub struct Weights {
    /// Value of one empty point giving the side to move this threat.
    pub own: [[Score; 15]; 2],
    /// Value (subtracted) of one empty point giving the opponent this threat.
    pub opp: [[Score; 15]; 2],
    /// Move ordering: value of making this threat.
    pub attack: [Score; 15],
    /// Move ordering: value of occupying a point where the opponent has this threat.
    pub defend: [Score; 15],
}

/// The default weights.
pub const WEIGHTS: Weights = Weights {
    // Fitted with the shape values (`shapes.rs`) to depth-7 search scores by
    // `examples/distil.rs` (K=400, decided positions kept): 13.7k freestyle and
    // 12.3k Renju positions, quiet or defending an open three, from 2,150
    // self-play games (`examples/label.rs`). Earlier they were fitted to game
    // results (`examples/tune.rs`); fitting to search scores won +135 Elo in
    // freestyle and +44 in Renju (self-play, 200 ms/move).
    // The side to move acts on its threats first, so a 4-3 point of its own is
    // worth far more than one of the opponent (which it can still answer).
    // Own open-four and five points never reach the evaluation (the search
    // scores them as wins), nor do the opponent's five points (a forced block).
    //      None Forb One B2  Two  B3  Two2 Three T+   T3   Four F+   F3   Flex4 Five
    own: [
        // Freestyle, exact five, Caro.
        [
            0, 0, 11, 11, 28, 22, 37, 95, 201, 310, 114, 243, 1638, 400, 800,
        ],
        // Renju.
        [
            0, 0, 20, 22, 28, 39, 56, 87, 146, 146, 117, 224, 1006, 419, 800,
        ],
    ],
    opp: [
        [
            0, 0, 11, 9, 24, 17, 32, 82, 155, 131, 100, 244, 559, 491, 300,
        ],
        [
            0, 0, 20, 20, 25, 36, 47, 74, 104, 45, 107, 208, 368, 320, 300,
        ],
    ],
    attack: [
        0, 0, 1, 3, 10, 9, 25, 60, 80, 400, 50, 70, 1500, 4000, 50000,
    ],
    defend: [0, 0, 1, 2, 8, 7, 20, 40, 55, 300, 35, 50, 1000, 2500, 20000],
};

/// The weight family of `rule`: 0 without forbidden points, 1 for Renju.
#[inline]
pub fn family(rule: Rule) -> usize {
    rule.has_forbidden() as usize
}

/// The four patterns of a packed `u16` sorted (largest first) and packed again:
/// the key of the shape tables, which do not depend on the directions' order.
pub fn sorted_shape_key(pats: u16) -> u16 {
    let mut v = [pats & 15, (pats >> 4) & 15, (pats >> 8) & 15, pats >> 12];
    v.sort_unstable_by(|a, b| b.cmp(a));
    v[0] | (v[1] << 4) | (v[2] << 8) | (v[3] << 12)
}

/// The shape tables expanded from [`shapes::SHAPES`]: without forbidden
/// points (both colours), Renju black, Renju white.
static SHAPE_TABLES: LazyLock<[&'static ShapeTable; 3]> = LazyLock::new(|| {
    std::array::from_fn(|f| {
        let mut t: Box<ShapeTable> = vec![[0i16; 2]; 1 << 16]
            .into_boxed_slice()
            .try_into()
            .expect("table size");
        let values: std::collections::HashMap<u16, [i16; 2]> = shapes::SHAPES[f]
            .iter()
            .map(|&(k, own, opp)| (k, [own, opp]))
            .collect();
        for (pats, v) in t.iter_mut().enumerate() {
            if let Some(&x) = values.get(&sorted_shape_key(pats as u16)) {
                *v = x;
            }
        }
        &*Box::leak(t)
    })
});

/// The shape tables the evaluation wants a board of `rule` to sum (both colours).
pub fn shape_tables(rule: Rule) -> [&'static ShapeTable; 2] {
    let t = &*SHAPE_TABLES;
    if rule.has_forbidden() {
        [t[1], t[2]]
    } else {
        [t[0], t[0]]
    }
}

/// The static evaluation of `board` from the side to move's view.
pub fn evaluate(board: &Board) -> Score {
    let me = board.side_to_move();
    let opp = me.opponent();
    let (mine, theirs) = (board.threat_counts(me), board.threat_counts(opp));
    let f = family(board.rule());
    let (own, opp_w) = (&WEIGHTS.own[f], &WEIGHTS.opp[f]);
    let mut s = 0;
    for t in 2..15 {
        s += mine[t] as Score * own[t] - theirs[t] as Score * opp_w[t];
    }
    s + shape_value(board, me, opp)
}

/// The shape values of `me` (own role) less those of `opp` (opponent role):
/// the board's running sums when it uses the evaluation's tables, otherwise
/// summed afresh over the empty points.
fn shape_value(board: &Board, me: Color, opp: Color) -> Score {
    let tables = shape_tables(board.rule());
    let t = board.shape_tables();
    if std::ptr::eq(t[0], tables[0]) && std::ptr::eq(t[1], tables[1]) {
        return board.shape_sum(me, 0) - board.shape_sum(opp, 1);
    }
    let sums = board.shape_sums_of(tables);
    sums[me.index()][0] - sums[opp.index()][1]
}

/// The ordering score of `color` playing the empty point `p`.
#[inline]
pub fn move_score(board: &Board, p: Pos, color: Color) -> Score {
    let a = board.threat(p, color) as usize;
    let d = board.threat(p, color.opponent()) as usize;
    WEIGHTS.attack[a] + WEIGHTS.defend[d]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;

    #[test]
    fn an_open_three_is_worth_more_than_a_two() {
        let three = "
            . . . . . . . . .
            . . . . . . . . .
            . . X X X . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . . . . . . .";
        let two = "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . . . . . . .";
        let (b3, _) = Board::from_diagram(three, Rule::Freestyle).unwrap();
        let (b2, _) = Board::from_diagram(two, Rule::Freestyle).unwrap();
        // White to move in both: the black three is a worse problem.
        assert!(evaluate(&b3) < evaluate(&b2));
    }

    #[test]
    fn evaluation_is_antisymmetric_in_spirit() {
        let (b, _) = Board::from_diagram(
            "
            . . . . . . .
            . . . . . . .
            . . X X . . .
            . . . . . . .
            . . . . . . .",
            Rule::Freestyle,
        )
        .unwrap();
        // White to move, black has the only stones: white is worse off.
        assert_eq!(b.side_to_move(), Color::White);
        assert!(evaluate(&b) < 0);
    }

    #[test]
    fn running_shape_sums_agree_with_a_fresh_sum() {
        let mut rng = crate::game::Rng::new(99);
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut plain = Board::new(15, 15, rule).unwrap();
            let mut summed = plain.clone();
            summed.set_shape_tables(shape_tables(rule));
            for _ in 0..60 {
                let empties: Vec<Pos> = plain.candidates();
                let p = if empties.is_empty() {
                    plain.center()
                } else {
                    empties[rng.below(empties.len())]
                };
                plain.make(p);
                summed.make(p);
                assert_eq!(evaluate(&plain), evaluate(&summed));
            }
        }
    }

    #[test]
    fn shape_keys_ignore_direction_order() {
        assert_eq!(sorted_shape_key(0x1234), 0x1234);
        assert_eq!(sorted_shape_key(0x4321), 0x1234);
        assert_eq!(sorted_shape_key(0x0900), 0x0009);
        for (k, _, _) in shapes::SHAPES.iter().flat_map(|t| t.iter()) {
            assert_eq!(sorted_shape_key(*k), *k, "table keys are sorted");
        }
    }

    #[test]
    fn ordering_prefers_fives_then_blocks() {
        let (b, _) = Board::from_diagram(
            "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . O O O O . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
        )
        .unwrap();
        let win = move_score(&b, Pos::new(5, 1), Color::Black);
        let block = move_score(&b, Pos::new(5, 3), Color::Black);
        let quiet = move_score(&b, Pos::new(7, 5), Color::Black);
        assert!(win > block && block > quiet);
    }
}
