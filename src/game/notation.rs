//! Notation: points as protocol `x,y` and as RIF-style `h8`.
//!
//! **The one mapping**, used everywhere (logs, `MESSAGE` lines, fixtures, records):
//! the protocol's `x` is the column and names the letter (`a` = 0, from the left);
//! the protocol's `y` is the row counted from the top, and the RIF row number
//! counts from the bottom, so `number = height - y`. On 15x15 the centre
//! `7,7` is `h8`, the top-left corner `0,0` is `a15`, the bottom-left `0,14` is `a1`.
//! Columns past `z` (boards wider than 26) continue `aa`, `ab`, … .

use std::fmt;

use super::pos::Pos;

/// A point text that could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

/// The letter(s) of column `x` (`a`..`z`, then `aa`, `ab`, …).
pub fn column_name(x: usize) -> String {
    if x < 26 {
        ((b'a' + x as u8) as char).to_string()
    } else {
        format!("a{}", (b'a' + (x - 26) as u8) as char)
    }
}

/// `p` in RIF style on a board of the given height, e.g. `h8`.
pub fn to_rif(p: Pos, height: usize) -> String {
    format!("{}{}", column_name(p.x()), height - p.y())
}

/// `p` as the protocol writes it: `x,y`.
pub fn to_protocol(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

/// Reads one RIF-style point (`h8`, `H8`, `ab12`) on a `width` x `height` board.
pub fn parse_rif(text: &str, width: usize, height: usize) -> Result<Pos, NotationError> {
    let t = text.trim().to_ascii_lowercase();
    let letters = t.chars().take_while(|c| c.is_ascii_lowercase()).count();
    let (col, row) = t.split_at(letters);
    let x = match col.as_bytes() {
        [c] => (c - b'a') as usize,
        [b'a', c] => 26 + (c - b'a') as usize,
        _ => return Err(NotationError(format!("bad column in point {text:?}"))),
    };
    let number: usize = row
        .parse()
        .map_err(|_| NotationError(format!("bad row in point {text:?}")))?;
    if x >= width || number == 0 || number > height {
        return Err(NotationError(format!(
            "point {text:?} is off the {width}x{height} board"
        )));
    }
    Ok(Pos::new(x, height - number))
}

/// Reads a run of RIF points written together, e.g. `h8i9j7` (the position
/// format of opening files).
pub fn parse_rif_sequence(
    text: &str,
    width: usize,
    height: usize,
) -> Result<Vec<Pos>, NotationError> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    let mut rest = t.as_str();
    while !rest.is_empty() {
        let letters = rest.chars().take_while(|c| c.is_ascii_alphabetic()).count();
        let digits = rest[letters..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if letters == 0 || digits == 0 {
            return Err(NotationError(format!("cannot read points from {text:?}")));
        }
        out.push(parse_rif(&rest[..letters + digits], width, height)?);
        rest = &rest[letters + digits..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping() {
        assert_eq!(to_rif(Pos::new(7, 7), 15), "h8");
        assert_eq!(to_rif(Pos::new(0, 0), 15), "a15");
        assert_eq!(to_rif(Pos::new(0, 14), 15), "a1");
        assert_eq!(to_rif(Pos::new(14, 14), 15), "o1");
        assert_eq!(to_rif(Pos::new(3, 11), 15), "d4");
        assert_eq!(to_rif(Pos::new(27, 0), 32), "ab32");
        assert_eq!(to_protocol(Pos::new(3, 11)), "3,11");
    }

    #[test]
    fn parse_round_trips() {
        for (w, h) in [(15, 15), (20, 20), (32, 32), (7, 12)] {
            for y in 0..h {
                for x in 0..w {
                    let p = Pos::new(x, y);
                    assert_eq!(parse_rif(&to_rif(p, h), w, h), Ok(p));
                }
            }
        }
        assert_eq!(parse_rif("H8", 15, 15), Ok(Pos::new(7, 7)));
    }

    #[test]
    fn parse_errors() {
        assert!(parse_rif("p8", 15, 15).is_err());
        assert!(parse_rif("h0", 15, 15).is_err());
        assert!(parse_rif("h16", 15, 15).is_err());
        assert!(parse_rif("8h", 15, 15).is_err());
        assert!(parse_rif("", 15, 15).is_err());
        assert!(parse_rif("abc1", 32, 32).is_err());
    }

    #[test]
    fn sequences() {
        assert_eq!(
            parse_rif_sequence("h8i9j7", 15, 15),
            Ok(vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 8)])
        );
        assert!(parse_rif_sequence("h8i", 15, 15).is_err());
    }
}
