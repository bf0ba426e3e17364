//! The engine's board built from a reference grid, and its answers in the
//! reference's terms.

use super::reference::{BLACK, Grid, RefKind, WHITE};
use tianyuan::game::{Board, Color, ForbiddenKind, Pos, Rule};

pub fn to_ref(k: ForbiddenKind) -> RefKind {
    match k {
        ForbiddenKind::Overline => RefKind::Overline,
        ForbiddenKind::DoubleFour => RefKind::DoubleFour,
        ForbiddenKind::DoubleThree => RefKind::DoubleThree,
    }
}

/// The engine board holding the stones of `g`.
pub fn engine_board(g: &Grid) -> Board {
    let mut b = Board::new(g.w, g.h, Rule::Renju).expect("Board::new");
    for y in 0..g.h {
        for x in 0..g.w {
            let c = match g.get(x, y) {
                BLACK => Color::Black,
                WHITE => Color::White,
                _ => continue,
            };
            b.put(Pos::new(x, y), c)
                .unwrap_or_else(|e| panic!("put ({x},{y}): {e:?}"));
        }
    }
    b
}
