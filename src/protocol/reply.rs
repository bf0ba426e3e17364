//! Exact engine → manager reply lines (without the line ending; the writer adds it).
//!
//! Free text passed in (messages, errors) is made single-line: CR, LF and other control
//! characters except tab become spaces, so one reply is always one protocol line.
//! Coordinates are `usize`, as the engine's board points give them.

use std::borrow::Cow;

/// The `ABOUT` answer's `name` field.
pub const ENGINE_NAME: &str = "Tianyuan";
/// The `ABOUT` answer's `author` field.
pub const ENGINE_AUTHOR: &str = "Tianyuan developers";
/// The `ABOUT` answer's `country` field.
pub const ENGINE_COUNTRY: &str = "CN";
/// The `ABOUT` answer's `www` field.
pub const ENGINE_WWW: &str = "https://github.com/tianyuan-gomoku/tianyuan";
/// The crate version, the `ABOUT` answer's `version` field.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `text` with CR, LF and other control characters (except tab) replaced by spaces.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\t';
    if text.contains(unsafe_char) {
        Cow::Owned(
            text.chars()
                .map(|c| if unsafe_char(c) { ' ' } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// `WORD text` with `text` sanitised, or just `WORD` when `text` is empty.
fn prefixed(word: &str, text: &str) -> String {
    if text.is_empty() {
        word.to_string()
    } else {
        format!("{word} {}", sanitize(text))
    }
}

/// A move: `x,y`.
pub fn coord(x: usize, y: usize) -> String {
    format!("{x},{y}")
}

/// Several moves separated by spaces: `x1,y1 x2,y2 …` (the `SWAP2BOARD` answers with
/// three or two stones; one stone gives the same as [`coord`]).
pub fn moves(points: &[(usize, usize)]) -> String {
    let mut out = String::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&coord(x, y));
    }
    out
}

/// `SWAP`: the `SWAP2BOARD` answer choosing to swap colours.
pub fn swap() -> String {
    "SWAP".to_string()
}

/// `OK`: the answer to `START`, `RECTSTART`, `RESTART` and `TAKEBACK`.
pub fn ok() -> String {
    "OK".to_string()
}

/// `ERROR message`: a known command the engine cannot honour.
pub fn error(message: &str) -> String {
    prefixed("ERROR", message)
}

/// `UNKNOWN message`: a command the engine does not know.
pub fn unknown(message: &str) -> String {
    prefixed("UNKNOWN", message)
}

/// `MESSAGE text`: free text for the user.
pub fn message(text: &str) -> String {
    prefixed("MESSAGE", text)
}

/// `DEBUG text`: detail for the developer.
pub fn debug(text: &str) -> String {
    prefixed("DEBUG", text)
}

/// `SUGGEST x,y`: propose a move; the manager answers with `PLAY x,y`.
pub fn suggest(x: usize, y: usize) -> String {
    format!("SUGGEST {x},{y}")
}

/// `INFO key value` (e.g. `INFO MAX_THREAD_NUM 2`); `YXSHOWINFO` sends it as a `MESSAGE`.
pub fn info(key: &str, value: &str) -> String {
    prefixed(&format!("INFO {}", sanitize(key)), value)
}

/// `FORBID xxyy….`: the `YXSHOWFORBID` answer, each point as two-digit x then two-digit
/// y (zero padded), ending with `.`; `FORBID .` when there are none.
pub fn forbid(points: impl IntoIterator<Item = (usize, usize)>) -> String {
    let mut out = String::from("FORBID ");
    for (x, y) in points {
        out.push_str(&format!("{x:02}{y:02}"));
    }
    out.push('.');
    out
}

/// The one-line `ABOUT` answer.
pub fn about() -> String {
    format!(
        "name=\"{ENGINE_NAME}\", version=\"{ENGINE_VERSION}\", author=\"{ENGINE_AUTHOR}\", \
         country=\"{ENGINE_COUNTRY}\", www=\"{ENGINE_WWW}\""
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_swap2_answers() {
        assert_eq!(coord(7, 8), "7,8");
        assert_eq!(coord(0, 19), "0,19");
        assert_eq!(moves(&[(7, 7), (8, 7), (9, 9)]), "7,7 8,7 9,9");
        assert_eq!(moves(&[(8, 8), (8, 6)]), "8,8 8,6");
        assert_eq!(moves(&[(6, 8)]), "6,8");
        assert_eq!(moves(&[]), "");
        assert_eq!(swap(), "SWAP");
        assert_eq!(suggest(10, 10), "SUGGEST 10,10");
    }

    #[test]
    fn status_lines() {
        assert_eq!(ok(), "OK");
        assert_eq!(error("unsupported size 40"), "ERROR unsupported size 40");
        assert_eq!(error(""), "ERROR");
        assert_eq!(
            unknown("unknown command \"FOO\""),
            "UNKNOWN unknown command \"FOO\""
        );
        assert_eq!(message("depth 12 eval +35"), "MESSAGE depth 12 eval +35");
        assert_eq!(debug("tt 12% full"), "DEBUG tt 12% full");
        assert_eq!(info("MAX_THREAD_NUM", "2"), "INFO MAX_THREAD_NUM 2");
        assert_eq!(info("FLAG", ""), "INFO FLAG");
    }

    #[test]
    fn free_text_is_single_line() {
        assert_eq!(message("a\r\nb\nc\rd"), "MESSAGE a  b c d");
        assert_eq!(debug("x\u{0}y\u{7f}z"), "DEBUG x y z");
        assert_eq!(error("line1\nline2"), "ERROR line1 line2");
        assert_eq!(unknown("\r\n"), "UNKNOWN   ");
        assert_eq!(message("tab\tkept"), "MESSAGE tab\tkept");
        assert_eq!(info("A\nB", "1\r2"), "INFO A B 1 2");
        assert!(matches!(sanitize("clean"), Cow::Borrowed("clean")));
    }

    #[test]
    fn forbid_lines() {
        assert_eq!(forbid([]), "FORBID .");
        assert_eq!(forbid([(7, 7), (8, 9)]), "FORBID 07070809.");
        assert_eq!(forbid([(9, 12), (10, 11)]), "FORBID 09121011.");
        assert_eq!(forbid(vec![(0, 0)]), "FORBID 0000.");
    }

    #[test]
    fn about_line() {
        assert_eq!(
            about(),
            format!(
                "name=\"Tianyuan\", version=\"{}\", author=\"Tianyuan developers\", \
                 country=\"CN\", www=\"https://github.com/tianyuan-gomoku/tianyuan\"",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert!(!about().contains('\n'));
    }
}
