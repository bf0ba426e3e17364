//! Openings: the stones a game starts from.
//!
//! Two file formats, one opening per line (blank lines and lines starting with `#`
//! or `//` are skipped):
//! - **offset** (Gomocup, c-gomoku-cli): `dx,dy, dx,dy, …`, each stone relative to the
//!   centre (`width/2, height/2`; `x` to the right, `y` down as the protocol counts);
//! - **position**: RIF points written together, `h8i9j7` (see
//!   [`crate::game::notation`] for the mapping: letter = column, number = height - y).
//!
//! Stones alternate black, white, … from the first. Every opening is checked on the
//! board under the game's rule (on the board, no point twice, no five yet, no Renju
//! forbidden black stone), and errors name the file and line.
//!
//! The 26 RIF openings are built in ([`rif_openings`]).

use std::fmt;
use std::path::Path;

use crate::game::notation::{parse_rif_sequence, to_rif};
use crate::game::{Pos, Rule};

use super::referee::{Referee, Verdict};

/// An opening: a name (file:line or the RIF name) and the stones in move order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Opening {
    /// Where it came from, e.g. `openings.txt:12` or `Kagetsu (花月)`.
    pub name: String,
    /// The stones, black first, alternating.
    pub moves: Vec<Pos>,
}

impl Opening {
    /// The empty opening.
    pub fn empty() -> Opening {
        Opening {
            name: "empty board".to_owned(),
            moves: Vec::new(),
        }
    }

    /// The stones in RIF notation, e.g. `h8 h9 j10`.
    pub fn describe(&self, height: usize) -> String {
        let s: Vec<String> = self.moves.iter().map(|&p| to_rif(p, height)).collect();
        s.join(" ")
    }
}

/// How an opening file is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OpeningFormat {
    /// Decide per line: a comma means offsets, else positions.
    Auto,
    /// `dx,dy, dx,dy, …` from the centre.
    Offset,
    /// `h8i9j7`.
    Position,
}

impl OpeningFormat {
    /// `auto`, `offset` or `pos`/`position`.
    pub fn from_name(name: &str) -> Option<OpeningFormat> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(OpeningFormat::Auto),
            "offset" | "offsets" => Some(OpeningFormat::Offset),
            "pos" | "position" | "positions" => Some(OpeningFormat::Position),
            _ => None,
        }
    }
}

/// A bad opening, naming its source line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningError {}

/// The 26 RIF openings: English name, Chinese name, the three stones with black 1 at
/// `h8` on 15x15. Direct (White 2 at `h9`) first, then indirect (White 2 at `i9`).
pub const RIF_OPENINGS: [(&str, &str, &str); 26] = [
    ("Kansei", "寒星", "h8h9h10"),
    ("Keigetsu", "溪月", "h8h9i10"),
    ("Sosei", "疏星", "h8h9j10"),
    ("Kagetsu", "花月", "h8h9i9"),
    ("Zangetsu", "残月", "h8h9j9"),
    ("Ugetsu", "雨月", "h8h9i8"),
    ("Kinsei", "金星", "h8h9j8"),
    ("Shogetsu", "松月", "h8h9h7"),
    ("Kyugetsu", "丘月", "h8h9i7"),
    ("Shingetsu", "新月", "h8h9j7"),
    ("Zuisei", "瑞星", "h8h9h6"),
    ("Sangetsu", "山月", "h8h9i6"),
    ("Yusei", "游星", "h8h9j6"),
    ("Chosei", "长星", "h8i9j10"),
    ("Kyogetsu", "峡月", "h8i9j9"),
    ("Kosei", "恒星", "h8i9j8"),
    ("Suigetsu", "水月", "h8i9j7"),
    ("Ryusei", "流星", "h8i9j6"),
    ("Ungetsu", "云月", "h8i9i8"),
    ("Hogetsu", "浦月", "h8i9i7"),
    ("Rangetsu", "岚月", "h8i9i6"),
    ("Gingetsu", "银月", "h8i9h7"),
    ("Myojo", "明星", "h8i9h6"),
    ("Shagetsu", "斜月", "h8i9g7"),
    ("Meigetsu", "名月", "h8i9g6"),
    ("Suisei", "彗星", "h8i9f6"),
];

/// The 26 RIF openings placed around the centre of a `width` x `height` board (on
/// 15x15, black 1 is `h8`). Every stone is within two points of the centre, so any
/// supported board (5x5 and up) holds them.
pub fn rif_openings(width: usize, height: usize, rule: Rule) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (en, zh, text) in RIF_OPENINGS {
        let stones = parse_rif_sequence(text, 15, 15).expect("built-in opening");
        let offsets = stones
            .iter()
            .map(|p| (p.x() as i64 - 7, p.y() as i64 - 7))
            .collect::<Vec<_>>();
        let name = format!("{en} ({zh})");
        let moves = place_offsets(&offsets, width, height)
            .map_err(|e| OpeningError(format!("RIF opening {name}: {e}")))?;
        validate(&moves, width, height, rule)
            .map_err(|e| OpeningError(format!("RIF opening {name}: {e}")))?;
        out.push(Opening { name, moves });
    }
    Ok(out)
}

/// Reads the openings of `text` (the contents of `source`, for messages).
pub fn parse_openings(
    text: &str,
    source: &str,
    format: OpeningFormat,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let name = format!("{source}:{}", i + 1);
        let fail = |msg: String| OpeningError(format!("{name}: {msg} (line {:?})", line));
        let fmt = match format {
            OpeningFormat::Auto if line.contains(',') => OpeningFormat::Offset,
            OpeningFormat::Auto => OpeningFormat::Position,
            f => f,
        };
        let moves = match fmt {
            OpeningFormat::Offset => {
                let offsets = parse_offsets(line).map_err(fail)?;
                place_offsets(&offsets, width, height).map_err(fail)?
            }
            _ => parse_rif_sequence(line, width, height).map_err(|e| fail(e.0))?,
        };
        validate(&moves, width, height, rule).map_err(fail)?;
        out.push(Opening { name, moves });
    }
    if out.is_empty() {
        return Err(OpeningError(format!("{source}: no openings in the file")));
    }
    Ok(out)
}

/// Reads an opening file.
pub fn load_openings(
    path: &Path,
    format: OpeningFormat,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>, OpeningError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| OpeningError(format!("cannot read opening file {}: {e}", path.display())))?;
    parse_openings(
        &text,
        &path.display().to_string(),
        format,
        width,
        height,
        rule,
    )
}

/// `dx,dy, dx,dy, …` → offsets. Spaces anywhere are fine; a trailing comma too.
fn parse_offsets(line: &str) -> Result<Vec<(i64, i64)>, String> {
    let mut fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.last() == Some(&"") {
        fields.pop();
    }
    if fields.is_empty() || !fields.len().is_multiple_of(2) {
        return Err(format!(
            "expected pairs dx,dy separated by commas, got {} numbers",
            fields.len()
        ));
    }
    let mut out = Vec::new();
    for pair in fields.chunks(2) {
        let n = |s: &str| {
            s.parse::<i64>()
                .map_err(|_| format!("{s:?} is not a whole number"))
        };
        out.push((n(pair[0])?, n(pair[1])?));
    }
    Ok(out)
}

/// Offsets from the centre → points; fails when one falls off the board.
fn place_offsets(offsets: &[(i64, i64)], width: usize, height: usize) -> Result<Vec<Pos>, String> {
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    offsets
        .iter()
        .map(|&(dx, dy)| {
            let (x, y) = (cx + dx, cy + dy);
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                Err(format!(
                    "offset {dx},{dy} falls off the {width}x{height} board"
                ))
            } else {
                Ok(Pos::new(x as usize, y as usize))
            }
        })
        .collect()
}

/// Plays the opening on an empty board: every stone must be legal and none may end
/// the game.
fn validate(moves: &[Pos], width: usize, height: usize, rule: Rule) -> Result<(), String> {
    let mut r = Referee::new(width, height, rule, None).map_err(|e| e.to_string())?;
    for (i, &p) in moves.iter().enumerate() {
        match r.play(p.x() as i64, p.y() as i64) {
            Verdict::Continue => {}
            Verdict::Over { reason, .. } => {
                return Err(format!("stone {} ends the game: {reason}", i + 1));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rif_openings_on_15x15() {
        let all = rif_openings(15, 15, Rule::Renju).unwrap();
        assert_eq!(all.len(), 26);
        assert_eq!(all[0].describe(15), "h8 h9 h10");
        assert_eq!(all[3].name, "Kagetsu (花月)");
        assert_eq!(all[25].describe(15), "h8 i9 f6");
        for o in &all {
            assert_eq!(o.moves[0], Pos::new(7, 7));
            let w2 = o.moves[1];
            assert!(w2 == Pos::new(7, 6) || w2 == Pos::new(8, 6));
        }
        // All distinct.
        for i in 0..26 {
            for j in 0..i {
                assert_ne!(all[i].moves, all[j].moves);
            }
        }
        // Centred on other boards.
        let big = rif_openings(20, 20, Rule::Freestyle).unwrap();
        assert_eq!(big[0].moves[0], Pos::new(10, 10));
        // Every stone is within two points of the centre: even 5x5 holds them.
        assert_eq!(rif_openings(5, 5, Rule::Freestyle).unwrap().len(), 26);
    }

    #[test]
    fn both_file_formats() {
        let text = "# comment\n\n0,0, 1,-1, 2,2\nh8i9j7\n  -1,0,0,0,  \n";
        let all =
            parse_openings(text, "x.txt", OpeningFormat::Auto, 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(
            all[0].moves,
            vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 9)]
        );
        assert_eq!(all[0].name, "x.txt:3");
        assert_eq!(all[1].describe(15), "h8 i9 j7");
        assert_eq!(all[1].name, "x.txt:4");
        assert_eq!(all[2].moves, vec![Pos::new(6, 7), Pos::new(7, 7)]);
        // Forced formats.
        assert!(
            parse_openings("h8i9", "f", OpeningFormat::Offset, 15, 15, Rule::Freestyle).is_err()
        );
        assert!(
            parse_openings("0,0", "f", OpeningFormat::Position, 15, 15, Rule::Freestyle).is_err()
        );
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("h8i9\n0,0, 1\n", "f.txt:2:"),
            ("h8i9\nh8i9x\n", "f.txt:2:"),
            ("0,0, 1,x\n", "f.txt:1:"),
            ("h8\n\nh8h8\n", "f.txt:3:"),
            ("0,0, 8,0\n", "f.txt:1:"),
            ("h8 p1\n", "f.txt:1:"),
            ("# only a comment\n", "f.txt: no openings"),
        ];
        for (text, want) in cases {
            let e = parse_openings(text, "f.txt", OpeningFormat::Auto, 15, 15, Rule::Freestyle)
                .unwrap_err();
            assert!(e.0.starts_with(want), "{text:?}: {e}");
        }
        // Occupied twice.
        let e = parse_openings(
            "h8i9h8\n",
            "f",
            OpeningFormat::Auto,
            15,
            15,
            Rule::Freestyle,
        )
        .unwrap_err();
        assert!(e.0.contains("occupied"), "{e}");
        // A Renju opening with a forbidden black stone (3-3 at j8).
        let text = "h8a1i8a3j9a5j10a7j8\n";
        assert!(parse_openings(text, "f", OpeningFormat::Auto, 15, 15, Rule::Freestyle).is_ok());
        let e = parse_openings(text, "f", OpeningFormat::Auto, 15, 15, Rule::Renju).unwrap_err();
        assert!(e.0.contains("forbidden"), "{e}");
        // A finished game is no opening.
        let e = parse_openings(
            "a1a2b1b2c1c2d1d2e1\n",
            "f",
            OpeningFormat::Auto,
            15,
            15,
            Rule::Freestyle,
        )
        .unwrap_err();
        assert!(e.0.contains("five"), "{e}");
    }
}
