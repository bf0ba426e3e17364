//! Move generation for the main search: forced replies first, then the
//! defensive set against an open-four threat, else every candidate point.

use arrayvec::ArrayVec;

use super::threats::{defences, five_point, legal_blocks, legal_flex4_point, win_in_5};
use crate::game::{Board, CELLS, Color, Pos, Rule, Threat};

/// Most moves one node can have (every point of a 32x32 board).
pub const MAX_MOVES: usize = 1024;

/// A scored move list.
pub type MoveList = ArrayVec<(Pos, i32), MAX_MOVES>;

/// What the side to move faces at a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NodeKind {
    /// The side to move makes a five on this point.
    WinNow(Pos),
    /// The side to move makes a legal open four (or double four) here: wins in 3.
    WinIn3(Pos),
    /// The side to move wins in 5 from here ([`win_in_5`]).
    WinIn5(Pos),
    /// The opponent has two five points, or its only five point is forbidden for us.
    Lost,
    /// The opponent threatens a five: this block is the only move.
    Forced(Pos),
    /// The opponent threatens an open four: only fours and blocks matter.
    /// (Also a five threat that several blocks stop, under Caro: only those.)
    Defend,
    /// Nothing urgent.
    Quiet,
}

/// Classifies the node for the side to move.
pub fn node_kind(board: &mut Board, last: Option<Pos>) -> NodeKind {
    let me = board.side_to_move();
    let opp = me.opponent();
    if let Some(p) = five_point(board, me, last) {
        return NodeKind::WinNow(p);
    }
    if five_point(board, opp, last).is_some() {
        return match legal_blocks(board, opp, last)[..] {
            [] => NodeKind::Lost,
            [q] => NodeKind::Forced(q),
            // Caro: several blocks spoil the five; each is a defence.
            _ => NodeKind::Defend,
        };
    }
    if let Some(p) = legal_flex4_point(board, me) {
        return NodeKind::WinIn3(p);
    }
    if let Some(p) = win_in_5(board, me) {
        return NodeKind::WinIn5(p);
    }
    if board.threat_count(opp, Threat::Flex4) > 0 && opp_flex4_is_real(board, opp) {
        return NodeKind::Defend;
    }
    NodeKind::Quiet
}

fn opp_flex4_is_real(board: &mut Board, opp: Color) -> bool {
    // Renju black's open-four points may all be forbidden.
    if opp == Color::Black && board.rule() == Rule::Renju {
        legal_flex4_point(board, opp).is_some()
    } else {
        true
    }
}

/// Fills `out` with the moves to search at a `Defend` or `Quiet` node,
/// unscored (score 0), skipping Renju black's forbidden points.
pub fn generate(board: &mut Board, kind: NodeKind, out: &mut MoveList) {
    out.clear();
    let me = board.side_to_move();
    let renju_black = me == Color::Black && board.rule() == Rule::Renju;
    if board.stone_count() == 0 {
        out.push((board.center(), 0));
        return;
    }
    if kind == NodeKind::Defend {
        out.extend(defences(board, me).into_iter().map(|p| (p, 0)));
        return;
    }
    for p in board.points() {
        if !board.is_empty(p) || !board.is_near_stone(p) {
            continue;
        }
        if renju_black {
            let t = board.threat(p, me);
            if matches!(
                t,
                Threat::Forbidden | Threat::Three3 | Threat::Four3 | Threat::Flex4
            ) && board.is_forbidden(p)
            {
                continue;
            }
        }
        out.push((p, 0));
    }
    debug_assert!(out.len() <= CELLS);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_kinds() {
        let (mut b, _) = Board::from_diagram(
            "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . O O O . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
        )
        .unwrap();
        // White to move, black threatens five twice: lost.
        assert_eq!(node_kind(&mut b, None), NodeKind::Lost);
        b.make(Pos::new(0, 1)); // white blocks one end
        b.make(Pos::new(8, 5)); // black elsewhere
        // Black has one five point left: white is forced to block it.
        assert_eq!(node_kind(&mut b, None), NodeKind::Forced(Pos::new(5, 1)));
        b.make(Pos::new(8, 4)); // white ignores it
        assert_eq!(node_kind(&mut b, None), NodeKind::WinNow(Pos::new(5, 1)));
    }

    #[test]
    fn a_caro_five_threat_with_two_blocks_is_defended_by_both() {
        // Black (to move, 4 stones each) faces white's five point 4,1, an
        // exact five shut at one end by 1,1: under Caro 7,1 spoils it too.
        let text = "
            . . . . . . . . . .
            . X O O . O O . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . X . . X . X";
        let (mut b, _) = Board::from_diagram(text, Rule::Caro).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(node_kind(&mut b, None), NodeKind::Defend);
        let mut moves = MoveList::new();
        generate(&mut b, NodeKind::Defend, &mut moves);
        let mut got: Vec<Pos> = moves.iter().map(|m| m.0).collect();
        got.sort();
        assert_eq!(got, vec![Pos::new(4, 1), Pos::new(7, 1)]);
        let (mut b, _) = Board::from_diagram(text, Rule::Freestyle).unwrap();
        assert_eq!(node_kind(&mut b, None), NodeKind::Forced(Pos::new(4, 1)));
    }

    #[test]
    fn a_four_three_wins_in_5_unless_the_block_makes_a_four() {
        // Black to move: (4,1) makes a four on row 1 (blocked by white at
        // its left end) and an open three down column 4; white has no four
        // anywhere, so black wins in 5 plies.
        let diagram = "
            . . . . . . . . . . . . . .
            O X X X . . . . . . . . . .
            . . . . X . . . . . . . . .
            . . . . X . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . O . O .
            . . . . . . . . . . . . . .
            . . . . . . . . . . O . O .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .";
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let (mut b, _) = Board::from_diagram(diagram, rule).unwrap();
            assert_eq!(b.side_to_move(), Color::Black);
            assert_eq!(
                node_kind(&mut b, None),
                NodeKind::WinIn5(Pos::new(4, 1)),
                "{rule:?}"
            );
        }
        // With white stones down column 5 the forced block (5,1) would make
        // white an open four: no quick win (and black faces white's three).
        let (mut b, _) = Board::from_diagram(
            "
            . . . . . . . . . . . . . .
            O X X X . . . . . . . . . .
            . . . . X O . . . . . . . .
            . . . . X O . . . . . . . .
            . . . . . O . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . O . .",
            Rule::Freestyle,
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(node_kind(&mut b, None), NodeKind::Defend);
    }

    #[test]
    fn defend_set_blocks_an_open_three() {
        let (mut b, _) = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X X . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . . . . O . .
            . . . . . . . . .",
            Rule::Freestyle,
        )
        .unwrap();
        // 3 black, 2 white: white to move, facing an open three.
        let kind = node_kind(&mut b, None);
        assert_eq!(kind, NodeKind::Defend);
        let mut moves = MoveList::new();
        generate(&mut b, kind, &mut moves);
        let pts: Vec<Pos> = moves.iter().map(|m| m.0).collect();
        assert!(pts.contains(&Pos::new(1, 2)) && pts.contains(&Pos::new(5, 2)));
        // The far ends leave an open four (x . X X X X .): no defence.
        assert!(!pts.contains(&Pos::new(0, 2)) && !pts.contains(&Pos::new(6, 2)));
        assert!(!pts.contains(&Pos::new(4, 5)));
        assert_eq!(pts.len(), 2);
    }
}
