//! Game records and the files they are saved as: SGF, Piskvork `.psq`, and
//! PGN result stubs for Ordo and BayesElo.
//!
//! Coordinates are `(x, y)` as the Piskvork protocol counts them: `x` the
//! column from the left, `y` the row from the top, both 0-based. Moves
//! alternate black, white, … from the first one (opening stones included);
//! black moves first.

use std::fmt::Write as _;

use anyhow::{Result, bail, ensure};

use super::stats::Outcome;
use crate::game::{Color, Rule};

/// The result of a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// Black (the first player) won.
    BlackWin,
    /// White (the second player) won.
    WhiteWin,
    /// Drawn.
    Draw,
    /// Not finished (aborted, or still being played).
    Unfinished,
}

impl GameResult {
    /// A win for `color`.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::Black => GameResult::BlackWin,
            Color::White => GameResult::WhiteWin,
        }
    }

    /// The winner, if there is one.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::BlackWin => Some(Color::Black),
            GameResult::WhiteWin => Some(Color::White),
            GameResult::Draw | GameResult::Unfinished => None,
        }
    }

    /// The outcome for the player of `color`; `None` if unfinished.
    pub fn outcome_for(self, color: Color) -> Option<Outcome> {
        match self {
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::Unfinished => None,
            _ if self.winner() == Some(color) => Some(Outcome::Win),
            _ => Some(Outcome::Loss),
        }
    }

    /// The PGN result token with black written as PGN's "White" (the first
    /// player): `1-0` black won, `0-1` white won, `1/2-1/2`, `*` unfinished.
    pub const fn pgn_token(self) -> &'static str {
        match self {
            GameResult::BlackWin => "1-0",
            GameResult::WhiteWin => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }
}

/// How a game ended. For wins, the winner is in the [`GameResult`]; the
/// variants name what happened, not who did it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// The winner completed a winning line under the rule.
    Five,
    /// The loser (black, under Renju) played a forbidden point.
    Forbidden,
    /// The loser sent an illegal move: occupied, off the board, or unparseable.
    IllegalMove,
    /// The loser ran out of time.
    Time,
    /// The loser resigned.
    Resignation,
    /// The loser's engine crashed, hung or broke the protocol.
    Crash,
    /// Drawn: the board filled up (or too few points are left to win, or
    /// Renju black is to move and every empty point is forbidden).
    BoardFull,
    /// Decided by the runner (move limit, agreed adjudication, …).
    Adjudication,
    /// Not finished.
    Unterminated,
}

impl Termination {
    /// A short English description, e.g. `"five in a row"`.
    pub const fn description(self) -> &'static str {
        match self {
            Termination::Five => "five in a row",
            Termination::Forbidden => "forbidden move",
            Termination::IllegalMove => "illegal move",
            Termination::Time => "time forfeit",
            Termination::Resignation => "resignation",
            Termination::Crash => "engine failure",
            Termination::BoardFull => "board full",
            Termination::Adjudication => "adjudication",
            Termination::Unterminated => "unterminated",
        }
    }

    /// The SGF `RE` suffix after `B+` / `W+` for a win ended this way:
    /// `R` resignation, `T` time, `F` (forfeit) for a forbidden move, an
    /// illegal move or an engine failure, and nothing (a win without score)
    /// for five in a row and adjudication.
    pub const fn sgf_win_suffix(self) -> &'static str {
        match self {
            Termination::Resignation => "R",
            Termination::Time => "T",
            Termination::Forbidden | Termination::IllegalMove | Termination::Crash => "F",
            Termination::Five
            | Termination::BoardFull
            | Termination::Adjudication
            | Termination::Unterminated => "",
        }
    }

    /// The PGN standard `Termination` tag value.
    pub const fn pgn_termination(self) -> &'static str {
        match self {
            Termination::Five | Termination::Resignation | Termination::BoardFull => "normal",
            Termination::Forbidden | Termination::IllegalMove => "rules infraction",
            Termination::Time => "time forfeit",
            Termination::Crash => "abandoned",
            Termination::Adjudication => "adjudication",
            Termination::Unterminated => "unterminated",
        }
    }

    /// The error code Piskvork writes on the last line of a tournament `.psq`:
    /// 0 a normal finish (Piskvork ends wins, fouls and draws with 0), 15 a
    /// time-out, -2 an engine error, -1 "unavailable" (what Piskvork writes
    /// when a position is saved by hand, used here for unfinished games).
    pub const fn piskvork_code(self) -> i32 {
        match self {
            Termination::Five
            | Termination::Forbidden
            | Termination::Resignation
            | Termination::BoardFull
            | Termination::Adjudication => 0,
            Termination::Time => 15,
            Termination::IllegalMove | Termination::Crash => -2,
            Termination::Unterminated => -1,
        }
    }
}

/// One game, with what is needed to write it as SGF, `.psq` or PGN.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// Board width (columns).
    pub board_w: u32,
    /// Board height (rows).
    pub board_h: u32,
    /// The rule played.
    pub rule: Rule,
    /// The engine playing black (first).
    pub black: String,
    /// The engine playing white (second).
    pub white: String,
    /// Moves `(x, y)`: column from the left, row from the top, 0-based;
    /// alternately black and white starting with black, opening stones included.
    pub moves: Vec<(u32, u32)>,
    /// Thinking time per move in milliseconds, parallel to `moves`; missing
    /// entries (e.g. opening stones) count as 0.
    pub move_times_ms: Vec<u32>,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub termination: Termination,
    /// Free-text detail for the SGF comment and PGN, e.g. `"black overline at h8"`.
    pub reason: String,
    /// Date the game was played, ISO `YYYY-MM-DD`.
    pub date: Option<String>,
    /// Event (tournament) name.
    pub event: Option<String>,
    /// Round, e.g. `"3"` or `"3.2"`.
    pub round: Option<String>,
    /// Time per move the engines were given, for the `.psq` header's level fields.
    pub turn_time_ms: Option<u64>,
}

impl GameRecord {
    /// An empty, unfinished game.
    pub fn new(board_w: u32, board_h: u32, rule: Rule, black: &str, white: &str) -> GameRecord {
        GameRecord {
            board_w,
            board_h,
            rule,
            black: black.to_owned(),
            white: white.to_owned(),
            moves: Vec::new(),
            move_times_ms: Vec::new(),
            result: GameResult::Unfinished,
            termination: Termination::Unterminated,
            reason: String::new(),
            date: None,
            event: None,
            round: None,
            turn_time_ms: None,
        }
    }

    /// Append a move and the time it took.
    pub fn push_move(&mut self, x: u32, y: u32, time_ms: u32) {
        self.move_times_ms.resize(self.moves.len(), 0);
        self.moves.push((x, y));
        self.move_times_ms.push(time_ms);
    }

    /// Set the result, how the game ended and a free-text reason.
    pub fn finish(&mut self, result: GameResult, termination: Termination, reason: &str) {
        self.result = result;
        self.termination = termination;
        self.reason = reason.to_owned();
    }

    /// The colour that played move number `index` (0-based).
    pub const fn color_of_move(index: usize) -> Color {
        if index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The SGF `RE` value: `0` draw, `Void` unfinished, else `B+` / `W+` and
    /// [`Termination::sgf_win_suffix`] (`B+` five, `B+R`, `B+T`, `W+F`, …).
    pub fn sgf_result(&self) -> String {
        match self.result {
            GameResult::Draw => "0".to_owned(),
            GameResult::Unfinished => "Void".to_owned(),
            GameResult::BlackWin => format!("B+{}", self.termination.sgf_win_suffix()),
            GameResult::WhiteWin => format!("W+{}", self.termination.sgf_win_suffix()),
        }
    }

    /// The game as an SGF FF\[4\] collection of one game (`GM[4]`, Gomoku/Renju).
    ///
    /// Root properties: `FF CA AP GM SZ RU PB PW DT EV RO RE C` (`SZ[w:h]` when
    /// the board is not square; `RU` the [`Rule::name`]; `C` the reason, or the
    /// termination's description when the reason is empty). Then one node per
    /// move, `;B[xy]` / `;W[xy]` with `a` = 0 for both coordinates, `y` from the
    /// top, and `A`…`Z` after `z` for 26 and beyond. Fails if the board is over
    /// 52 lines or a move is off the board.
    pub fn to_sgf(&self) -> Result<String> {
        ensure!(
            (1..=52).contains(&self.board_w) && (1..=52).contains(&self.board_h),
            "SGF cannot hold a {}x{} board",
            self.board_w,
            self.board_h
        );
        let mut out = String::new();
        out.push_str("(;FF[4]CA[UTF-8]");
        let _ = write!(out, "AP[Tianyuan:{}]GM[4]", env!("CARGO_PKG_VERSION"));
        if self.board_w == self.board_h {
            let _ = write!(out, "SZ[{}]", self.board_w);
        } else {
            let _ = write!(out, "SZ[{}:{}]", self.board_w, self.board_h);
        }
        let _ = write!(out, "RU[{}]", sgf_simple_text(self.rule.name()));
        let _ = write!(out, "\nPB[{}]", sgf_simple_text(&self.black));
        let _ = write!(out, "PW[{}]", sgf_simple_text(&self.white));
        if let Some(date) = &self.date {
            let _ = write!(out, "DT[{}]", sgf_simple_text(date));
        }
        if let Some(event) = &self.event {
            let _ = write!(out, "EV[{}]", sgf_simple_text(event));
        }
        if let Some(round) = &self.round {
            let _ = write!(out, "RO[{}]", sgf_simple_text(round));
        }
        let _ = write!(out, "RE[{}]", self.sgf_result());
        let comment = if self.reason.is_empty() {
            self.termination.description()
        } else {
            &self.reason
        };
        let _ = write!(out, "\nC[{}]\n", sgf_escape(comment));
        for (i, &(x, y)) in self.moves.iter().enumerate() {
            ensure!(
                x < self.board_w && y < self.board_h,
                "move {} ({x},{y}) is off the {}x{} board",
                i + 1,
                self.board_w,
                self.board_h
            );
            let colour = match Self::color_of_move(i) {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let _ = write!(out, ";{colour}[{}{}]", sgf_coord(x)?, sgf_coord(y)?);
            if i % 10 == 9 && i + 1 < self.moves.len() {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        Ok(out)
    }

    /// The game as a Piskvork `.psq` file, the way Piskvork's tournament mode
    /// saves it (`savePsq` in Piskvork's `game.cpp`, read back by `openPsq`):
    ///
    /// ```text
    /// Piskvorky 15x15, 11:11, 0
    /// 8,8,0            x,y,time_ms per move, 1-based, x = column
    /// 9,9,1234
    /// pbrain-black     the engine that moved first
    /// pbrain-white
    /// 0                error code, see Termination::piskvork_code
    /// ```
    ///
    /// The header is `Piskvorky <w>x<h>, <l1>:<l2>, <h>` where `l1`, `l2` are
    /// Piskvork's level numbers (see [`piskvork_level`]; 0 would mean a human)
    /// and `h` the index of the player who started, always 0 here because
    /// black is written first. Lines end with `\n` (Piskvork opens the file in
    /// text mode, which also reads that on Windows). Newlines in names become
    /// spaces. Piskvork's reader treats a name starting with `homo-` as a
    /// human, and one starting with a digit loses its leading digits.
    pub fn to_psq(&self) -> String {
        let level = self.turn_time_ms.map_or(11, piskvork_level);
        let mut out = format!(
            "Piskvorky {}x{}, {level}:{level}, 0\n",
            self.board_w, self.board_h
        );
        for (i, &(x, y)) in self.moves.iter().enumerate() {
            let t = self.move_times_ms.get(i).copied().unwrap_or(0);
            let _ = writeln!(out, "{},{},{t}", x + 1, y + 1);
        }
        let _ = writeln!(out, "{}", one_line(&self.black));
        let _ = writeln!(out, "{}", one_line(&self.white));
        let _ = writeln!(out, "{}", self.termination.piskvork_code());
        out
    }

    /// The game as a PGN result stub that Ordo and BayesElo read: the seven
    /// standard tags plus `Termination`, `PlyCount` and `Reason` (when not
    /// empty), a blank line, the result token, a blank line.
    ///
    /// Gomoku's black (the first player) is written as PGN's `White` and
    /// Gomoku's white as PGN's `Black`, so `1-0` means the first player won.
    /// The rating tools only use the pairing and the result, but keeping
    /// "White = moves first" lets a white-advantage estimate (BayesElo's
    /// `advantage`) measure the first-move advantage. Unfinished games get
    /// the `*` token, which both tools skip. `Date` is the record's ISO date
    /// with dots (`2025.01.31`), `????.??.??` if unknown.
    pub fn to_pgn(&self) -> String {
        let date = self
            .date
            .as_deref()
            .map_or_else(|| "????.??.??".to_owned(), |d| d.replace('-', "."));
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            let _ = writeln!(out, "[{name} \"{}\"]", pgn_escape(value));
        };
        tag("Event", self.event.as_deref().unwrap_or("?"));
        tag("Site", "?");
        tag("Date", &date);
        tag("Round", self.round.as_deref().unwrap_or("?"));
        tag("White", &self.black);
        tag("Black", &self.white);
        tag("Result", self.result.pgn_token());
        tag("Termination", self.termination.pgn_termination());
        tag("PlyCount", &self.moves.len().to_string());
        if !self.reason.is_empty() {
            tag("Reason", &self.reason);
        }
        out.push('\n');
        out.push_str(self.result.pgn_token());
        out.push_str("\n\n");
        out
    }
}

/// PGN stubs for many games, one entry each (see [`GameRecord::to_pgn`]).
pub fn write_pgn(records: &[GameRecord]) -> String {
    records.iter().map(GameRecord::to_pgn).collect()
}

/// Piskvork's level number for a time per move: one more than the index of
/// the largest entry of Piskvork's `levelTab` (100, 300, 600, 1000, 1500,
/// 2500, 5000, 10000, 15000, 30000, 60000 ms) not above it, and 1 below 300 ms.
pub fn piskvork_level(turn_time_ms: u64) -> u32 {
    const LEVELS: [u64; 11] = [
        100, 300, 600, 1000, 1500, 2500, 5000, 10000, 15000, 30000, 60000,
    ];
    let mut l = LEVELS.len() - 1;
    while l > 0 && turn_time_ms < LEVELS[l] {
        l -= 1;
    }
    l as u32 + 1
}

/// Escape an SGF Text value: `\` becomes `\\` and `]` becomes `\]`.
pub fn sgf_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// An SGF SimpleText value: escaped, with line breaks and tabs as spaces.
fn sgf_simple_text(text: &str) -> String {
    sgf_escape(&one_line(text))
}

/// The SGF letter for a coordinate: `a`..`z` for 0..25, `A`..`Z` for 26..51.
fn sgf_coord(v: u32) -> Result<char> {
    match v {
        0..26 => Ok((b'a' + v as u8) as char),
        26..52 => Ok((b'A' + (v - 26) as u8) as char),
        _ => bail!("coordinate {v} does not fit in SGF"),
    }
}

/// `text` with `\r`, `\n` and `\t` replaced by spaces.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n', '\t'], " ")
}

/// Escape a PGN tag value: `\` and `"` are backslash-escaped; line breaks
/// become spaces.
fn pgn_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node: its properties in order, each with its (unescaped) values.
    type Node = Vec<(String, Vec<String>)>;

    /// A minimal SGF reader for one game tree without variations: returns the
    /// main line's nodes. Handles whitespace between tokens and `\` escapes.
    fn parse_sgf(text: &str) -> Vec<Node> {
        let mut chars = text.chars().peekable();
        let skip_ws = |it: &mut std::iter::Peekable<std::str::Chars>| {
            while it.peek().is_some_and(|c| c.is_whitespace()) {
                it.next();
            }
        };
        skip_ws(&mut chars);
        assert_eq!(chars.next(), Some('('), "collection must start with (");
        let mut nodes = Vec::new();
        loop {
            skip_ws(&mut chars);
            match chars.next() {
                Some(';') => {}
                Some(')') => break,
                other => panic!("expected ; or ), got {other:?}"),
            }
            let mut node: Node = Vec::new();
            loop {
                skip_ws(&mut chars);
                match chars.peek() {
                    Some(c) if c.is_ascii_uppercase() => {}
                    _ => break,
                }
                let mut ident = String::new();
                while let Some(&c) = chars.peek() {
                    if !c.is_ascii_uppercase() {
                        break;
                    }
                    ident.push(c);
                    chars.next();
                }
                let mut values = Vec::new();
                loop {
                    skip_ws(&mut chars);
                    if chars.peek() != Some(&'[') {
                        break;
                    }
                    chars.next();
                    let mut value = String::new();
                    loop {
                        match chars.next().expect("unterminated value") {
                            '\\' => value.push(chars.next().expect("dangling escape")),
                            ']' => break,
                            c => value.push(c),
                        }
                    }
                    values.push(value);
                }
                assert!(!values.is_empty(), "property {ident} without value");
                node.push((ident, values));
            }
            nodes.push(node);
        }
        skip_ws(&mut chars);
        assert_eq!(chars.next(), None, "trailing text after the game");
        nodes
    }

    fn prop<'a>(node: &'a Node, id: &str) -> Option<&'a str> {
        node.iter()
            .find(|(i, _)| i == id)
            .map(|(_, v)| v[0].as_str())
    }

    fn sample() -> GameRecord {
        let mut g = GameRecord::new(15, 15, Rule::Renju, "Tian]yuan\\dev", "pbrain-other");
        for (i, &(x, y)) in [(7, 7), (8, 8), (7, 8), (8, 7), (7, 9), (7, 6), (7, 10)]
            .iter()
            .enumerate()
        {
            g.push_move(x, y, 100 * i as u32);
        }
        g.finish(
            GameResult::WhiteWin,
            Termination::Forbidden,
            "black double-four at [h9]",
        );
        g.date = Some("2025-03-01".to_owned());
        g.event = Some("Tianyuan gauntlet".to_owned());
        g.round = Some("4".to_owned());
        g.turn_time_ms = Some(5000);
        g
    }

    #[test]
    fn sgf_round_trips_through_an_independent_reader() {
        let g = sample();
        let text = g.to_sgf().unwrap();
        let nodes = parse_sgf(&text);
        assert_eq!(nodes.len(), 1 + g.moves.len());
        let root = &nodes[0];
        assert_eq!(prop(root, "FF"), Some("4"));
        assert_eq!(prop(root, "GM"), Some("4"));
        assert_eq!(prop(root, "CA"), Some("UTF-8"));
        assert_eq!(prop(root, "SZ"), Some("15"));
        assert_eq!(prop(root, "RU"), Some("renju"));
        assert_eq!(prop(root, "PB"), Some("Tian]yuan\\dev"));
        assert_eq!(prop(root, "PW"), Some("pbrain-other"));
        assert_eq!(prop(root, "RE"), Some("W+F"));
        assert_eq!(prop(root, "C"), Some("black double-four at [h9]"));
        assert_eq!(prop(root, "DT"), Some("2025-03-01"));
        assert_eq!(prop(root, "EV"), Some("Tianyuan gauntlet"));
        assert_eq!(prop(root, "RO"), Some("4"));
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        for (i, node) in nodes[1..].iter().enumerate() {
            assert_eq!(node.len(), 1, "one property per move node");
            let (id, values) = &node[0];
            assert_eq!(id, if i % 2 == 0 { "B" } else { "W" });
            let v: Vec<char> = values[0].chars().collect();
            assert_eq!(v.len(), 2);
            let x = letters.find(v[0]).unwrap() as u32;
            let y = letters.find(v[1]).unwrap() as u32;
            assert_eq!((x, y), g.moves[i]);
        }
        // The literal text for the first moves: x first, 'a' = 0.
        assert!(text.contains(";B[hh];W[ii];B[hi];W[ih]"), "{text}");
        // Escapes are present in the raw text.
        assert!(text.contains("PB[Tian\\]yuan\\\\dev]"), "{text}");
    }

    #[test]
    fn sgf_result_mapping() {
        let mut g = GameRecord::new(15, 15, Rule::Freestyle, "a", "b");
        let cases = [
            (GameResult::BlackWin, Termination::Five, "B+"),
            (GameResult::WhiteWin, Termination::Five, "W+"),
            (GameResult::BlackWin, Termination::Resignation, "B+R"),
            (GameResult::WhiteWin, Termination::Time, "W+T"),
            (GameResult::BlackWin, Termination::Time, "B+T"),
            (GameResult::WhiteWin, Termination::Forbidden, "W+F"),
            (GameResult::BlackWin, Termination::IllegalMove, "B+F"),
            (GameResult::WhiteWin, Termination::Crash, "W+F"),
            (GameResult::BlackWin, Termination::Adjudication, "B+"),
            (GameResult::Draw, Termination::BoardFull, "0"),
            (GameResult::Draw, Termination::Adjudication, "0"),
            (GameResult::Unfinished, Termination::Unterminated, "Void"),
        ];
        for (result, termination, re) in cases {
            g.finish(result, termination, "");
            assert_eq!(g.sgf_result(), re);
            let nodes = parse_sgf(&g.to_sgf().unwrap());
            assert_eq!(prop(&nodes[0], "RE"), Some(re));
            assert_eq!(prop(&nodes[0], "C"), Some(termination.description()));
            assert_eq!(nodes.len(), 1);
        }
    }

    #[test]
    fn sgf_rectangular_and_large_boards() {
        let mut g = GameRecord::new(32, 20, Rule::Standard, "a\nb", "c");
        g.push_move(0, 0, 0);
        g.push_move(31, 19, 0);
        g.push_move(26, 25 - 6, 0);
        g.finish(GameResult::Draw, Termination::Adjudication, "move limit");
        let text = g.to_sgf().unwrap();
        let nodes = parse_sgf(&text);
        assert_eq!(prop(&nodes[0], "SZ"), Some("32:20"));
        assert_eq!(prop(&nodes[0], "RU"), Some("standard"));
        assert_eq!(prop(&nodes[0], "PB"), Some("a b"));
        assert_eq!(prop(&nodes[1], "B"), Some("aa"));
        assert_eq!(prop(&nodes[2], "W"), Some("Ft"));
        assert_eq!(prop(&nodes[3], "B"), Some("At"));
        // Off-board moves and oversize boards are refused rather than mangled.
        g.push_move(32, 0, 0);
        assert!(g.to_sgf().is_err());
        assert!(
            GameRecord::new(53, 53, Rule::Standard, "a", "b")
                .to_sgf()
                .is_err()
        );
        // A long game stays parseable with its line breaks.
        let mut long = GameRecord::new(20, 20, Rule::Freestyle, "a", "b");
        for i in 0..25 {
            long.push_move(i % 20, i / 20, 1);
        }
        assert_eq!(parse_sgf(&long.to_sgf().unwrap()).len(), 26);
    }

    /// A `.psq` file as Piskvork reads it.
    struct Psq {
        size: (u32, u32),
        levels: (u32, u32),
        start: u32,
        moves: Vec<(u32, u32, u32)>,
        names: Vec<String>,
        code: i32,
    }

    /// Read a `.psq` the way Piskvork's `openPsq` does: header by
    /// `"Piskvorky %dx%d, %d:%d, %d"`, then `x,y,t` lines (1-based) until one
    /// fails to parse, then two names and the error code.
    fn parse_psq(text: &str) -> Psq {
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        let rest = header.strip_prefix("Piskvorky ").unwrap();
        let (size, rest) = rest.split_once(", ").unwrap();
        let (w, h) = size.split_once('x').unwrap();
        let (levels, start) = rest.split_once(", ").unwrap();
        let (l1, l2) = levels.split_once(':').unwrap();
        let mut moves = Vec::new();
        let mut names = Vec::new();
        for line in lines.by_ref() {
            let parts: Vec<_> = line.split(',').collect();
            let parsed: Option<Vec<u32>> = (parts.len() == 3)
                .then(|| parts.iter().map(|p| p.parse().ok()).collect())
                .flatten();
            match parsed {
                Some(v) => moves.push((v[0], v[1], v[2])),
                None => {
                    names.push(line.to_owned());
                    break;
                }
            }
        }
        names.push(lines.next().unwrap().to_owned());
        let code = lines.next().unwrap().parse().unwrap();
        assert_eq!(lines.next(), None);
        Psq {
            size: (w.parse().unwrap(), h.parse().unwrap()),
            levels: (l1.parse().unwrap(), l2.parse().unwrap()),
            start: start.parse().unwrap(),
            moves,
            names,
            code,
        }
    }

    #[test]
    fn psq_matches_piskvork_layout() {
        let g = sample();
        let text = g.to_psq();
        assert!(
            text.starts_with("Piskvorky 15x15, 7:7, 0\n8,8,0\n9,9,100\n"),
            "{text}"
        );
        let psq = parse_psq(&text);
        assert_eq!((psq.size, psq.levels, psq.start), ((15, 15), (7, 7), 0));
        assert_eq!(psq.moves.len(), g.moves.len());
        for (i, &(x, y, t)) in psq.moves.iter().enumerate() {
            assert_eq!((x - 1, y - 1), g.moves[i]);
            assert_eq!(t, g.move_times_ms[i]);
        }
        assert_eq!(psq.names, [g.black.clone(), g.white.clone()]);
        assert_eq!(psq.code, 0);

        let mut g = GameRecord::new(20, 18, Rule::Freestyle, "x\ny", "z");
        g.moves.push((0, 0)); // opening stone without a time
        g.push_move(19, 17, 42);
        g.finish(GameResult::BlackWin, Termination::Time, "white timed out");
        let psq = parse_psq(&g.to_psq());
        assert_eq!((psq.size, psq.levels), ((20, 18), (11, 11)));
        assert_eq!(psq.moves, [(1, 1, 0), (20, 18, 42)]);
        assert_eq!(psq.names, ["x y", "z"]);
        assert_eq!(psq.code, 15);
        g.termination = Termination::Crash;
        assert!(g.to_psq().ends_with("\n-2\n"));
        g.termination = Termination::Unterminated;
        assert!(g.to_psq().ends_with("\n-1\n"));
    }

    #[test]
    fn piskvork_levels() {
        assert_eq!(piskvork_level(0), 1);
        assert_eq!(piskvork_level(299), 1);
        assert_eq!(piskvork_level(300), 2);
        assert_eq!(piskvork_level(1000), 4);
        assert_eq!(piskvork_level(5000), 7);
        assert_eq!(piskvork_level(59_999), 10);
        assert_eq!(piskvork_level(60_000), 11);
        assert_eq!(piskvork_level(180_000), 11);
    }

    #[test]
    fn pgn_stub_for_rating_tools() {
        let g = sample();
        let text = g.to_pgn();
        let expected = "[Event \"Tianyuan gauntlet\"]\n\
                        [Site \"?\"]\n\
                        [Date \"2025.03.01\"]\n\
                        [Round \"4\"]\n\
                        [White \"Tian]yuan\\\\dev\"]\n\
                        [Black \"pbrain-other\"]\n\
                        [Result \"0-1\"]\n\
                        [Termination \"rules infraction\"]\n\
                        [PlyCount \"7\"]\n\
                        [Reason \"black double-four at [h9]\"]\n\
                        \n\
                        0-1\n\
                        \n";
        assert_eq!(text, expected);

        let mut a = GameRecord::new(15, 15, Rule::Freestyle, "first \"q\"", "second");
        a.finish(GameResult::BlackWin, Termination::Five, "");
        let mut b = a.clone();
        b.finish(GameResult::Draw, Termination::BoardFull, "");
        let mut c = a.clone();
        c.finish(GameResult::Unfinished, Termination::Unterminated, "");
        let all = write_pgn(&[a, b, c]);
        let games: Vec<&str> = all.split("\n\n").filter(|s| !s.is_empty()).collect();
        // Tags and result token alternate, separated by blank lines.
        assert_eq!(games.len(), 6, "{all}");
        assert!(games[0].contains("[White \"first \\\"q\\\"\"]"));
        assert!(games[0].contains("[Date \"????.??.??\"]"));
        assert!(!games[0].contains("[Reason"));
        assert_eq!(games[1], "1-0");
        assert!(games[2].contains("[Result \"1/2-1/2\"]"));
        assert_eq!(games[3], "1/2-1/2");
        assert_eq!(games[5].trim_end(), "*");
    }

    #[test]
    fn results_and_outcomes() {
        assert_eq!(GameResult::win_for(Color::White), GameResult::WhiteWin);
        assert_eq!(GameResult::BlackWin.winner(), Some(Color::Black));
        assert_eq!(GameResult::Draw.winner(), None);
        assert_eq!(
            GameResult::BlackWin.outcome_for(Color::Black),
            Some(Outcome::Win)
        );
        assert_eq!(
            GameResult::BlackWin.outcome_for(Color::White),
            Some(Outcome::Loss)
        );
        assert_eq!(
            GameResult::Draw.outcome_for(Color::White),
            Some(Outcome::Draw)
        );
        assert_eq!(GameResult::Unfinished.outcome_for(Color::Black), None);
        assert_eq!(GameRecord::color_of_move(0), Color::Black);
        assert_eq!(GameRecord::color_of_move(3), Color::White);
        assert_eq!(sgf_escape("a]b\\c"), "a\\]b\\\\c");
    }
}
