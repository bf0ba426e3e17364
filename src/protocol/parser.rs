//! The pure line parser: one manager line in, one typed [`Command`] (or [`BlockLine`]) out.
//!
//! Nothing here touches I/O or engine state, and nothing panics on any input.
//!
//! Tolerance: command words and `INFO` keys in any case; CR/LF/tabs and repeated
//! whitespace around the line and between the word and its arguments; spaces around
//! the commas of coordinates (`TURN 7 , 8`). An empty or whitespace-only line is
//! [`Command::Empty`], which the session ignores. Coordinates come back as raw
//! non-negative integers; checking them against the board is the session's job.
//!
//! Errors come in two kinds (see [`ParseError`]): an unknown command word, answered
//! `UNKNOWN …`, and a known command with bad arguments, answered `ERROR …` (or only
//! logged, for `INFO`).

use std::fmt;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

use super::command::{BlockLine, Command, DatabaseCommand, DeleteFilter, Edit, InfoSetting};
use super::reply;
use crate::game::Board;

/// Longest excerpt of the input quoted back in an error message (in characters).
const QUOTE_LIMIT: usize = 48;

/// Longest line [`LineSplitter`] keeps, in bytes; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why a line could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The command word is not one Tianyuan knows; the session answers
    /// `UNKNOWN <message>`.
    Unknown(String),
    /// A known command with missing or malformed arguments; the session answers
    /// `ERROR <message>` (for `INFO` it only logs it, as the manager reads nothing then).
    BadArguments(String),
}

impl ParseError {
    /// The human-readable message, without the `UNKNOWN`/`ERROR` word.
    pub fn message(&self) -> &str {
        match self {
            ParseError::Unknown(message) | ParseError::BadArguments(message) => message,
        }
    }

    /// Is this an unknown command (as opposed to bad arguments to a known one)?
    pub fn is_unknown(&self) -> bool {
        matches!(self, ParseError::Unknown(_))
    }

    /// The full reply line: `UNKNOWN <message>` or `ERROR <message>`.
    pub fn reply(&self) -> String {
        match self {
            ParseError::Unknown(message) => reply::unknown(message),
            ParseError::BadArguments(message) => reply::error(message),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ParseError {}

/// Parse one command line (outside a position block).
///
/// Any line ending (CR LF, LF, CR), surrounding whitespace and a UTF-8 byte-order mark
/// are ignored. Returns [`Command::Empty`] for a blank line.
///
/// # Errors
///
/// [`ParseError::Unknown`] for a command word Tianyuan does not know;
/// [`ParseError::BadArguments`] for a known command whose arguments are missing, extra
/// or malformed (negative or non-numeric coordinates, numbers out of range, a bad
/// `INFO` value).
///
/// ```
/// use tianyuan::protocol::command::Command;
/// use tianyuan::protocol::parser::parse_line;
/// assert_eq!(parse_line("turn 7, 8\r\n"), Ok(Command::Turn(7, 8)));
/// assert!(parse_line("FOO").unwrap_err().is_unknown());
/// ```
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let (word, args) = split_word(line);
    if word.is_empty() {
        return Ok(Command::Empty);
    }
    let upper = word.to_ascii_uppercase();
    let name = upper.as_str();
    // A command that takes no arguments must get none.
    let bare = |command: Command| {
        if args.is_empty() {
            Ok(command)
        } else {
            Err(ParseError::BadArguments(format!(
                "{name} takes no arguments, got {}",
                quote(args)
            )))
        }
    };
    match name {
        "START" => parse_start(args),
        "RECTSTART" => pair(name, "w,h", args).map(|(w, h)| Command::RectStart(w, h)),
        "TURN" => pair(name, "x,y", args).map(|(x, y)| Command::Turn(x, y)),
        "TAKEBACK" => pair(name, "x,y", args).map(|(x, y)| Command::Takeback(x, y)),
        "PLAY" => pair(name, "x,y", args).map(|(x, y)| Command::Play(x, y)),
        "INFO" => parse_info(args).map(Command::Info),
        "YXNBEST" => single(name, "a move count", args).map(Command::YxNBest),
        "YXBALANCEONE" => single(name, "a bias", args).map(Command::YxBalanceOne),
        "YXBALANCETWO" => single(name, "a bias", args).map(Command::YxBalanceTwo),
        "RESTART" => bare(Command::Restart),
        "BEGIN" => bare(Command::Begin),
        "BOARD" => bare(Command::Board),
        "YXBOARD" => bare(Command::YxBoard),
        "SWAP2BOARD" => bare(Command::Swap2Board),
        "DONE" => bare(Command::Done),
        "ABOUT" => bare(Command::About),
        "END" => bare(Command::End),
        "YXSHOWFORBID" => bare(Command::YxShowForbid),
        "YXSTOP" => bare(Command::YxStop),
        "YXHASHCLEAR" => bare(Command::YxHashClear),
        "YXHASHDUMP" => Ok(Command::YxHashDump(path(args))),
        "YXHASHLOAD" => Ok(Command::YxHashLoad(path(args))),
        "YXSEARCHDEFEND" => bare(Command::YxSearchDefend),
        "YXSHOWINFO" => bare(Command::YxShowInfo),
        "YXBLOCK" => bare(Command::YxBlock),
        "YXBLOCKUNDO" => bare(Command::YxBlockUndo),
        "YXBLOCKRESET" => bare(Command::YxBlockReset),
        "YXSETDATABASE" => Ok(Command::YxSetDatabase(path(args))),
        "YXDBTOTXT" => Ok(Command::YxDbToTxt {
            all: false,
            path: path(args),
        }),
        "YXDBTOTXTALL" => Ok(Command::YxDbToTxt {
            all: true,
            path: path(args),
        }),
        "YXTXTTODB" => Ok(Command::YxTxtToDb(path(args))),
        "YXQUERYDATABASEALL" => bare(Command::Database(DatabaseCommand::QueryAll)),
        "YXQUERYDATABASEALLT" => bare(Command::Database(DatabaseCommand::QueryAllText)),
        "YXQUERYDATABASEONE" => bare(Command::Database(DatabaseCommand::QueryOne)),
        "YXQUERYDATABASETEXT" => bare(Command::Database(DatabaseCommand::QueryText)),
        "YXDELETEDATABASEONE" => bare(Command::Database(DatabaseCommand::DeleteOne)),
        "YXEDITTVDDATABASE" => parse_edit_tvd(args),
        "YXEDITTEXTDATABASE" => Ok(Command::Database(DatabaseCommand::EditText(unquote(args)))),
        "YXEDITLABELDATABASE" => {
            let (point, text) = split_word(args);
            let (x, y) = pair(name, "x,y text", point)?;
            let text = text.to_string();
            Ok(Command::Database(DatabaseCommand::EditPointText {
                x,
                y,
                text,
            }))
        }
        "YXDELETEDATABASEALL" => {
            let filter = match args.to_ascii_lowercase().as_str() {
                "" => DeleteFilter::All,
                "nonwl" => DeleteFilter::NotWinLoss,
                "wl" => DeleteFilter::WinLoss,
                _ => {
                    return Err(ParseError::BadArguments(format!(
                        "{name} expects nothing, nonwl or wl, got {}",
                        quote(args)
                    )));
                }
            };
            Ok(Command::Database(DatabaseCommand::DeleteAll(filter)))
        }
        "YXSETBESTMOVEDATABASE" => bare(Command::Database(DatabaseCommand::Unsupported(
            "YXSETBESTMOVEDATABASE",
        ))),
        "YXCLEARBESTMOVEDATABASE" => bare(Command::Database(DatabaseCommand::Unsupported(
            "YXCLEARBESTMOVEDATABASE",
        ))),
        _ => Err(ParseError::Unknown(format!(
            "unknown command {}",
            quote(word)
        ))),
    }
}

/// Parse one command line given as raw bytes, decoding it as UTF-8 and replacing
/// invalid sequences with U+FFFD; otherwise exactly [`parse_line`].
///
/// # Errors
///
/// As [`parse_line`].
pub fn parse_bytes(line: &[u8]) -> Result<Command, ParseError> {
    parse_line(&String::from_utf8_lossy(line))
}

/// Parse one line inside a `BOARD`, `YXBOARD` or `SWAP2BOARD` block.
///
/// Accepts `x,y,field` (field 1, 2 or 3), `x,y` (as `SWAP2BOARD` sends), `DONE` in any
/// case, and blank lines ([`BlockLine::Empty`]). Whether a field is required is the
/// session's call. A line starting with a letter (other than `DONE`) is reported as
/// [`ParseError::Unknown`], so the session may try [`parse_line`] on it (e.g. for an
/// `END` that interrupts a block); other malformed lines are
/// [`ParseError::BadArguments`].
///
/// # Errors
///
/// [`ParseError::Unknown`] for a word other than `DONE`; [`ParseError::BadArguments`]
/// for a wrong number of parts, negative, non-numeric or out-of-range coordinates, or
/// a field outside 1..=3.
pub fn parse_block_line(line: &str) -> Result<BlockLine, ParseError> {
    let line = trim_line(line);
    if line.is_empty() {
        return Ok(BlockLine::Empty);
    }
    if line.eq_ignore_ascii_case("DONE") {
        return Ok(BlockLine::Done);
    }
    if line.chars().next().is_some_and(char::is_alphabetic) {
        return Err(ParseError::Unknown(format!(
            "expected a stone x,y,field or DONE inside a position block, got {}",
            quote(line)
        )));
    }
    let bad = |problem: &str| {
        ParseError::BadArguments(format!(
            "a position line expects x,y,field or x,y, got {}{problem}",
            quote(line)
        ))
    };
    let mut parts = line.split(',').map(str::trim);
    let (Some(x_text), Some(y_text)) = (parts.next(), parts.next()) else {
        return Err(bad(""));
    };
    let field_text = parts.next();
    if parts.next().is_some() {
        return Err(bad(""));
    }
    let x = number::<u32>(x_text).map_err(|p| bad(&format!(": x is {p}")))?;
    let y = number::<u32>(y_text).map_err(|p| bad(&format!(": y is {p}")))?;
    let field = match field_text {
        None => None,
        Some(text) => match number::<u8>(text) {
            Ok(f @ 1..=3) => Some(f),
            Ok(_) | Err(_) => {
                return Err(ParseError::BadArguments(format!(
                    "a position line's field must be 1, 2 or 3, got {} in {}",
                    quote(text),
                    quote(line)
                )));
            }
        },
    };
    Ok(BlockLine::Stone { x, y, field })
}

/// Parse one block line given as raw bytes (lossy UTF-8); otherwise exactly
/// [`parse_block_line`].
///
/// # Errors
///
/// As [`parse_block_line`].
pub fn parse_block_bytes(line: &[u8]) -> Result<BlockLine, ParseError> {
    parse_block_line(&String::from_utf8_lossy(line))
}

/// Splits a byte stream into lines ended by CR LF, LF or a lone CR.
///
/// Feed it whatever each read returns; it calls back once per complete line, without
/// the line ending. A CR LF split across two reads still counts as one ending. Lines
/// longer than [`MAX_LINE_BYTES`] are cut to that length (the protocol allows cutting
/// very long lines). Use it instead of `BufRead::read_line`, which would wait forever
/// on a manager ending lines with a lone CR.
#[derive(Debug, Default)]
pub struct LineSplitter {
    /// The current, unfinished line.
    pending: Vec<u8>,
    /// Did the last byte seen end a line with CR (so that a following LF is ignored)?
    after_cr: bool,
}

impl LineSplitter {
    /// A splitter with no pending input.
    pub fn new() -> LineSplitter {
        LineSplitter::default()
    }

    /// Take in `bytes`, calling `on_line` for each line completed by them.
    pub fn feed(&mut self, bytes: &[u8], mut on_line: impl FnMut(&[u8])) {
        for &byte in bytes {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\r' | b'\n' => {
                    self.after_cr = byte == b'\r';
                    on_line(&self.pending);
                    self.pending.clear();
                }
                _ => {
                    self.after_cr = false;
                    if self.pending.len() < MAX_LINE_BYTES {
                        self.pending.push(byte);
                    }
                }
            }
        }
    }

    /// At end of input: hand over the last line if it had no line ending.
    pub fn finish(&mut self, mut on_line: impl FnMut(&[u8])) {
        if !self.pending.is_empty() {
            on_line(&self.pending);
            self.pending.clear();
        }
        self.after_cr = false;
    }
}

/// `line` without surrounding whitespace (CR and LF included) or byte-order marks.
fn trim_line(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// Split off the first whitespace-separated word; the rest is trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = trim_line(text);
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

/// `text` in double quotes with control characters escaped, shortened if long.
fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_LIMIT).collect();
    if chars.next().is_some() {
        format!("{head:?}...")
    } else {
        format!("{head:?}")
    }
}

/// What is wrong with a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumberProblem {
    Missing,
    NotANumber,
    Negative,
    TooLarge,
    TooSmall,
}

impl fmt::Display for NumberProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberProblem::Missing => "missing",
            NumberProblem::NotANumber => "not an integer",
            NumberProblem::Negative => "negative",
            NumberProblem::TooLarge => "too large",
            NumberProblem::TooSmall => "too small",
        })
    }
}

/// Parse a decimal integer of type `T`, naming the problem on failure.
fn number<T: FromStr<Err = ParseIntError>>(text: &str) -> Result<T, NumberProblem> {
    text.parse::<T>().map_err(|e| match e.kind() {
        IntErrorKind::Empty => NumberProblem::Missing,
        IntErrorKind::PosOverflow => NumberProblem::TooLarge,
        IntErrorKind::NegOverflow => NumberProblem::TooSmall,
        _ => match text.strip_prefix('-') {
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                NumberProblem::Negative
            }
            _ => NumberProblem::NotANumber,
        },
    })
}

/// Parse `a,b` (spaces around the comma allowed) as two non-negative integers, for
/// command `name` whose arguments are described as `shape`.
fn pair(name: &str, shape: &str, args: &str) -> Result<(u32, u32), ParseError> {
    let bad = |problem: String| {
        let got = if args.is_empty() {
            "nothing".to_string()
        } else {
            quote(args)
        };
        ParseError::BadArguments(format!("{name} expects {shape}, got {got}{problem}"))
    };
    let mut parts = args.split(',').map(str::trim);
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad(String::new()));
    };
    let mut labels = shape.split(',');
    let label_a = labels.next().unwrap_or("first");
    let label_b = labels.next().unwrap_or("second");
    let a = number::<u32>(a).map_err(|p| bad(format!(": {label_a} is {p}")))?;
    let b = number::<u32>(b).map_err(|p| bad(format!(": {label_b} is {p}")))?;
    Ok((a, b))
}

/// `YXEDITTVDDATABASE mask label value depth`, four integers.
fn parse_edit_tvd(args: &str) -> Result<Command, ParseError> {
    let numbers: Result<Vec<i32>, _> = args.split_whitespace().map(number::<i32>).collect();
    match numbers.as_deref() {
        Ok(&[mask, label, value, depth]) if mask >= 0 => {
            let mask = mask as u32;
            let edit = Edit {
                mask,
                label,
                value,
                depth,
            };
            Ok(Command::Database(DatabaseCommand::EditTvd(edit)))
        }
        _ => Err(ParseError::BadArguments(format!(
            "YXEDITTVDDATABASE expects mask label value depth (integers), got {}",
            quote(args)
        ))),
    }
}

/// A text argument: inside double quotes (`\"` and `\\` escaped), as
/// Rapfi reads it, or else the rest of the line as it is.
fn unquote(args: &str) -> String {
    let Some(inner) = args.strip_prefix('"') else {
        return args.to_string();
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// A file path argument: the rest of the line (spaces kept inside), or
/// `None` when there is none (then the next line is the path).
fn path(args: &str) -> Option<String> {
    (!args.is_empty()).then(|| args.to_string())
}

/// Parse exactly one integer argument for command `name`, described as `what`.
fn single<T: FromStr<Err = ParseIntError>>(
    name: &str,
    what: &str,
    args: &str,
) -> Result<T, ParseError> {
    number::<T>(args).map_err(|p| {
        if args.is_empty() {
            ParseError::BadArguments(format!("{name} expects {what}, got nothing"))
        } else {
            ParseError::BadArguments(format!("{name} expects {what}, got {}: {p}", quote(args)))
        }
    })
}

/// `START n`, or Yixin-Board's `START w h`: a board `w` wide and `h` high for
/// Yixin-Board, whose move coordinates are row then column (`row,col`, the
/// row below `h`). The engine takes the transposed board, `h` wide and `w`
/// high, so that those coordinates are its own `x,y` and every point
/// Yixin-Board sends or reads (moves, `FORBID`, `REALTIME` marks) lands
/// where it means; the transposed board plays the same game.
fn parse_start(args: &str) -> Result<Command, ParseError> {
    let bad = |problem: String| {
        let got = if args.is_empty() {
            "nothing".to_string()
        } else {
            quote(args)
        };
        ParseError::BadArguments(format!("START expects a board size, got {got}{problem}"))
    };
    let mut tokens = args.split_whitespace();
    match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(size), None, None) => {
            let size = number::<u32>(size).map_err(|p| bad(format!(": size is {p}")))?;
            Ok(Command::Start(size))
        }
        (Some(w), Some(h), None) => {
            let w = number::<u32>(w).map_err(|p| bad(format!(": width is {p}")))?;
            let h = number::<u32>(h).map_err(|p| bad(format!(": height is {p}")))?;
            // Checked here, in the sender's order: the board made is the
            // transposed one, whose refusal would name the sides swapped.
            Board::check_size(w as usize, h as usize)
                .map_err(|e| ParseError::BadArguments(e.to_string()))?;
            Ok(if w == h {
                Command::Start(w)
            } else {
                Command::RectStart(h, w)
            })
        }
        _ => Err(bad(String::new())),
    }
}

/// The value of `INFO key value`, typed by key.
fn parse_info(args: &str) -> Result<InfoSetting, ParseError> {
    let (key, value) = split_word(args);
    if key.is_empty() {
        return Err(ParseError::BadArguments(
            "INFO expects a key and a value, got nothing".to_string(),
        ));
    }
    let lower = key.to_ascii_lowercase();
    let bad = |what: &str, problem: Option<NumberProblem>| {
        let got = if value.is_empty() {
            "nothing".to_string()
        } else {
            quote(value)
        };
        let detail = match problem {
            Some(p) if !value.is_empty() => format!(": {p}"),
            _ => String::new(),
        };
        ParseError::BadArguments(format!("INFO {lower} expects {what}, got {got}{detail}"))
    };
    let int = |what: &'static str| move |p: NumberProblem| bad(what, Some(p));
    const MS: &str = "a non-negative number of milliseconds";
    const COUNT: &str = "a non-negative integer";
    const INT: &str = "an integer";
    let setting = match lower.as_str() {
        "timeout_turn" => InfoSetting::TimeoutTurn(number(value).map_err(int(MS))?),
        "timeout_match" => InfoSetting::TimeoutMatch(number(value).map_err(int(MS))?),
        "time_left" => {
            InfoSetting::TimeLeft(number(value).map_err(int("a number of milliseconds"))?)
        }
        "max_memory" => {
            InfoSetting::MaxMemory(number(value).map_err(int("a non-negative number of bytes"))?)
        }
        "game_type" => InfoSetting::GameType(number(value).map_err(int(COUNT))?),
        "rule" => InfoSetting::Rule(number(value).map_err(int(INT))?),
        "folder" => {
            if value.is_empty() {
                return Err(bad("a folder path", None));
            }
            InfoSetting::Folder(value.to_string())
        }
        "evaluate" => {
            let (x, y) = pair("INFO evaluate", "x,y", value)?;
            InfoSetting::Evaluate(x, y)
        }
        "thread_num" => InfoSetting::ThreadNum(number(value).map_err(int(COUNT))?),
        "hash_size" => {
            InfoSetting::HashSize(number(value).map_err(int("a non-negative size in KB"))?)
        }
        "caution_factor" => InfoSetting::CautionFactor(number(value).map_err(int(COUNT))?),
        "max_depth" => InfoSetting::MaxDepth(number(value).map_err(int(INT))?),
        "max_node" => InfoSetting::MaxNode(match number::<i64>(value) {
            Err(NumberProblem::TooLarge) => i64::MAX,
            other => other.map_err(int(INT))?,
        }),
        "time_increment" => InfoSetting::TimeIncrement(number(value).map_err(int(MS))?),
        "show_detail" => InfoSetting::ShowDetail(number(value).map_err(int(COUNT))?),
        "pondering" => InfoSetting::Pondering(number::<i64>(value).map_err(int("0 or 1"))? != 0),
        "byoyomi" => InfoSetting::Byoyomi(number(value).map_err(int(MS))?),
        _ => InfoSetting::Unknown {
            key: key.to_string(),
            value: value.to_string(),
        },
    };
    Ok(setting)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bad_args(line: &str) -> String {
        match parse_line(line) {
            Err(ParseError::BadArguments(message)) => message,
            other => panic!("{line:?}: expected bad arguments, got {other:?}"),
        }
    }

    fn unknown(line: &str) -> String {
        match parse_line(line) {
            Err(ParseError::Unknown(message)) => message,
            other => panic!("{line:?}: expected unknown, got {other:?}"),
        }
    }

    fn info(line: &str) -> InfoSetting {
        match parse_line(line) {
            Ok(Command::Info(setting)) => setting,
            other => panic!("{line:?}: expected INFO, got {other:?}"),
        }
    }

    #[test]
    fn every_command_parses() {
        let cases: &[(&str, Command)] = &[
            ("START 15", Command::Start(15)),
            ("START 20", Command::Start(20)),
            ("START 15 15", Command::Start(15)),
            ("START 15 20", Command::RectStart(20, 15)),
            ("RECTSTART 30,20", Command::RectStart(30, 20)),
            ("RESTART", Command::Restart),
            ("BEGIN", Command::Begin),
            ("TURN 10,10", Command::Turn(10, 10)),
            ("BOARD", Command::Board),
            ("YXBOARD", Command::YxBoard),
            ("SWAP2BOARD", Command::Swap2Board),
            ("DONE", Command::Done),
            ("INFO rule 4", Command::Info(InfoSetting::Rule(4))),
            ("TAKEBACK 9,10", Command::Takeback(9, 10)),
            ("PLAY 12,10", Command::Play(12, 10)),
            ("ABOUT", Command::About),
            ("END", Command::End),
            ("YXSHOWFORBID", Command::YxShowForbid),
            ("YXSTOP", Command::YxStop),
            ("YXNBEST 5", Command::YxNBest(5)),
            ("YXHASHCLEAR", Command::YxHashClear),
            ("YXHASHDUMP", Command::YxHashDump(None)),
            (
                "YXHASHLOAD  /tmp/my table.hash \r\n",
                Command::YxHashLoad(Some("/tmp/my table.hash".to_string())),
            ),
            ("yxsearchdefend", Command::YxSearchDefend),
            (
                "yxdbtotxt",
                Command::YxDbToTxt {
                    all: false,
                    path: None,
                },
            ),
            (
                "YXDBTOTXTALL C:\\db\\all.txt",
                Command::YxDbToTxt {
                    all: true,
                    path: Some("C:\\db\\all.txt".to_string()),
                },
            ),
            ("YXTXTTODB", Command::YxTxtToDb(None)),
            ("YXSHOWINFO", Command::YxShowInfo),
            ("YXBLOCK", Command::YxBlock),
            ("YXBLOCKUNDO", Command::YxBlockUndo),
            ("YXBLOCKRESET", Command::YxBlockReset),
            ("YXBALANCEONE 0", Command::YxBalanceOne(0)),
            ("YXBALANCETWO -35", Command::YxBalanceTwo(-35)),
            ("", Command::Empty),
        ];
        for (line, expected) in cases {
            assert_eq!(parse_line(line).as_ref(), Ok(expected), "{line:?}");
        }
    }

    #[test]
    fn command_words_in_any_case() {
        for line in ["turn 1,2", "Turn 1,2", "tUrN 1,2", "TURN 1,2"] {
            assert_eq!(parse_line(line), Ok(Command::Turn(1, 2)), "{line:?}");
        }
        assert_eq!(parse_line("begin"), Ok(Command::Begin));
        assert_eq!(parse_line("yxboard"), Ok(Command::YxBoard));
        assert_eq!(parse_line("Swap2Board"), Ok(Command::Swap2Board));
        assert_eq!(parse_line("yxNbest 2"), Ok(Command::YxNBest(2)));
        assert_eq!(parse_line("start 15 15"), Ok(Command::Start(15)));
        assert_eq!(parse_line("done"), Ok(Command::Done));
        assert_eq!(parse_line("end"), Ok(Command::End));
        assert_eq!(parse_line("about"), Ok(Command::About));
        assert_eq!(parse_line("yxstop"), Ok(Command::YxStop));
        assert_eq!(parse_line("yxhashclear"), Ok(Command::YxHashClear));
        assert_eq!(parse_line("yxshowforbid"), Ok(Command::YxShowForbid));
        assert_eq!(parse_line("yxshowinfo"), Ok(Command::YxShowInfo));
        assert_eq!(parse_line("yxblock"), Ok(Command::YxBlock));
        assert_eq!(parse_line("YxBlockReset"), Ok(Command::YxBlockReset));
        assert_eq!(parse_line("yxbalanceone 3"), Ok(Command::YxBalanceOne(3)));
        assert_eq!(parse_line("restart"), Ok(Command::Restart));
        assert_eq!(parse_line("rectstart 9,7"), Ok(Command::RectStart(9, 7)));
        assert_eq!(parse_line("takeback 0,0"), Ok(Command::Takeback(0, 0)));
        assert_eq!(parse_line("play 3,4"), Ok(Command::Play(3, 4)));
    }

    #[test]
    fn whitespace_and_line_endings_are_tolerated() {
        let turn = Ok(Command::Turn(7, 8));
        for line in [
            "TURN 7,8\r\n",
            "TURN 7,8\n",
            "TURN 7,8\r",
            "  TURN 7,8  ",
            "TURN   7,8",
            "TURN\t7,8",
            "\tTURN \t 7 , 8 \t\r\n",
            "TURN 7, 8",
            "TURN 7 ,8",
            "TURN 7 , 8",
            "TURN 007,08",
            "TURN +7,+8",
        ] {
            assert_eq!(parse_line(line), turn, "{line:?}");
        }
        assert_eq!(parse_line("BEGIN\r\n"), Ok(Command::Begin));
        assert_eq!(parse_line("  END\r"), Ok(Command::End));
        assert_eq!(parse_line("START\t20\r\n"), Ok(Command::Start(20)));
        assert_eq!(parse_line("START  15   15"), Ok(Command::Start(15)));
        // A UTF-8 byte-order mark at the start of the stream is ignored.
        assert_eq!(parse_line("\u{feff}START 15\r\n"), Ok(Command::Start(15)));
        assert_eq!(parse_bytes(b"\xef\xbb\xbfBEGIN"), Ok(Command::Begin));
        assert_eq!(parse_block_line("\u{feff}DONE"), Ok(BlockLine::Done));
    }

    #[test]
    fn blank_lines_are_empty() {
        for line in ["", " ", "\r\n", "\n", "\r", "\t \t", "\u{3000}"] {
            assert_eq!(parse_line(line), Ok(Command::Empty), "{line:?}");
            assert_eq!(parse_block_line(line), Ok(BlockLine::Empty), "{line:?}");
        }
    }

    #[test]
    fn database_commands() {
        let db = |line: &str| match parse_line(line) {
            Ok(Command::Database(d)) => d,
            other => panic!("{line:?}: expected a database command, got {other:?}"),
        };
        assert_eq!(db("yxquerydatabaseall"), DatabaseCommand::QueryAll);
        assert_eq!(
            db("yxedittvddatabase 1 -1 0 0"),
            DatabaseCommand::EditTvd(Edit {
                mask: 1,
                label: -1,
                value: 0,
                depth: 0
            })
        );
        // Rapfi's quoted text, or the rest of the line as it is.
        assert_eq!(
            db(r#"YXEDITTEXTDATABASE "a \"b\" \\ c" ignored"#),
            DatabaseCommand::EditText(r#"a "b" \ c"#.into())
        );
        assert_eq!(
            db("YXEDITTEXTDATABASE plain  text"),
            DatabaseCommand::EditText("plain  text".into())
        );
        assert_eq!(
            db("yxeditlabeldatabase 7,8 two words"),
            DatabaseCommand::EditPointText {
                x: 7,
                y: 8,
                text: "two words".into()
            }
        );
        assert_eq!(
            db("YXDELETEDATABASEALL WL"),
            DatabaseCommand::DeleteAll(DeleteFilter::WinLoss)
        );
        assert_eq!(
            parse_line("YXSETDATABASE C:\\db\\my.db"),
            Ok(Command::YxSetDatabase(Some("C:\\db\\my.db".into())))
        );
        for line in [
            "YXEDITTVDDATABASE 1 2 3",
            "YXEDITTVDDATABASE -1 2 3 4",
            "YXEDITLABELDATABASE x text",
            "YXDELETEDATABASEALL all",
            "YXQUERYDATABASEONE 7,7",
        ] {
            bad_args(line);
        }
    }

    #[test]
    fn unknown_commands() {
        assert_eq!(unknown("FOO"), "unknown command \"FOO\"");
        assert_eq!(unknown("SUGGEST 7,7"), "unknown command \"SUGGEST\"");
        assert_eq!(unknown("YXDBCHECK"), "unknown command \"YXDBCHECK\"");
        assert_eq!(unknown("7,7,1"), "unknown command \"7,7,1\"");
        assert_eq!(unknown("TURN7,8"), "unknown command \"TURN7,8\"");
        // Control characters are escaped so the reply stays on one line.
        assert_eq!(unknown("A\u{1}B"), "unknown command \"A\\u{1}B\"");
        // Very long words are cut.
        let long = "X".repeat(1000);
        let message = unknown(&long);
        assert!(message.len() < 100, "{message}");
        assert!(message.ends_with("..."), "{message}");
        let error = parse_line("FOO").unwrap_err();
        assert!(error.is_unknown());
        assert_eq!(error.reply(), "UNKNOWN unknown command \"FOO\"");
        assert_eq!(error.to_string(), "unknown command \"FOO\"");
    }

    #[test]
    fn coordinate_errors() {
        assert_eq!(bad_args("TURN 7"), "TURN expects x,y, got \"7\"");
        assert_eq!(bad_args("TURN"), "TURN expects x,y, got nothing");
        assert_eq!(bad_args("TURN 7,8,9"), "TURN expects x,y, got \"7,8,9\"");
        assert_eq!(bad_args("TURN 7 8"), "TURN expects x,y, got \"7 8\"");
        assert_eq!(
            bad_args("TURN -1,5"),
            "TURN expects x,y, got \"-1,5\": x is negative"
        );
        assert_eq!(
            bad_args("TURN 5,-1"),
            "TURN expects x,y, got \"5,-1\": y is negative"
        );
        assert_eq!(
            bad_args("TURN a,5"),
            "TURN expects x,y, got \"a,5\": x is not an integer"
        );
        assert_eq!(
            bad_args("TURN 5,"),
            "TURN expects x,y, got \"5,\": y is missing"
        );
        assert_eq!(
            bad_args("TURN 99999999999999999999,1"),
            "TURN expects x,y, got \"99999999999999999999,1\": x is too large"
        );
        assert_eq!(
            bad_args("TURN 4294967296,1"),
            "TURN expects x,y, got \"4294967296,1\": x is too large"
        );
        assert_eq!(
            parse_line("TURN 4294967295,0"),
            Ok(Command::Turn(u32::MAX, 0))
        );
        assert_eq!(
            bad_args("TURN 1.5,2"),
            "TURN expects x,y, got \"1.5,2\": x is not an integer"
        );
        assert_eq!(
            bad_args("RECTSTART 20"),
            "RECTSTART expects w,h, got \"20\""
        );
        assert_eq!(
            bad_args("RECTSTART 20,x"),
            "RECTSTART expects w,h, got \"20,x\": h is not an integer"
        );
        assert_eq!(bad_args("TAKEBACK"), "TAKEBACK expects x,y, got nothing");
        assert_eq!(
            bad_args("PLAY 1,-0"),
            "PLAY expects x,y, got \"1,-0\": y is negative"
        );
        let error = parse_line("TURN 7").unwrap_err();
        assert!(!error.is_unknown());
        assert_eq!(error.reply(), "ERROR TURN expects x,y, got \"7\"");
    }

    #[test]
    fn start_errors() {
        assert_eq!(bad_args("START"), "START expects a board size, got nothing");
        assert_eq!(
            bad_args("START x"),
            "START expects a board size, got \"x\": size is not an integer"
        );
        assert_eq!(
            bad_args("START -15"),
            "START expects a board size, got \"-15\": size is negative"
        );
        assert_eq!(
            bad_args("START 1 2 3"),
            "START expects a board size, got \"1 2 3\""
        );
        assert_eq!(
            bad_args("START 15 y"),
            "START expects a board size, got \"15 y\": height is not an integer"
        );
        assert_eq!(
            bad_args("START w 15"),
            "START expects a board size, got \"w 15\": width is not an integer"
        );
        // Yixin-Board's width and height, named as sent (the board made
        // would be the transposed one).
        assert_eq!(
            bad_args("START 6 40"),
            "board size 6x40 not supported (sides must be 5..=32)"
        );
        assert_eq!(
            bad_args("START 4 4"),
            "board size 4x4 not supported (sides must be 5..=32)"
        );
        assert_eq!(
            bad_args("START 15,15"),
            "START expects a board size, got \"15,15\": size is not an integer"
        );
    }

    #[test]
    fn argument_count_errors() {
        for word in [
            "RESTART",
            "BEGIN",
            "BOARD",
            "YXBOARD",
            "SWAP2BOARD",
            "DONE",
            "ABOUT",
            "END",
            "YXSHOWFORBID",
            "YXSTOP",
            "YXHASHCLEAR",
            "YXSEARCHDEFEND",
            "YXSHOWINFO",
            "YXBLOCK",
            "YXBLOCKUNDO",
            "YXBLOCKRESET",
        ] {
            assert_eq!(
                bad_args(&format!("{word} now")),
                format!("{word} takes no arguments, got \"now\""),
            );
            // The name in the message is canonical whatever the case sent.
            assert_eq!(
                bad_args(&format!("{} 1", word.to_ascii_lowercase())),
                format!("{word} takes no arguments, got \"1\""),
            );
        }
        assert_eq!(
            bad_args("YXNBEST"),
            "YXNBEST expects a move count, got nothing"
        );
        assert_eq!(
            bad_args("YXNBEST -2"),
            "YXNBEST expects a move count, got \"-2\": negative"
        );
        assert_eq!(
            bad_args("YXNBEST 2 3"),
            "YXNBEST expects a move count, got \"2 3\": not an integer"
        );
        assert_eq!(
            bad_args("YXBALANCEONE"),
            "YXBALANCEONE expects a bias, got nothing"
        );
        assert_eq!(
            bad_args("YXBALANCETWO 3000000000"),
            "YXBALANCETWO expects a bias, got \"3000000000\": too large"
        );
        assert_eq!(
            bad_args("YXBALANCETWO -3000000000"),
            "YXBALANCETWO expects a bias, got \"-3000000000\": too small"
        );
    }

    #[test]
    fn every_info_key() {
        assert_eq!(
            info("INFO timeout_turn 5000"),
            InfoSetting::TimeoutTurn(5000)
        );
        assert_eq!(info("INFO timeout_match 0"), InfoSetting::TimeoutMatch(0));
        assert_eq!(info("INFO time_left 1000"), InfoSetting::TimeLeft(1000));
        assert_eq!(info("INFO time_left -250"), InfoSetting::TimeLeft(-250));
        assert_eq!(
            info("INFO time_left 2147483647"),
            InfoSetting::TimeLeft(2_147_483_647)
        );
        assert_eq!(
            info("INFO max_memory 83886080"),
            InfoSetting::MaxMemory(83_886_080)
        );
        assert_eq!(
            info("INFO max_memory 17179869184"),
            InfoSetting::MaxMemory(17_179_869_184)
        );
        assert_eq!(info("INFO game_type 1"), InfoSetting::GameType(1));
        assert_eq!(info("INFO rule 1"), InfoSetting::Rule(1));
        assert_eq!(info("INFO rule 2"), InfoSetting::Rule(2));
        assert_eq!(
            info("INFO folder C:\\Program Files\\gomoku  data\\"),
            InfoSetting::Folder("C:\\Program Files\\gomoku  data\\".into())
        );
        assert_eq!(
            info("INFO folder /tmp/x \r\n"),
            InfoSetting::Folder("/tmp/x".into())
        );
        assert_eq!(info("INFO evaluate 3,4"), InfoSetting::Evaluate(3, 4));
        assert_eq!(info("INFO evaluate 3 , 4"), InfoSetting::Evaluate(3, 4));
        assert_eq!(info("INFO thread_num 2"), InfoSetting::ThreadNum(2));
        assert_eq!(
            info("INFO hash_size 1048576"),
            InfoSetting::HashSize(1 << 20)
        );
        assert_eq!(info("INFO caution_factor 4"), InfoSetting::CautionFactor(4));
        assert_eq!(info("INFO max_depth 225"), InfoSetting::MaxDepth(225));
        assert_eq!(info("INFO max_depth -1"), InfoSetting::MaxDepth(-1));
        assert_eq!(info("INFO max_node -1"), InfoSetting::MaxNode(-1));
        assert_eq!(
            info("INFO max_node 500000000"),
            InfoSetting::MaxNode(500_000_000)
        );
        assert_eq!(
            info("INFO max_node 18446744073709551615"),
            InfoSetting::MaxNode(i64::MAX)
        );
        assert_eq!(info("INFO time_increment 0"), InfoSetting::TimeIncrement(0));
        assert_eq!(info("INFO show_detail 3"), InfoSetting::ShowDetail(3));
        assert_eq!(info("INFO pondering 1"), InfoSetting::Pondering(true));
        assert_eq!(info("INFO pondering 0"), InfoSetting::Pondering(false));
        assert_eq!(info("INFO byoyomi 30000"), InfoSetting::Byoyomi(30_000));
        assert_eq!(
            info("INFO strength 100"),
            InfoSetting::Unknown {
                key: "strength".into(),
                value: "100".into()
            }
        );
        assert_eq!(
            info("INFO Thread_Split_Depth  5  6 "),
            InfoSetting::Unknown {
                key: "Thread_Split_Depth".into(),
                value: "5  6".into()
            }
        );
        assert_eq!(
            info("INFO usedatabase"),
            InfoSetting::Unknown {
                key: "usedatabase".into(),
                value: String::new()
            }
        );
    }

    #[test]
    fn info_keys_in_any_case() {
        assert_eq!(info("INFO TIMEOUT_TURN 500"), InfoSetting::TimeoutTurn(500));
        assert_eq!(
            info("info Timeout_Match 500"),
            InfoSetting::TimeoutMatch(500)
        );
        assert_eq!(info("Info TIME_LEFT -1"), InfoSetting::TimeLeft(-1));
        assert_eq!(info("INFO MAX_MEMORY 1"), InfoSetting::MaxMemory(1));
        assert_eq!(info("INFO GAME_TYPE 2"), InfoSetting::GameType(2));
        assert_eq!(info("INFO RULE 4"), InfoSetting::Rule(4));
        assert_eq!(info("INFO FOLDER a b"), InfoSetting::Folder("a b".into()));
        assert_eq!(info("INFO EVALUATE 0,0"), InfoSetting::Evaluate(0, 0));
        assert_eq!(info("INFO THREAD_NUM 8"), InfoSetting::ThreadNum(8));
        assert_eq!(info("INFO HASH_SIZE 32768"), InfoSetting::HashSize(32768));
        assert_eq!(info("INFO CAUTION_FACTOR 1"), InfoSetting::CautionFactor(1));
        assert_eq!(info("INFO MAX_DEPTH 99"), InfoSetting::MaxDepth(99));
        assert_eq!(info("INFO MAX_NODE 0"), InfoSetting::MaxNode(0));
        assert_eq!(
            info("INFO TIME_INCREMENT 2000"),
            InfoSetting::TimeIncrement(2000)
        );
        assert_eq!(info("INFO SHOW_DETAIL 2"), InfoSetting::ShowDetail(2));
        assert_eq!(info("INFO PONDERING 1"), InfoSetting::Pondering(true));
        assert_eq!(info("INFO BYOYOMI 10000"), InfoSetting::Byoyomi(10_000));
        assert_eq!(
            info("  info\ttimeout_turn\t 7 \r\n"),
            InfoSetting::TimeoutTurn(7)
        );
    }

    #[test]
    fn info_errors() {
        assert_eq!(
            bad_args("INFO"),
            "INFO expects a key and a value, got nothing"
        );
        assert_eq!(
            bad_args("INFO timeout_turn"),
            "INFO timeout_turn expects a non-negative number of milliseconds, got nothing"
        );
        assert_eq!(
            bad_args("INFO TIMEOUT_TURN abc"),
            "INFO timeout_turn expects a non-negative number of milliseconds, got \"abc\": \
             not an integer"
        );
        assert_eq!(
            bad_args("INFO timeout_match -1"),
            "INFO timeout_match expects a non-negative number of milliseconds, got \"-1\": \
             negative"
        );
        assert_eq!(
            bad_args("INFO time_left 99999999999999999999"),
            "INFO time_left expects a number of milliseconds, got \"99999999999999999999\": \
             too large"
        );
        assert_eq!(
            bad_args("INFO time_left -99999999999999999999"),
            "INFO time_left expects a number of milliseconds, got \"-99999999999999999999\": \
             too small"
        );
        assert_eq!(
            bad_args("INFO max_memory 1e9"),
            "INFO max_memory expects a non-negative number of bytes, got \"1e9\": not an integer"
        );
        assert_eq!(
            bad_args("INFO game_type x"),
            "INFO game_type expects a non-negative integer, got \"x\": not an integer"
        );
        assert_eq!(
            bad_args("INFO rule renju"),
            "INFO rule expects an integer, got \"renju\": not an integer"
        );
        assert_eq!(
            bad_args("INFO rule 1 2"),
            "INFO rule expects an integer, got \"1 2\": not an integer"
        );
        assert_eq!(
            bad_args("INFO folder"),
            "INFO folder expects a folder path, got nothing"
        );
        assert_eq!(
            bad_args("INFO evaluate 3"),
            "INFO evaluate expects x,y, got \"3\""
        );
        assert_eq!(
            bad_args("INFO evaluate -3,4"),
            "INFO evaluate expects x,y, got \"-3,4\": x is negative"
        );
        assert_eq!(
            bad_args("INFO thread_num -1"),
            "INFO thread_num expects a non-negative integer, got \"-1\": negative"
        );
        assert_eq!(
            bad_args("INFO hash_size big"),
            "INFO hash_size expects a non-negative size in KB, got \"big\": not an integer"
        );
        assert_eq!(
            bad_args("INFO caution_factor -1"),
            "INFO caution_factor expects a non-negative integer, got \"-1\": negative"
        );
        assert_eq!(
            bad_args("INFO max_depth deep"),
            "INFO max_depth expects an integer, got \"deep\": not an integer"
        );
        assert_eq!(
            bad_args("INFO max_node -99999999999999999999"),
            "INFO max_node expects an integer, got \"-99999999999999999999\": too small"
        );
        assert_eq!(
            bad_args("INFO time_increment -5"),
            "INFO time_increment expects a non-negative number of milliseconds, got \"-5\": \
             negative"
        );
        assert_eq!(
            bad_args("INFO show_detail on"),
            "INFO show_detail expects a non-negative integer, got \"on\": not an integer"
        );
        assert_eq!(
            bad_args("INFO pondering yes"),
            "INFO pondering expects 0 or 1, got \"yes\": not an integer"
        );
        assert_eq!(
            bad_args("INFO BYOYOMI -1"),
            "INFO byoyomi expects a non-negative number of milliseconds, got \"-1\": negative"
        );
    }

    #[test]
    fn block_lines() {
        let stone = |x, y, field| Ok(BlockLine::Stone { x, y, field });
        assert_eq!(parse_block_line("10,10,1"), stone(10, 10, Some(1)));
        assert_eq!(parse_block_line("10,11,2\r\n"), stone(10, 11, Some(2)));
        assert_eq!(parse_block_line("0,0,3"), stone(0, 0, Some(3)));
        assert_eq!(parse_block_line(" 7 , 8 , 1 \r"), stone(7, 8, Some(1)));
        assert_eq!(parse_block_line("\t7,8,2\n"), stone(7, 8, Some(2)));
        assert_eq!(parse_block_line("7,7"), stone(7, 7, None));
        assert_eq!(parse_block_line("8, 7"), stone(8, 7, None));
        assert_eq!(parse_block_line("DONE"), Ok(BlockLine::Done));
        assert_eq!(parse_block_line("done\r\n"), Ok(BlockLine::Done));
        assert_eq!(parse_block_line("  Done "), Ok(BlockLine::Done));
        assert_eq!(parse_block_bytes(b"1,2,1\r\n"), stone(1, 2, Some(1)));
    }

    #[test]
    fn block_line_errors() {
        let bad = |line: &str| match parse_block_line(line) {
            Err(ParseError::BadArguments(message)) => message,
            other => panic!("{line:?}: expected bad arguments, got {other:?}"),
        };
        assert_eq!(
            bad("7"),
            "a position line expects x,y,field or x,y, got \"7\""
        );
        assert_eq!(
            bad("7,8,1,2"),
            "a position line expects x,y,field or x,y, got \"7,8,1,2\""
        );
        assert_eq!(
            bad("-1,8,1"),
            "a position line expects x,y,field or x,y, got \"-1,8,1\": x is negative"
        );
        assert_eq!(
            bad("1,-8,1"),
            "a position line expects x,y,field or x,y, got \"1,-8,1\": y is negative"
        );
        assert_eq!(
            bad("1,,1"),
            "a position line expects x,y,field or x,y, got \"1,,1\": y is missing"
        );
        assert_eq!(
            bad("99999999999999999999,1,1"),
            "a position line expects x,y,field or x,y, got \"99999999999999999999,1,1\": \
             x is too large"
        );
        assert_eq!(
            bad("1,1,0"),
            "a position line's field must be 1, 2 or 3, got \"0\" in \"1,1,0\""
        );
        assert_eq!(
            bad("1,1,4"),
            "a position line's field must be 1, 2 or 3, got \"4\" in \"1,1,4\""
        );
        assert_eq!(
            bad("1,1,-1"),
            "a position line's field must be 1, 2 or 3, got \"-1\" in \"1,1,-1\""
        );
        assert_eq!(
            bad("1,1,"),
            "a position line's field must be 1, 2 or 3, got \"\" in \"1,1,\""
        );
        assert_eq!(
            bad("1,1,99999999999"),
            "a position line's field must be 1, 2 or 3, got \"99999999999\" in \"1,1,99999999999\""
        );
        // A word inside a block is "unknown", so the session can try it as a command.
        let error = parse_block_line("END").unwrap_err();
        assert!(error.is_unknown());
        assert_eq!(
            error.message(),
            "expected a stone x,y,field or DONE inside a position block, got \"END\""
        );
        assert!(parse_block_line("DONE 1").unwrap_err().is_unknown());
    }

    #[test]
    fn bytes_are_decoded_lossily() {
        assert_eq!(parse_bytes(b"TURN 7,8\r\n"), Ok(Command::Turn(7, 8)));
        assert_eq!(parse_bytes(b""), Ok(Command::Empty));
        let error = parse_bytes(b"\xff\xfe").unwrap_err();
        assert!(error.is_unknown());
        assert_eq!(error.message(), "unknown command \"\u{fffd}\u{fffd}\"");
        assert!(parse_bytes(b"TURN \xff,1").is_err());
        assert_eq!(
            parse_bytes(b"INFO folder /tmp/\xff"),
            Ok(Command::Info(InfoSetting::Folder("/tmp/\u{fffd}".into())))
        );
    }

    fn split_all(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut splitter = LineSplitter::new();
        let mut lines = Vec::new();
        for chunk in chunks {
            splitter.feed(chunk, |line| lines.push(line.to_vec()));
        }
        splitter.finish(|line| lines.push(line.to_vec()));
        lines
    }

    #[test]
    fn line_splitter_handles_every_ending() {
        let expected: Vec<Vec<u8>> = vec![b"A".to_vec(), b"B".to_vec(), b"C".to_vec()];
        assert_eq!(split_all(&[b"A\r\nB\r\nC\r\n"]), expected);
        assert_eq!(split_all(&[b"A\nB\nC\n"]), expected);
        assert_eq!(split_all(&[b"A\rB\rC\r"]), expected);
        assert_eq!(split_all(&[b"A\rB\nC"]), expected);
        // CR LF split across reads is one ending.
        assert_eq!(split_all(&[b"A\r", b"\nB\r", b"\nC\r", b"\n"]), expected);
        // Genuinely empty lines are kept (the parser turns them into Empty).
        let with_blank: Vec<Vec<u8>> = vec![b"A".to_vec(), Vec::new(), b"B".to_vec()];
        assert_eq!(split_all(&[b"A\n\nB\n"]), with_blank);
        assert_eq!(split_all(&[b"A\r\n\r\nB\r\n"]), with_blank);
        assert_eq!(split_all(&[b"A\r\rB\r"]), with_blank);
        assert!(split_all(&[b""]).is_empty());
    }

    #[test]
    fn line_splitter_cuts_long_lines() {
        let mut long = vec![b'x'; MAX_LINE_BYTES + 10];
        long.extend_from_slice(b"\nEND\n");
        let lines = split_all(&[&long]);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE_BYTES);
        assert_eq!(lines[1], b"END");
    }

    /// A command with arbitrary argument values.
    fn any_command() -> impl Strategy<Value = Command> {
        let simple = prop_oneof![
            Just(Command::Empty),
            Just(Command::Restart),
            Just(Command::Begin),
            Just(Command::Board),
            Just(Command::YxBoard),
            Just(Command::Swap2Board),
            Just(Command::Done),
            Just(Command::About),
            Just(Command::End),
            Just(Command::YxShowForbid),
            Just(Command::YxStop),
            Just(Command::YxHashClear),
            Just(Command::YxSearchDefend),
            Just(Command::YxHashDump(None)),
            Just(Command::YxShowInfo),
            Just(Command::YxBlock),
            Just(Command::YxBlockUndo),
            Just(Command::YxBlockReset),
        ];
        let with_args = prop_oneof![
            any::<u32>().prop_map(Command::Start),
            (any::<u32>(), any::<u32>()).prop_map(|(w, h)| Command::RectStart(w, h)),
            (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Command::Turn(x, y)),
            (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Command::Takeback(x, y)),
            (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Command::Play(x, y)),
            any::<u32>().prop_map(Command::YxNBest),
            any::<i32>().prop_map(Command::YxBalanceOne),
            any::<i32>().prop_map(Command::YxBalanceTwo),
            any_info().prop_map(Command::Info),
            "[A-Za-z0-9_./\\\\:-][A-Za-z0-9_./\\\\: -]{0,30}[A-Za-z0-9_./\\\\:-]"
                .prop_map(|p| Command::YxHashLoad(Some(p))),
            any_database().prop_map(Command::Database),
        ];
        prop_oneof![simple, with_args]
    }

    /// A position-database command with arbitrary arguments.
    fn any_database() -> impl Strategy<Value = DatabaseCommand> {
        prop_oneof![
            Just(DatabaseCommand::QueryAll),
            Just(DatabaseCommand::QueryAllText),
            Just(DatabaseCommand::QueryOne),
            Just(DatabaseCommand::QueryText),
            Just(DatabaseCommand::DeleteOne),
            Just(DatabaseCommand::DeleteAll(DeleteFilter::All)),
            Just(DatabaseCommand::DeleteAll(DeleteFilter::WinLoss)),
            Just(DatabaseCommand::Unsupported("YXSETBESTMOVEDATABASE")),
            (0..8u32, any::<i32>(), any::<i32>(), any::<i32>()).prop_map(
                |(mask, label, value, depth)| {
                    DatabaseCommand::EditTvd(Edit {
                        mask,
                        label,
                        value,
                        depth,
                    })
                }
            ),
            "[ -~]{0,20}".prop_map(DatabaseCommand::EditText),
            (any::<u32>(), any::<u32>(), "([!-~]([ !-~]{0,20}[!-~])?)?")
                .prop_map(|(x, y, text)| DatabaseCommand::EditPointText { x, y, text }),
        ]
    }

    /// An INFO setting with arbitrary values (unknown keys avoid the known ones).
    fn any_info() -> impl Strategy<Value = InfoSetting> {
        let numeric = prop_oneof![
            any::<u64>().prop_map(InfoSetting::TimeoutTurn),
            any::<u64>().prop_map(InfoSetting::TimeoutMatch),
            any::<i64>().prop_map(InfoSetting::TimeLeft),
            any::<u64>().prop_map(InfoSetting::MaxMemory),
            any::<u32>().prop_map(InfoSetting::GameType),
            any::<i64>().prop_map(InfoSetting::Rule),
            (any::<u32>(), any::<u32>()).prop_map(|(x, y)| InfoSetting::Evaluate(x, y)),
            any::<u32>().prop_map(InfoSetting::ThreadNum),
            any::<u64>().prop_map(InfoSetting::HashSize),
            any::<u32>().prop_map(InfoSetting::CautionFactor),
            any::<i64>().prop_map(InfoSetting::MaxDepth),
            any::<i64>().prop_map(InfoSetting::MaxNode),
            any::<u64>().prop_map(InfoSetting::TimeIncrement),
            any::<u32>().prop_map(InfoSetting::ShowDetail),
            any::<bool>().prop_map(InfoSetting::Pondering),
            any::<u64>().prop_map(InfoSetting::Byoyomi),
        ];
        let textual = prop_oneof![
            "[A-Za-z0-9:/\\\\._-]([A-Za-z0-9 :/\\\\._-]{0,30}[A-Za-z0-9:/\\\\._-])?"
                .prop_map(InfoSetting::Folder),
            ("x_[A-Za-z_]{0,12}", "([!-~]([ !-~]{0,20}[!-~])?)?")
                .prop_map(|(key, value)| InfoSetting::Unknown { key, value }),
        ];
        prop_oneof![numeric, textual]
    }

    /// Canonical text mangled the ways managers are allowed to mangle it.
    fn mangle(text: &str, upper_mask: &[bool], pad: (usize, usize), ending: usize) -> String {
        let mut out = " ".repeat(pad.0);
        let mut mask = upper_mask.iter().cycle();
        for c in text.chars() {
            let flip = mask.next().copied().unwrap_or(false);
            match c {
                // Spaces around commas and doubled separators are fine.
                ',' if flip => out.push_str(" , "),
                ' ' if flip => out.push_str(" \t "),
                c if flip => out.push(c.to_ascii_lowercase()),
                c => out.push(c),
            }
        }
        out.push_str(&" ".repeat(pad.1));
        out.push_str(["", "\r\n", "\n", "\r"][ending % 4]);
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn parse_line_never_panics(line in any::<String>()) {
            let _ = parse_line(&line);
        }

        #[test]
        fn parse_line_never_panics_on_protocolish_text(
            line in "[A-Za-z]{0,12}[ \t]{0,3}[-+0-9, \t\r\nA-Za-z_]{0,40}"
        ) {
            let _ = parse_line(&line);
            let _ = parse_line(&format!("INFO {line}"));
            let _ = parse_line(&format!("TURN {line}"));
            let _ = parse_line(&format!("START {line}"));
        }

        #[test]
        fn parse_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_bytes(&bytes);
            let _ = parse_block_bytes(&bytes);
        }

        #[test]
        fn parse_block_line_never_panics(line in any::<String>()) {
            let _ = parse_block_line(&line);
        }

        #[test]
        fn parse_block_line_never_panics_on_numbers(
            line in "[-+0-9, \t]{0,30}"
        ) {
            let _ = parse_block_line(&line);
        }

        #[test]
        fn error_messages_stay_on_one_line(line in any::<String>()) {
            if let Err(error) = parse_line(&line) {
                prop_assert!(!error.reply().contains(['\r', '\n']));
            }
            if let Err(error) = parse_block_line(&line) {
                prop_assert!(!error.reply().contains(['\r', '\n']));
            }
        }

        #[test]
        fn command_round_trips(command in any_command()) {
            let text = command.to_string();
            prop_assert_eq!(parse_line(&text), Ok(command));
        }

        #[test]
        fn mangled_command_round_trips(
            command in any_command(),
            mask in proptest::collection::vec(any::<bool>(), 1..8),
            pad in (0usize..3, 0usize..3),
            ending in 0usize..4,
        ) {
            // Folder and unknown INFO values, table file paths and database
            // texts are taken verbatim, so leave them intact.
            let verbatim = matches!(
                command,
                Command::Info(InfoSetting::Folder(_) | InfoSetting::Unknown { .. })
                    | Command::YxHashLoad(Some(_))
                    | Command::Database(
                        DatabaseCommand::EditText(_) | DatabaseCommand::EditPointText { .. }
                    )
            );
            let text = command.to_string();
            let text = if verbatim {
                format!("{text}\r\n")
            } else {
                mangle(&text, &mask, pad, ending)
            };
            prop_assert_eq!(parse_line(&text), Ok(command), "{:?}", text);
        }

        #[test]
        fn block_line_round_trips(
            x in any::<u32>(),
            y in any::<u32>(),
            field in proptest::option::of(1u8..=3),
        ) {
            let line = BlockLine::Stone { x, y, field };
            prop_assert_eq!(parse_block_line(&line.to_string()), Ok(line));
            prop_assert_eq!(parse_block_line(&format!(" {line} \r\n")), Ok(line));
        }
    }
}
