//! Reading Piskvork `.psq` game records, shared by the examples.

use tianyuan::game::Pos;

/// A game record: board width and height, and the moves with their times (ms).
pub struct Record {
    pub width: usize,
    pub height: usize,
    pub moves: Vec<(Pos, i64)>,
}

/// Reads `text`: the header `Piskvorky WxH, …` (15x15 if unreadable), then
/// 1-based `x,y,time` lines up to the first line that is not a move.
pub fn parse(text: &str) -> Record {
    let mut lines = text.lines();
    let head = lines.next().unwrap_or_default();
    let size = |s: &str| {
        s.split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
    };
    let (width, height) = head.split([' ', ',']).find_map(size).unwrap_or((15, 15));
    let mut moves = Vec::new();
    for line in lines {
        let f: Vec<i64> = line
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        if f.len() < 2 || f[0] < 1 || f[1] < 1 {
            break;
        }
        let p = Pos::new(f[0] as usize - 1, f[1] as usize - 1);
        moves.push((p, f.get(2).copied().unwrap_or(0)));
    }
    Record {
        width,
        height,
        moves,
    }
}
