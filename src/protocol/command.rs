//! What the manager can say to the engine, as typed values.
//!
//! These types carry raw protocol values: coordinates are plain non-negative integers
//! and `INFO rule` is the number the manager sent. Checking them against the board
//! size or mapping them onto engine types is the session's job, not the parser's.
//!
//! Every type here formats (via [`fmt::Display`]) to its canonical protocol text, which
//! [`crate::protocol::parser::parse_line`] reads back to the same value.

use std::fmt;

pub use super::database::{DeleteFilter, Edit};

/// One manager → engine command line, outside a `BOARD`/`YXBOARD`/`SWAP2BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty or whitespace-only line; the protocol says to ignore it silently.
    Empty,
    /// `START n`: new game on an `n`×`n` board. Answer `OK` or `ERROR`.
    ///
    /// Yixin-Board sends `START w h`; with `w == h` that parses to `Start(w)`.
    Start(u32),
    /// `RECTSTART w,h`: new game on a `w` (x) by `h` (y) board. Answer `OK` or `ERROR`.
    ///
    /// Also what Yixin-Board's `START w h` parses to when `w != h`, as
    /// `RectStart(h, w)`: Yixin-Board's coordinates are row,col.
    RectStart(u32, u32),
    /// `RESTART`: new game, same board size. Answer `OK`.
    Restart,
    /// `BEGIN`: play the first move on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played at (`x`, `y`); answer our move.
    Turn(u32, u32),
    /// `BOARD`: a position follows as block lines, ended by `DONE`; then answer a move.
    Board,
    /// `YXBOARD` (Yixin): a position follows as block lines, ended by `DONE`; no answer.
    YxBoard,
    /// `SWAP2BOARD`: 0, 3 or 5 opening stones follow as `x,y` lines, ended by `DONE`.
    Swap2Board,
    /// `DONE` outside any block (inside a block, see [`BlockLine::Done`]).
    Done,
    /// `INFO key value`: a setting; no answer.
    Info(InfoSetting),
    /// `TAKEBACK x,y`: undo the stone at (`x`, `y`). Answer `OK`.
    Takeback(u32, u32),
    /// `PLAY x,y`: the manager's answer to our `SUGGEST`; play there and echo the move.
    Play(u32, u32),
    /// `ABOUT`: answer the one-line description of the engine.
    About,
    /// `END`: exit promptly, printing nothing.
    End,
    /// `YXSHOWFORBID` (Yixin): answer `FORBID …` with Black's forbidden points.
    YxShowForbid,
    /// `YXSTOP` (Yixin): stop thinking now and answer the best move so far.
    YxStop,
    /// `YXNBEST n` (Yixin): search the `n` best moves of the current position.
    YxNBest(u32),
    /// `YXHASHCLEAR` (Yixin): empty the transposition table.
    YxHashClear,
    /// `YXHASHDUMP [path]` (Yixin-Board): save the transposition table to a
    /// file. Without a path on the line (as Yixin-Board sends it) the next
    /// line is the path. Answer a `MESSAGE` or `ERROR` line.
    YxHashDump(Option<String>),
    /// `YXHASHLOAD [path]` (Yixin-Board): add the entries of a saved table
    /// to the table; the path as for [`Command::YxHashDump`].
    YxHashLoad(Option<String>),
    /// `YXSEARCHDEFEND` (Yixin-Board): find the moves after which the
    /// opponent has no forced win; `MESSAGE REALTIME LOST x,y` for each
    /// losing move, then one summary `MESSAGE` line. No move is played.
    YxSearchDefend,
    /// `YXSHOWINFO` (Yixin): report capabilities as `INFO …`/`MESSAGE …` lines.
    YxShowInfo,
    /// `YXBLOCK` (Yixin-Board): `x,y` lines up to `DONE` name points the
    /// engine must not play or suggest, until `YXBLOCKRESET`. No answer.
    YxBlock,
    /// `YXBLOCKUNDO` (Yixin-Board): `x,y` lines up to `DONE` are taken off the
    /// blocked points. No answer.
    YxBlockUndo,
    /// `YXBLOCKRESET` (Yixin-Board): no point is blocked any more. No answer.
    YxBlockReset,
    /// `YXBALANCEONE bias` (Yixin-Board): find one move that balances the position,
    /// `bias` in the engine's evaluation units towards the side to move.
    YxBalanceOne(i32),
    /// `YXBALANCETWO bias` (Yixin-Board): find two moves that balance the position.
    YxBalanceTwo(i32),
    /// `YXSETDATABASE [path]` (Yixin-Board): keep the position database in
    /// this file (read if it exists); the path as for [`Command::YxHashDump`].
    YxSetDatabase(Option<String>),
    /// `YXDBTOTXT [path]` and `YXDBTOTXTALL [path]` (Yixin-Board's console
    /// command `dbtotxt`, Rapfi): write the position database's records to a
    /// text file in the database file's format, those of the game's rule and
    /// board size, or `all` of them; the path as for [`Command::YxHashDump`].
    YxDbToTxt {
        /// Every rule and board size, not only the game's.
        all: bool,
        /// The file (`None`: on the next line).
        path: Option<String>,
    },
    /// `YXTXTTODB [path]` (Yixin-Board's `txttodb`): add the records of such
    /// a text file to the position database.
    YxTxtToDb(Option<String>),
    /// A position-database command of Yixin-Board; the position follows as
    /// one `x,y` move a line (black first) up to `DONE`.
    Database(DatabaseCommand),
}

/// What a position-database command ([`Command::Database`]) does with the
/// position that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseCommand {
    /// `YXQUERYDATABASEALL`: list the records one move ahead, as
    /// `MESSAGE DATABASE x y label value depth [text]` lines between
    /// `MESSAGE DATABASE REFRESH` and `MESSAGE DATABASE DONE`.
    QueryAll,
    /// `YXQUERYDATABASEALLT`: the same, then the position's comment.
    QueryAllText,
    /// `YXQUERYDATABASEONE`: the position's record,
    /// `MESSAGE DATABASE ONE label value depth`.
    QueryOne,
    /// `YXQUERYDATABASETEXT`: the position's comment,
    /// `MESSAGE DATABASE TEXT "…"`.
    QueryText,
    /// `YXEDITTVDDATABASE mask label value depth`: set the masked fields
    /// (1 label, 2 value, 4 depth); answered as [`DatabaseCommand::QueryOne`].
    EditTvd(Edit),
    /// `YXEDITTEXTDATABASE "text"`: set the position's comment.
    EditText(String),
    /// `YXEDITLABELDATABASE x,y text`: set the text shown at an empty point
    /// of the position (empty: remove it).
    EditPointText {
        /// The point.
        x: u32,
        /// The point.
        y: u32,
        /// The text.
        text: String,
    },
    /// `YXDELETEDATABASEONE`: delete the position's record.
    DeleteOne,
    /// `YXDELETEDATABASEALL [nonwl|wl]`: delete the records of the position
    /// and of every position after it (all, those not labelled `W`/`L`, or
    /// only those).
    DeleteAll(DeleteFilter),
    /// A database command Tianyuan does not carry out (best-move records:
    /// `YXSETBESTMOVEDATABASE`, `YXCLEARBESTMOVEDATABASE`); its position is
    /// read, then one `ERROR` line.
    Unsupported(&'static str),
}

impl DatabaseCommand {
    /// The command word.
    pub fn name(&self) -> &'static str {
        match self {
            DatabaseCommand::QueryAll => "YXQUERYDATABASEALL",
            DatabaseCommand::QueryAllText => "YXQUERYDATABASEALLT",
            DatabaseCommand::QueryOne => "YXQUERYDATABASEONE",
            DatabaseCommand::QueryText => "YXQUERYDATABASETEXT",
            DatabaseCommand::EditTvd(_) => "YXEDITTVDDATABASE",
            DatabaseCommand::EditText(_) => "YXEDITTEXTDATABASE",
            DatabaseCommand::EditPointText { .. } => "YXEDITLABELDATABASE",
            DatabaseCommand::DeleteOne => "YXDELETEDATABASEONE",
            DatabaseCommand::DeleteAll(_) => "YXDELETEDATABASEALL",
            DatabaseCommand::Unsupported(name) => name,
        }
    }
}

impl fmt::Display for DatabaseCommand {
    /// The canonical line, e.g. `YXEDITTVDDATABASE 1 97 0 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            DatabaseCommand::EditTvd(e) => {
                write!(f, "{name} {} {} {} {}", e.mask, e.label, e.value, e.depth)
            }
            DatabaseCommand::EditText(text) => write!(f, "{name} {}", quoted(text)),
            DatabaseCommand::EditPointText { x, y, text } if text.is_empty() => {
                write!(f, "{name} {x},{y}")
            }
            DatabaseCommand::EditPointText { x, y, text } => write!(f, "{name} {x},{y} {text}"),
            DatabaseCommand::DeleteAll(DeleteFilter::NotWinLoss) => write!(f, "{name} nonwl"),
            DatabaseCommand::DeleteAll(DeleteFilter::WinLoss) => write!(f, "{name} wl"),
            _ => f.write_str(name),
        }
    }
}

/// `text` in double quotes, with `"` and `\` escaped by a backslash.
pub fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

impl Command {
    /// The command word as the protocol spells it (`"TURN"`, `"INFO"`, …); `""` for
    /// [`Command::Empty`].
    pub fn name(&self) -> &'static str {
        match self {
            Command::Empty => "",
            Command::Start(_) => "START",
            Command::RectStart(..) => "RECTSTART",
            Command::Restart => "RESTART",
            Command::Begin => "BEGIN",
            Command::Turn(..) => "TURN",
            Command::Board => "BOARD",
            Command::YxBoard => "YXBOARD",
            Command::Swap2Board => "SWAP2BOARD",
            Command::Done => "DONE",
            Command::Info(_) => "INFO",
            Command::Takeback(..) => "TAKEBACK",
            Command::Play(..) => "PLAY",
            Command::About => "ABOUT",
            Command::End => "END",
            Command::YxShowForbid => "YXSHOWFORBID",
            Command::YxStop => "YXSTOP",
            Command::YxNBest(_) => "YXNBEST",
            Command::YxHashClear => "YXHASHCLEAR",
            Command::YxHashDump(_) => "YXHASHDUMP",
            Command::YxHashLoad(_) => "YXHASHLOAD",
            Command::YxSearchDefend => "YXSEARCHDEFEND",
            Command::YxShowInfo => "YXSHOWINFO",
            Command::YxBlock => "YXBLOCK",
            Command::YxBlockUndo => "YXBLOCKUNDO",
            Command::YxBlockReset => "YXBLOCKRESET",
            Command::YxBalanceOne(_) => "YXBALANCEONE",
            Command::YxBalanceTwo(_) => "YXBALANCETWO",
            Command::YxSetDatabase(_) => "YXSETDATABASE",
            Command::YxDbToTxt { all: false, .. } => "YXDBTOTXT",
            Command::YxDbToTxt { all: true, .. } => "YXDBTOTXTALL",
            Command::YxTxtToDb(_) => "YXTXTTODB",
            Command::Database(d) => d.name(),
        }
    }

    /// Does this command open a block of lines ended by `DONE` (`BOARD`,
    /// `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`, the database
    /// commands)?
    pub fn starts_block(&self) -> bool {
        matches!(
            self,
            Command::Board
                | Command::YxBoard
                | Command::Swap2Board
                | Command::YxBlock
                | Command::YxBlockUndo
                | Command::Database(_)
        )
    }
}

impl fmt::Display for Command {
    /// The canonical protocol line (no line ending), e.g. `TURN 7,8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            Command::Start(n) => write!(f, "{name} {n}"),
            Command::YxNBest(n) => write!(f, "{name} {n}"),
            Command::YxBalanceOne(b) | Command::YxBalanceTwo(b) => write!(f, "{name} {b}"),
            Command::RectStart(x, y)
            | Command::Turn(x, y)
            | Command::Takeback(x, y)
            | Command::Play(x, y) => write!(f, "{name} {x},{y}"),
            Command::Info(setting) => write!(f, "{name} {setting}"),
            Command::YxHashDump(Some(path)) | Command::YxHashLoad(Some(path)) => {
                write!(f, "{name} {path}")
            }
            Command::YxHashDump(None) | Command::YxHashLoad(None) => f.write_str(name),
            Command::YxSetDatabase(Some(path))
            | Command::YxDbToTxt {
                path: Some(path), ..
            }
            | Command::YxTxtToDb(Some(path)) => write!(f, "{name} {path}"),
            Command::YxSetDatabase(None)
            | Command::YxDbToTxt { path: None, .. }
            | Command::YxTxtToDb(None) => f.write_str(name),
            Command::Database(d) => d.fmt(f),
            Command::Empty
            | Command::Restart
            | Command::Begin
            | Command::Board
            | Command::YxBoard
            | Command::Swap2Board
            | Command::Done
            | Command::About
            | Command::End
            | Command::YxShowForbid
            | Command::YxStop
            | Command::YxHashClear
            | Command::YxSearchDefend
            | Command::YxBlock
            | Command::YxBlockUndo
            | Command::YxBlockReset
            | Command::YxShowInfo => f.write_str(name),
        }
    }
}

/// The setting carried by an `INFO key value` line, with its value typed.
///
/// Keys are matched case-insensitively. Values are taken as sent; range checks
/// (e.g. a zero thread count) belong to the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoSetting {
    /// `timeout_turn`: time limit per move in ms (0 = play as fast as possible).
    TimeoutTurn(u64),
    /// `timeout_match`: time limit for the whole match in ms (0 = no limit).
    TimeoutMatch(u64),
    /// `time_left`: match time remaining in ms; may be negative once overspent;
    /// 2147483647 means unlimited.
    TimeLeft(i64),
    /// `max_memory`: memory limit in bytes for the whole process (0 = no limit).
    MaxMemory(u64),
    /// `game_type`: 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// `rule`: the raw rule number (Piskvork bitmask; Yixin's 2 = Renju). Map it with
    /// [`crate::game::Rule::from_protocol`].
    Rule(i64),
    /// `folder`: directory for persistent files; the rest of the line, trimmed,
    /// inner spaces kept.
    Folder(String),
    /// `evaluate x,y`: the mouse position in a debugging GUI (may be ignored).
    Evaluate(u32, u32),
    /// `thread_num` (Yixin): number of search threads to use.
    ThreadNum(u32),
    /// `hash_size` (Yixin): transposition table size in KB (0 = engine default).
    HashSize(u64),
    /// `caution_factor` (Yixin): how wide to search, engine-defined scale.
    CautionFactor(u32),
    /// `max_depth` (Yixin): stop deepening beyond this depth (≤ 0 = no limit).
    MaxDepth(i64),
    /// `max_node` (Yixin): stop after this many nodes (≤ 0 = no limit; Yixin-Board
    /// sends -1). Values above `i64::MAX` are read as `i64::MAX`.
    MaxNode(i64),
    /// `time_increment` (Yixin): Fischer increment per move in ms.
    TimeIncrement(u64),
    /// `show_detail` (Yixin): how much search output to print (engine-defined levels).
    ShowDetail(u32),
    /// `pondering` (Yixin): think on the opponent's time (sent as 0/1; any non-zero
    /// integer means on).
    Pondering(bool),
    /// `byoyomi` (Tianyuan extension): fixed time per move in ms once the main time
    /// (from `timeout_match`/`time_left`) has run out.
    Byoyomi(u64),
    /// Any other key, kept verbatim (key as sent, value trimmed, possibly empty).
    Unknown {
        /// The key as the manager spelled it.
        key: String,
        /// The rest of the line after the key, trimmed.
        value: String,
    },
}

impl InfoSetting {
    /// The canonical (lower-case) key, or the key as sent for [`InfoSetting::Unknown`].
    pub fn key(&self) -> &str {
        match self {
            InfoSetting::TimeoutTurn(_) => "timeout_turn",
            InfoSetting::TimeoutMatch(_) => "timeout_match",
            InfoSetting::TimeLeft(_) => "time_left",
            InfoSetting::MaxMemory(_) => "max_memory",
            InfoSetting::GameType(_) => "game_type",
            InfoSetting::Rule(_) => "rule",
            InfoSetting::Folder(_) => "folder",
            InfoSetting::Evaluate(..) => "evaluate",
            InfoSetting::ThreadNum(_) => "thread_num",
            InfoSetting::HashSize(_) => "hash_size",
            InfoSetting::CautionFactor(_) => "caution_factor",
            InfoSetting::MaxDepth(_) => "max_depth",
            InfoSetting::MaxNode(_) => "max_node",
            InfoSetting::TimeIncrement(_) => "time_increment",
            InfoSetting::ShowDetail(_) => "show_detail",
            InfoSetting::Pondering(_) => "pondering",
            InfoSetting::Byoyomi(_) => "byoyomi",
            InfoSetting::Unknown { key, .. } => key,
        }
    }
}

impl fmt::Display for InfoSetting {
    /// `key value` as it follows `INFO ` on the wire, e.g. `timeout_turn 5000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.key();
        match self {
            InfoSetting::TimeoutTurn(v)
            | InfoSetting::TimeoutMatch(v)
            | InfoSetting::MaxMemory(v)
            | InfoSetting::HashSize(v)
            | InfoSetting::TimeIncrement(v)
            | InfoSetting::Byoyomi(v) => write!(f, "{key} {v}"),
            InfoSetting::TimeLeft(v) | InfoSetting::Rule(v) | InfoSetting::MaxDepth(v) => {
                write!(f, "{key} {v}")
            }
            InfoSetting::MaxNode(v) => write!(f, "{key} {v}"),
            InfoSetting::GameType(v)
            | InfoSetting::ThreadNum(v)
            | InfoSetting::CautionFactor(v)
            | InfoSetting::ShowDetail(v) => write!(f, "{key} {v}"),
            InfoSetting::Folder(path) => write!(f, "{key} {path}"),
            InfoSetting::Evaluate(x, y) => write!(f, "{key} {x},{y}"),
            InfoSetting::Pondering(on) => write!(f, "{key} {}", u8::from(*on)),
            InfoSetting::Unknown { value, .. } => {
                if value.is_empty() {
                    f.write_str(key)
                } else {
                    write!(f, "{key} {value}")
                }
            }
        }
    }
}

/// One line inside a `BOARD`, `YXBOARD` or `SWAP2BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockLine {
    /// An empty or whitespace-only line; ignore it.
    Empty,
    /// A stone at (`x`, `y`).
    Stone {
        /// Column, 0-based.
        x: u32,
        /// Row, 0-based.
        y: u32,
        /// `Some(1)` own stone, `Some(2)` opponent's, `Some(3)` winning-line or
        /// forbidden marker (continuous games); `None` for `SWAP2BOARD`'s `x,y` lines.
        field: Option<u8>,
    },
    /// `DONE`: the block is over.
    Done,
}

impl fmt::Display for BlockLine {
    /// The canonical line: `x,y,f`, `x,y`, `DONE`, or `""` for [`BlockLine::Empty`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockLine::Empty => Ok(()),
            BlockLine::Stone {
                x,
                y,
                field: Some(field),
            } => write!(f, "{x},{y},{field}"),
            BlockLine::Stone { x, y, field: None } => write!(f, "{x},{y}"),
            BlockLine::Done => f.write_str("DONE"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_format_canonically() {
        let cases: &[(Command, &str)] = &[
            (Command::Empty, ""),
            (Command::Start(15), "START 15"),
            (Command::RectStart(30, 20), "RECTSTART 30,20"),
            (Command::Restart, "RESTART"),
            (Command::Begin, "BEGIN"),
            (Command::Turn(7, 8), "TURN 7,8"),
            (Command::Board, "BOARD"),
            (Command::YxBoard, "YXBOARD"),
            (Command::Swap2Board, "SWAP2BOARD"),
            (Command::Done, "DONE"),
            (Command::Takeback(0, 19), "TAKEBACK 0,19"),
            (Command::Play(12, 10), "PLAY 12,10"),
            (Command::About, "ABOUT"),
            (Command::End, "END"),
            (Command::YxShowForbid, "YXSHOWFORBID"),
            (Command::YxStop, "YXSTOP"),
            (Command::YxNBest(3), "YXNBEST 3"),
            (Command::YxHashClear, "YXHASHCLEAR"),
            (Command::YxHashDump(None), "YXHASHDUMP"),
            (
                Command::YxHashLoad(Some("C:\\a b\\t.hash".to_string())),
                "YXHASHLOAD C:\\a b\\t.hash",
            ),
            (Command::YxSearchDefend, "YXSEARCHDEFEND"),
            (Command::YxShowInfo, "YXSHOWINFO"),
            (Command::YxBlock, "YXBLOCK"),
            (Command::YxBlockUndo, "YXBLOCKUNDO"),
            (Command::YxBlockReset, "YXBLOCKRESET"),
            (Command::YxBalanceOne(-20), "YXBALANCEONE -20"),
            (Command::YxBalanceTwo(0), "YXBALANCETWO 0"),
            (Command::YxSetDatabase(None), "YXSETDATABASE"),
            (
                Command::YxDbToTxt {
                    all: false,
                    path: Some("my db.txt".to_string()),
                },
                "YXDBTOTXT my db.txt",
            ),
            (
                Command::YxDbToTxt {
                    all: true,
                    path: None,
                },
                "YXDBTOTXTALL",
            ),
            (Command::YxTxtToDb(None), "YXTXTTODB"),
            (
                Command::Database(DatabaseCommand::QueryAll),
                "YXQUERYDATABASEALL",
            ),
            (
                Command::Database(DatabaseCommand::EditTvd(Edit {
                    mask: 1,
                    label: 97,
                    value: 0,
                    depth: -2,
                })),
                "YXEDITTVDDATABASE 1 97 0 -2",
            ),
            (
                Command::Database(DatabaseCommand::EditText("say \"hi\" \\o/".into())),
                "YXEDITTEXTDATABASE \"say \\\"hi\\\" \\\\o/\"",
            ),
            (
                Command::Database(DatabaseCommand::EditPointText {
                    x: 3,
                    y: 4,
                    text: "a b".into(),
                }),
                "YXEDITLABELDATABASE 3,4 a b",
            ),
            (
                Command::Database(DatabaseCommand::DeleteAll(DeleteFilter::NotWinLoss)),
                "YXDELETEDATABASEALL nonwl",
            ),
            (
                Command::Info(InfoSetting::TimeoutTurn(5000)),
                "INFO timeout_turn 5000",
            ),
        ];
        for (command, text) in cases {
            assert_eq!(command.to_string(), *text, "{command:?}");
        }
    }

    #[test]
    fn info_settings_format_canonically() {
        let cases: &[(InfoSetting, &str)] = &[
            (InfoSetting::TimeoutTurn(1), "timeout_turn 1"),
            (InfoSetting::TimeoutMatch(2), "timeout_match 2"),
            (InfoSetting::TimeLeft(-3), "time_left -3"),
            (InfoSetting::MaxMemory(1 << 40), "max_memory 1099511627776"),
            (InfoSetting::GameType(1), "game_type 1"),
            (InfoSetting::Rule(4), "rule 4"),
            (
                InfoSetting::Folder("C:\\my dir".into()),
                "folder C:\\my dir",
            ),
            (InfoSetting::Evaluate(3, 4), "evaluate 3,4"),
            (InfoSetting::ThreadNum(2), "thread_num 2"),
            (InfoSetting::HashSize(1024), "hash_size 1024"),
            (InfoSetting::CautionFactor(1), "caution_factor 1"),
            (InfoSetting::MaxDepth(225), "max_depth 225"),
            (InfoSetting::MaxNode(-1), "max_node -1"),
            (InfoSetting::TimeIncrement(500), "time_increment 500"),
            (InfoSetting::ShowDetail(3), "show_detail 3"),
            (InfoSetting::Pondering(true), "pondering 1"),
            (InfoSetting::Pondering(false), "pondering 0"),
            (InfoSetting::Byoyomi(30000), "byoyomi 30000"),
            (
                InfoSetting::Unknown {
                    key: "Strength".into(),
                    value: "100".into(),
                },
                "Strength 100",
            ),
            (
                InfoSetting::Unknown {
                    key: "flag".into(),
                    value: String::new(),
                },
                "flag",
            ),
        ];
        for (setting, text) in cases {
            assert_eq!(setting.to_string(), *text, "{setting:?}");
        }
    }

    #[test]
    fn block_lines_format_canonically() {
        assert_eq!(BlockLine::Empty.to_string(), "");
        assert_eq!(BlockLine::Done.to_string(), "DONE");
        let stone = BlockLine::Stone {
            x: 10,
            y: 11,
            field: Some(2),
        };
        assert_eq!(stone.to_string(), "10,11,2");
        let bare = BlockLine::Stone {
            x: 7,
            y: 7,
            field: None,
        };
        assert_eq!(bare.to_string(), "7,7");
    }

    #[test]
    fn names_and_blocks() {
        assert_eq!(Command::Turn(1, 2).name(), "TURN");
        assert_eq!(Command::Info(InfoSetting::Rule(1)).name(), "INFO");
        assert!(Command::Board.starts_block());
        assert!(Command::YxBoard.starts_block());
        assert!(Command::Swap2Board.starts_block());
        assert!(Command::YxBlock.starts_block());
        assert!(Command::YxBlockUndo.starts_block());
        assert!(!Command::YxBlockReset.starts_block());
        assert!(!Command::Begin.starts_block());
        assert!(!Command::Done.starts_block());
        assert_eq!(InfoSetting::Pondering(true).key(), "pondering");
    }
}
