//! Static evaluation and move scoring, built on the board's threat classes.
//!
//! The board keeps, per colour, how many empty points give each [`Threat`]
//! class; the evaluation is a weighted sum of those counts (own threats
//! weighted as attack for the side to move, the opponent's as danger), so it
//! costs a few dozen multiplications and is exact after every make/undo.
//! All weights live in [`Weights`] (indexed by [`crate::game::Threat`]), one table
//! (with a row per rule family for the evaluation), so they can be tuned.

use crate::game::{Board, Color, Pos, Rule};

/// A score in the search's units (roughly: an open three is worth ~100).
pub type Score = i32;

/// Every evaluation and ordering weight, indexed by [`Threat`] value; the
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
    // Fitted to game results by `examples/tune.rs` (Texel's method, one scale
    // for both families: TUNE_K=1170) on 1,049 self-play, PELA and Rapfi games
    // (17k freestyle and 19k Renju positions, quiet or defending an open three).
    // The side to move acts on its threats first, so a 4-3 point of its own is
    // worth far more than one of the opponent (which it can still answer).
    // Own open-four and five points never reach the evaluation (the search
    // scores them as wins), nor do the opponent's five points (a forced block).
    //      None Forb One B2  Two  B3  Two2 Three T+   T3   Four F+   F3   Flex4 Five
    own: [
        // Freestyle, exact five, Caro.
        [
            0, 0, 3, 13, 8, 4, 83, 121, 299, 415, 103, 369, 3444, 400, 800,
        ],
        // Renju.
        [
            0, 0, 1, 11, 19, 34, 37, 86, 162, 213, 93, 256, 3445, 400, 800,
        ],
    ],
    opp: [
        [0, 0, 0, 13, 3, 0, 80, 110, 250, 203, 97, 322, 774, 465, 300],
        [0, 0, 0, 10, 13, 33, 37, 83, 125, 0, 82, 212, 542, 371, 300],
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

/// The static evaluation of `board` from the side to move's view.
pub fn evaluate(board: &Board) -> Score {
    let me = board.side_to_move();
    let opp = me.opponent();
    let (mine, theirs) = (board.threat_counts(me), board.threat_counts(opp));
    let f = family(board.rule());
    let (own, opp) = (&WEIGHTS.own[f], &WEIGHTS.opp[f]);
    let mut s = 0;
    for t in 2..15 {
        s += mine[t] as Score * own[t] - theirs[t] as Score * opp[t];
    }
    s
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
