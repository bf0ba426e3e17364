//! The referee: applies moves on a [`Board`] and decides when and how a game ends.
//!
//! Everything is judged by the game core: a five (exact or overline, per rule and
//! colour; Caro's blocked fives) with [`Board::is_win_stone`], Renju forbidden points
//! with [`Board::forbidden_kind`] (which already lets a move that makes an exact five
//! win even if it also makes a 3-3, 4-4 or an overline in another line).

use crate::game::notation::to_rif;
use crate::game::{Board, BoardError, Color, Pos, Rule};

use super::record::Termination;

/// What a move did to the game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Play on.
    Continue,
    /// The game is over: `winner` (`None` = draw), how, and a human-readable reason.
    Over {
        /// The winner, `None` for a draw.
        winner: Option<Color>,
        /// How it ended.
        termination: Termination,
        /// E.g. `"black double three (33) at h8"`.
        reason: String,
    },
}

impl Verdict {
    /// A loss for `loser`.
    pub fn loss(loser: Color, termination: Termination, reason: String) -> Verdict {
        Verdict::Over {
            winner: Some(loser.opponent()),
            termination,
            reason,
        }
    }
}

/// `black` / `white`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The board of one game and its rules of play.
pub struct Referee {
    board: Board,
    /// Draw once this many stones are on the board (opening included).
    max_moves: Option<usize>,
}

impl Referee {
    /// An empty board. Fails for sizes the game core does not support.
    pub fn new(
        width: usize,
        height: usize,
        rule: Rule,
        max_moves: Option<usize>,
    ) -> Result<Referee, BoardError> {
        Ok(Referee {
            board: Board::new(width, height, rule)?,
            max_moves,
        })
    }

    /// The board so far.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose move it is.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// Judges a move `(x, y)` (as the engine sent it) by the side to move and, if it
    /// is legal, plays it. Off-board, occupied and (Renju black) forbidden points lose;
    /// a five wins; a full board, the move cap or (Renju) black left with only
    /// forbidden points draws.
    pub fn play(&mut self, x: i64, y: i64) -> Verdict {
        let me = self.board.side_to_move();
        let who = color_name(me);
        let p = match self.board.pos(x, y) {
            Ok(p) => p,
            Err(_) => {
                return Verdict::loss(
                    me,
                    Termination::IllegalMove,
                    format!(
                        "{who} played {x},{y}, off the {}x{} board",
                        self.board.width(),
                        self.board.height()
                    ),
                );
            }
        };
        let at = self.name(p);
        if !self.board.is_empty(p) {
            return Verdict::loss(
                me,
                Termination::IllegalMove,
                format!("{who} played {x},{y} ({at}), an occupied point"),
            );
        }
        if me == Color::Black
            && let Some(kind) = self.board.forbidden_kind(p)
        {
            self.board.make_color(p, me);
            return Verdict::loss(
                me,
                Termination::Forbidden,
                format!("black forbidden move {kind} ({}) at {at}", kind.short()),
            );
        }
        self.board.make_color(p, me);
        if self.board.is_win_stone(p) {
            return Verdict::Over {
                winner: Some(me),
                termination: Termination::Five,
                reason: format!("{who} five at {at}"),
            };
        }
        self.check_draw()
    }

    /// A draw by a full board, the move cap, or (Renju) black to move with
    /// every empty point forbidden: black has no legal move, and the game cannot
    /// go on any more than on a full board. Else [`Verdict::Continue`].
    pub fn check_draw(&mut self) -> Verdict {
        if self.board.is_full() {
            return Verdict::Over {
                winner: None,
                termination: Termination::BoardFull,
                reason: "board full".to_owned(),
            };
        }
        if self.board.rule().has_forbidden()
            && self.board.side_to_move() == Color::Black
            && !self.board.points().any(|p| self.board.is_legal(p))
        {
            return Verdict::Over {
                winner: None,
                termination: Termination::BoardFull,
                reason: "black has no legal move: every empty point is forbidden".to_owned(),
            };
        }
        if let Some(cap) = self.max_moves
            && self.board.stone_count() >= cap
        {
            return Verdict::Over {
                winner: None,
                termination: Termination::Adjudication,
                reason: format!("move limit of {cap} reached"),
            };
        }
        Verdict::Continue
    }

    /// `p` in RIF notation on this board.
    pub fn name(&self, p: Pos) -> String {
        to_rif(p, self.board.height())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a list of moves (alternating from black), expecting all but the last to
    /// continue; returns the last verdict.
    fn play_all(rule: Rule, moves: &[(i64, i64)]) -> Verdict {
        let mut r = Referee::new(15, 15, rule, None).unwrap();
        let (last, rest) = moves.split_last().unwrap();
        for &(x, y) in rest {
            assert_eq!(r.play(x, y), Verdict::Continue, "at {x},{y}");
        }
        r.play(last.0, last.1)
    }

    fn over(v: &Verdict) -> (Option<Color>, Termination, String) {
        match v {
            Verdict::Over {
                winner,
                termination,
                reason,
            } => (*winner, *termination, reason.clone()),
            Verdict::Continue => panic!("game not over"),
        }
    }

    /// Black plays the given stones, white answers in the far corner row (spaced so
    /// that white never makes anything).
    fn black_with_far_white(black: &[(i64, i64)]) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for (i, &b) in black.iter().enumerate() {
            out.push(b);
            if i + 1 < black.len() {
                out.push((2 * (i as i64 % 7), 14 - 2 * (i as i64 / 7)));
            }
        }
        out
    }

    #[test]
    fn five_wins() {
        let moves = black_with_far_white(&[(3, 3), (4, 3), (5, 3), (6, 3), (7, 3)]);
        let (w, t, reason) = over(&play_all(Rule::Freestyle, &moves));
        assert_eq!((w, t), (Some(Color::Black), Termination::Five));
        assert_eq!(reason, "black five at h12");
    }

    #[test]
    fn off_board_and_occupied_lose() {
        let (w, t, reason) = over(&play_all(Rule::Freestyle, &[(7, 7), (15, 3)]));
        assert_eq!((w, t), (Some(Color::Black), Termination::IllegalMove));
        assert!(reason.contains("off the 15x15 board"), "{reason}");
        let (w, t, _) = over(&play_all(Rule::Freestyle, &[(-1, 0)]));
        assert_eq!((w, t), (Some(Color::White), Termination::IllegalMove));
        let (w, t, reason) = over(&play_all(Rule::Freestyle, &[(7, 7), (8, 8), (8, 8)]));
        assert_eq!((w, t), (Some(Color::White), Termination::IllegalMove));
        assert!(reason.contains("occupied"), "{reason}");
    }

    #[test]
    fn renju_forbidden_moves_lose_with_the_reason() {
        // 3-3: h8 i8 + j9 j10, then j8.
        let moves = black_with_far_white(&[(7, 7), (8, 7), (9, 8), (9, 9), (9, 7)]);
        let (w, t, reason) = over(&play_all(Rule::Renju, &moves));
        assert_eq!((w, t), (Some(Color::White), Termination::Forbidden));
        assert!(reason.contains("(33)"), "{reason}");
        // The same in freestyle is fine.
        assert_eq!(play_all(Rule::Freestyle, &moves), Verdict::Continue);
        // 4-4 on one line: X X X . X . X X X
        let moves = black_with_far_white(&[(1, 7), (2, 7), (3, 7), (7, 7), (8, 7), (9, 7), (5, 7)]);
        let (_, t, reason) = over(&play_all(Rule::Renju, &moves));
        assert_eq!(t, Termination::Forbidden);
        assert!(reason.contains("(44)"), "{reason}");
        // Overline.
        let moves = black_with_far_white(&[(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 7)]);
        let (w, t, reason) = over(&play_all(Rule::Renju, &moves));
        assert_eq!((w, t), (Some(Color::White), Termination::Forbidden));
        assert!(reason.contains("(overline)"), "{reason}");
        // White's overline wins in Renju.
        let mut white = Vec::new();
        let blacks = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10), (0, 12)];
        let whites = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 7)];
        for i in 0..whites.len() {
            white.push(blacks[i]);
            white.push(whites[i]);
        }
        let (w, t, _) = over(&play_all(Rule::Renju, &white));
        assert_eq!((w, t), (Some(Color::White), Termination::Five));
    }

    #[test]
    fn renju_exact_five_beats_an_overline_elsewhere() {
        // The move at h8 makes an exact five on the column (h4..h8) and an
        // overline on the row (d8..i8) at the same time: a five is never forbidden.
        let black = [
            (7, 8),
            (7, 9),
            (7, 10),
            (7, 11), // column: with 7,7 an exact five
            (3, 7),
            (4, 7),
            (5, 7),
            (6, 7),
            (8, 7), // row: with 7,7 six in a row
            (7, 7),
        ];
        let (w, t, reason) = over(&play_all(Rule::Renju, &black_with_far_white(&black)));
        assert_eq!((w, t), (Some(Color::Black), Termination::Five), "{reason}");
        // Standard rule: the overline does not win, the exact five does.
        let (w, t, _) = over(&play_all(Rule::Standard, &black_with_far_white(&black)));
        assert_eq!((w, t), (Some(Color::Black), Termination::Five));
    }

    #[test]
    fn standard_overline_does_not_win() {
        let moves = black_with_far_white(&[(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 7)]);
        assert_eq!(play_all(Rule::Standard, &moves), Verdict::Continue);
        let (w, t, _) = over(&play_all(Rule::Freestyle, &moves));
        assert_eq!((w, t), (Some(Color::Black), Termination::Five));
    }

    #[test]
    fn draws() {
        let mut r = Referee::new(15, 15, Rule::Freestyle, Some(3)).unwrap();
        assert_eq!(r.play(0, 0), Verdict::Continue);
        assert_eq!(r.play(2, 0), Verdict::Continue);
        let (w, t, reason) = over(&r.play(4, 0));
        assert_eq!((w, t), (None, Termination::Adjudication));
        assert_eq!(reason, "move limit of 3 reached");
        // A 5x5 board filled without a five: rows shifted so no line of five forms.
        let mut r = Referee::new(5, 5, Rule::Freestyle, None).unwrap();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for y in 0..5i64 {
            for x in 0..5i64 {
                // Pattern XXOOX / OOXXO / ... shifted per row.
                if (x + 2 * y) % 4 < 2 {
                    black.push((x, y));
                } else {
                    white.push((x, y));
                }
            }
        }
        assert_eq!(black.len(), 13);
        let mut last = Verdict::Continue;
        for i in 0..25 {
            let (x, y) = if i % 2 == 0 {
                black[i / 2]
            } else {
                white[i / 2]
            };
            last = r.play(x, y);
            if i < 24 {
                assert_eq!(last, Verdict::Continue, "move {i}");
            }
        }
        let (w, t, _) = over(&last);
        assert_eq!((w, t), (None, Termination::BoardFull));
    }

    #[test]
    fn renju_black_with_only_forbidden_points_left_is_a_draw() {
        // Two empty points, both overlines for black; black to move (17 stones each).
        let (board, _) = Board::from_diagram(
            "XXX.XX
             OOOXOO
             OOXOOO
             XOOOXO
             OXOXOX
             XX.XXX",
            Rule::Renju,
        )
        .unwrap();
        let mut r = Referee::new(6, 6, Rule::Renju, None).unwrap();
        r.board = board;
        assert_eq!(r.side_to_move(), Color::Black);
        assert_eq!(r.board.winner(), None);
        for (x, y) in [(3, 0), (2, 5)] {
            let p = r.board.pos(x, y).unwrap();
            assert!(r.board.is_forbidden(p), "{x},{y}");
        }
        let (w, t, reason) = over(&r.check_draw());
        assert_eq!((w, t), (None, Termination::BoardFull));
        assert!(
            reason.contains("every empty point is forbidden"),
            "{reason}"
        );
        // The same position in freestyle: black plays on (and wins with the overline).
        let (board, _) = Board::from_diagram(&r.board.diagram(), Rule::Freestyle).unwrap();
        let mut f = Referee::new(6, 6, Rule::Freestyle, None).unwrap();
        f.board = board;
        assert_eq!(f.check_draw(), Verdict::Continue);
    }
}
