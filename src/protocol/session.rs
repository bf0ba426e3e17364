//! The engine session: the protocol state machine.
//!
//! One [`Session`] runs on the main thread and receives [`Event`]s: input lines
//! (from the reader thread, stamped with their arrival time), search results
//! (from the search thread) and end of input. While a search runs, `YXSTOP`
//! stops it at once, `INFO` applies at once when nothing waits, and every
//! other command waits in a queue, in order, until the reply has been written
//! — so nothing is ever dropped. `END` exits at once when nothing waits;
//! behind waiting commands it stops the search, the waiting moves are answered
//! at the least depth, and then the engine exits.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::command::{BlockLine, Command, DatabaseCommand, InfoSetting, quoted};
use super::database::{Database, PositionKey, Record};
use super::parser::{ParseError, parse_block_bytes, parse_bytes};
use super::reply;
use crate::eval::Score;
use crate::game::notation::to_rif;
use crate::game::{Board, Color, Pos, Rule};
use crate::search::defend::{Defence, search_defence};
use crate::search::tablefile::TableKey;
use crate::search::threats::legal_for;
use crate::search::time::{Budget, TimeControl, budget};
use crate::search::{Info, Limits, Outcome, Progress, RootEvent, Searcher};

/// Where replies go: one line at a time, flushed at once, shared by threads.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Replies to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Replies to any writer (tests).
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout means the manager is gone; nothing useful to do about it.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// Something the session must react to.
pub enum Event {
    /// An input line and when it arrived.
    Line(Vec<u8>, Instant),
    /// A search finished.
    SearchDone(Box<Option<Outcome>>),
    /// The input was closed.
    Eof,
}

/// Whether the session goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// Exit the process.
    Exit,
}

/// Settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Search threads (default: all cores).
    pub threads: Option<usize>,
    /// Transposition table size in bytes (default: [`DEFAULT_HASH_BYTES`]).
    pub hash_bytes: Option<usize>,
}

/// Table size when nothing else is asked for.
pub const DEFAULT_HASH_BYTES: usize = 128 << 20;
/// Memory the engine needs besides the table (tables, boards, stacks, binary).
pub const MEMORY_RESERVE: u64 = 40 << 20;
/// The Gomocup memory limit, used when `max_memory` is 0 (no limit).
pub const GOMOCUP_MEMORY: u64 = 350 << 20;

/// What a running search is for.
enum Task {
    /// Answer a move and place it (BEGIN, TURN, BOARD).
    Move,
    /// Answer one of n-best moves; more to follow.
    NBest { n: usize, found: Vec<(Pos, Score)> },
    /// SWAP2 with 3 stones: swap or play move 4.
    Swap2Three,
    /// SWAP2 with 5 stones: swap or play move 6.
    Swap2Five,
    /// `YXBALANCEONE bias`: answer and place the move after which the mover
    /// leads by about `bias`.
    BalanceOne { bias: Score },
    /// `YXBALANCETWO bias`: two stones, one of each colour, after which the
    /// second stone's side leads by about `bias`: first a move that keeps the
    /// game level (`first` is `None` while it is searched), then the reply
    /// (at the least depth when `YXSTOP` cut the first search short).
    BalanceTwo {
        bias: Score,
        first: Option<Pos>,
        quick: bool,
    },
    /// `YXSEARCHDEFEND`: report the moves that hold; nothing is played.
    Defend,
    /// `INFO pondering 1`: after answering a move, search on the opponent's
    /// time to fill the table for the next move. Prints nothing; any command
    /// but `INFO` stops it, and its result is dropped.
    Ponder,
}

/// What a command with a file path (on its line or the next) does with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FileOp {
    /// `YXHASHDUMP`: save the table.
    Dump,
    /// `YXHASHLOAD`: load a saved table.
    Load,
    /// `YXSETDATABASE`: keep the position database in the file.
    SetDatabase,
    /// `YXDBTOTXT` (`all`: `YXDBTOTXTALL`): write the database's records.
    DbToTxt { all: bool },
    /// `YXTXTTODB`: add a text file's records to the database.
    TxtToDb,
}

impl FileOp {
    fn name(self) -> &'static str {
        match self {
            FileOp::Dump => "YXHASHDUMP",
            FileOp::Load => "YXHASHLOAD",
            FileOp::SetDatabase => "YXSETDATABASE",
            FileOp::DbToTxt { all: false } => "YXDBTOTXT",
            FileOp::DbToTxt { all: true } => "YXDBTOTXTALL",
            FileOp::TxtToDb => "YXTXTTODB",
        }
    }
}

/// Which block of lines is being read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    YxBlock,
    YxBlockUndo,
    /// A position-database command's position (the command in
    /// [`Block::database`]).
    Database,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
            BlockKind::Database => "database",
        }
    }

    /// Are the block's lines stones with a field (`x,y,f`), not bare points?
    fn wants_field(self) -> bool {
        matches!(self, BlockKind::Board | BlockKind::YxBoard)
    }
}

struct Block {
    kind: BlockKind,
    stones: Vec<(u32, u32, Option<u8>)>,
    error: Option<String>,
    /// The command of a [`BlockKind::Database`] block.
    database: Option<DatabaseCommand>,
}

impl Block {
    /// The command that opened the block, for messages.
    fn name(&self) -> &'static str {
        self.database
            .as_ref()
            .map_or(self.kind.name(), |d| d.name())
    }
}

/// The protocol state machine.
pub struct Session {
    out: Output,
    events: Sender<Event>,
    board: Option<Board>,
    rule: Rule,
    block: Option<Block>,
    searching: Option<Task>,
    queue: VecDeque<(Vec<u8>, Instant)>,
    searcher: Arc<Searcher>,
    time: TimeControl,
    max_depth: Option<i32>,
    max_nodes: Option<u64>,
    show_detail: u32,
    /// `INFO show_detail` came with bit 0 set (Yixin-Board sends 1): after
    /// each iteration the best move is also marked for the board, as
    /// `MESSAGE REALTIME REFRESH` and `MESSAGE REALTIME BEST x,y`.
    realtime: bool,
    threads: usize,
    hash_request: usize,
    /// The table size asked for on the command line (or the default).
    default_hash: usize,
    max_memory: u64,
    /// The table must be emptied before the next search (the rule or the
    /// board size changed, or `YXHASHCLEAR`) and could not be yet.
    clear_pending: bool,
    /// A search ran since the table was last emptied (else it is empty).
    table_used: bool,
    /// A command with a file path ([`FileOp`]) came without one:
    /// the next line is it.
    path_for: Option<FileOp>,
    /// Yixin-Board's position database (in memory until `YXSETDATABASE`).
    database: Database,
    /// `INFO pondering 1`: think on the opponent's time ([`Task::Ponder`]).
    pondering: bool,
    /// When the running search was asked for (its time is charged to the
    /// game clock when it ends).
    asked_at: Option<Instant>,
    /// `time_left` is our own count (no `time_left` came since we charged a
    /// move to the clock): a new game starts from `timeout_match` again.
    clock_charged: bool,
    /// The colour the engine plays in this game, once known: the side it last
    /// moved for (`BEGIN`, `TURN`, `BOARD`, `PLAY`), or its own stones' colour
    /// in `YXBOARD`. A `TURN` is refused when that colour is to move, a
    /// `PLAY` when it is not.
    engine: Option<Color>,
    /// `INFO rule` asked for a continuous game (bit 2 with another rule bit):
    /// play on after a five.
    continuous: bool,
    /// `END` arrived behind waiting commands: answer them at once, then exit.
    ending: bool,
    /// Input has ended: exit once the pending work is answered.
    eof: bool,
    /// Points (`x`, `y`) the engine must not play (Yixin-Board's `YXBLOCK`),
    /// in the order given.
    blocked: Vec<(u32, u32)>,
}

impl Session {
    /// A session writing to `out`; search threads report back through `events`.
    pub fn new(out: Output, events: Sender<Event>, options: &Options) -> Session {
        let threads = options.threads.unwrap_or_else(cores).max(1);
        let hash_request = options.hash_bytes.unwrap_or(DEFAULT_HASH_BYTES);
        let mut s = Session {
            out,
            events,
            board: None,
            rule: Rule::Freestyle,
            block: None,
            searching: None,
            queue: VecDeque::new(),
            searcher: Arc::new(Searcher::new(1024 * 16, threads)),
            time: TimeControl::default(),
            max_depth: None,
            max_nodes: None,
            show_detail: 1,
            realtime: false,
            threads,
            hash_request,
            default_hash: hash_request,
            max_memory: 0,
            clear_pending: false,
            table_used: false,
            path_for: None,
            database: Database::new(),
            pondering: false,
            asked_at: None,
            clock_charged: false,
            engine: None,
            continuous: false,
            ending: false,
            eof: false,
            blocked: Vec::new(),
        };
        s.apply_settings();
        s
    }

    /// Reacts to one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Eof => {
                self.eof = true;
                // No command can follow: a ponder search has nothing to wait for.
                self.stop_pondering();
                self.drain_queue()
            }
            Event::Line(line, at) => {
                if self.searching.is_some() && !self.answered_while_pondering(&line) {
                    return self.line_while_searching(line, at);
                }
                self.line(&line, at)
            }
            Event::SearchDone(outcome) => {
                let answered_move = self.search_finished(*outcome);
                let flow = self.drain_queue();
                if answered_move && flow == Flow::Continue {
                    self.ponder();
                }
                flow
            }
        }
    }

    fn drain_queue(&mut self) -> Flow {
        while self.searching.is_none() {
            let Some((line, _)) = self.queue.pop_front() else {
                break;
            };
            // The clock of a command that waited behind a search starts now:
            // managers never send one early, scripts send everything at once.
            if self.line(&line, Instant::now()) == Flow::Exit {
                return Flow::Exit;
            }
        }
        if self.eof && self.searching.is_none() {
            return Flow::Exit;
        }
        Flow::Continue
    }

    /// Is `line` one that a ponder search need not stop for: a query that
    /// leaves the game and the table alone (`YXSHOWFORBID`, the database
    /// commands and their position lines, `ABOUT`, `YXSHOWINFO`), or
    /// `YXBLOCKRESET` (which Yixin-Board can send after our moves too)?
    /// Yixin-Board sends `yxshowforbid` and `yxquerydatabaseall` right after
    /// each of the engine's moves; stopping for them would end every ponder
    /// search at once. Behind waiting commands nothing jumps the queue.
    fn answered_while_pondering(&self, line: &[u8]) -> bool {
        if !matches!(self.searching, Some(Task::Ponder)) || !self.queue.is_empty() {
            return false;
        }
        if self.block.is_some() {
            // Only a database block can have opened while pondering.
            return parse_block_bytes(line).is_ok();
        }
        self.path_for.is_none()
            && matches!(
                parse_bytes(line),
                Ok(Command::YxShowForbid
                    | Command::About
                    | Command::YxShowInfo
                    | Command::YxBlockReset
                    | Command::Database(_))
            )
    }

    /// Stops a ponder search (its result is dropped when it reports).
    fn stop_pondering(&self) {
        if matches!(self.searching, Some(Task::Ponder)) {
            self.searcher.stop.store(true, Ordering::Relaxed);
        }
    }

    /// With `INFO pondering 1`, after a move was answered and nothing waits:
    /// searches the position (the opponent to move) until a command comes,
    /// so that the table is full when it does. Printed: nothing.
    fn ponder(&mut self) {
        if !self.pondering || self.searching.is_some() || !self.queue.is_empty() || self.ending {
            return;
        }
        let Some(board) = self.board.clone() else {
            return;
        };
        if board.is_full() || self.game_over(&board).is_some() {
            return;
        }
        self.apply_settings();
        let limits = Limits {
            time: Budget::fixed(PONDER_LIMIT),
            max_depth: self.max_depth.unwrap_or(120),
            max_nodes: u64::MAX,
            exclude: self.blocked_points(&board),
            balance: None,
        };
        self.table_used = true;
        self.spawn_search(Task::Ponder, move |searcher| {
            searcher.search(&board, &limits, &mut |_| {})
        });
    }

    /// Runs `work` for `task` on a thread of its own, the stop flag cleared;
    /// its outcome comes back as [`Event::SearchDone`]. The thread lets go
    /// of the searcher before it reports, so that the session, once it has
    /// the result, may resize the table (which needs the only reference).
    fn spawn_search(
        &mut self,
        task: Task,
        work: impl FnOnce(&Searcher) -> Option<Outcome> + Send + 'static,
    ) {
        self.searcher.stop.store(false, Ordering::Relaxed);
        self.searching = Some(task);
        let searcher = self.searcher.clone();
        let events = self.events.clone();
        std::thread::spawn(move || {
            let outcome = work(&searcher);
            drop(searcher);
            let _ = events.send(Event::SearchDone(Box::new(outcome)));
        });
    }

    fn line_while_searching(&mut self, line: Vec<u8>, at: Instant) -> Flow {
        let waiting = !self.queue.is_empty();
        match parse_bytes(&line) {
            // Nothing waits: the game is over, exit now.
            Ok(Command::End) if !waiting => return Flow::Exit,
            // Behind waiting commands (a script's, or a GUI's new position):
            // stop now, answer the waiting moves at once, then exit.
            Ok(Command::End) => {
                self.ending = true;
                self.searcher.stop.store(true, Ordering::Relaxed);
            }
            // Always meant for the search that runs now.
            Ok(Command::YxStop) => {
                self.searcher.stop.store(true, Ordering::Relaxed);
                return Flow::Continue;
            }
            // Behind waiting commands a setting keeps its place in the order.
            Ok(Command::Info(setting)) if !waiting => {
                self.info(setting);
                return Flow::Continue;
            }
            Ok(Command::Empty) if !waiting => return Flow::Continue,
            // Anything else ends a ponder search; the command waits for it.
            _ => self.stop_pondering(),
        }
        self.queue.push_back((line, at));
        Flow::Continue
    }

    fn line(&mut self, line: &[u8], at: Instant) -> Flow {
        if let Some(op) = self.path_for.take() {
            return self.path_line(op, line, at);
        }
        if self.block.is_some() {
            return self.block_line(line, at);
        }
        match parse_bytes(line) {
            Ok(cmd) => self.command(cmd, at),
            Err(e) => {
                self.parse_error(&e);
                Flow::Continue
            }
        }
    }

    /// The line after a command with a file path ([`FileOp`]) that came without one:
    /// the file's path (blank lines are skipped; `END` still ends the session).
    fn path_line(&mut self, op: FileOp, line: &[u8], at: Instant) -> Flow {
        let text = String::from_utf8_lossy(line);
        let path = text.trim_start_matches('\u{feff}').trim();
        if path.is_empty() {
            self.path_for = Some(op);
            return Flow::Continue;
        }
        if parse_bytes(line) == Ok(Command::End) {
            self.error(&format!("{}: no file name came before END", op.name()));
            return self.command(Command::End, at);
        }
        self.with_file(op, path);
        Flow::Continue
    }

    /// A command with a file path ([`FileOp`]) with its path, or
    /// without (then the next line is it).
    fn file_command(&mut self, op: FileOp, path: Option<String>) {
        match path {
            Some(p) => self.with_file(op, &p),
            None => self.path_for = Some(op),
        }
    }

    /// Carries out `op` with the file at `path`.
    fn with_file(&mut self, op: FileOp, path: &str) {
        match op {
            FileOp::SetDatabase => self.set_database(path),
            FileOp::DbToTxt { all } => self.database_to_text(all, path),
            FileOp::TxtToDb => self.text_to_database(path),
            FileOp::Dump | FileOp::Load => self.table_file(op, path),
        }
    }

    /// Saves the table to `path` or loads it from there, for this game.
    fn table_file(&mut self, op: FileOp, path: &str) {
        let Some(b) = &self.board else {
            return self.error(&format!("{}: no game: send START first", op.name()));
        };
        let key = TableKey {
            rule: b.rule(),
            width: b.width(),
            height: b.height(),
        };
        // The table at its set size, emptied if a new game began: what the
        // next search would use.
        self.apply_settings();
        let file = std::path::Path::new(path);
        let result = match op {
            FileOp::Dump => self
                .searcher
                .save_hash(file, key)
                .map(|n| format!("table saved: {n} entries to {path}")),
            FileOp::SetDatabase | FileOp::DbToTxt { .. } | FileOp::TxtToDb => {
                unreachable!("not a table file")
            }
            FileOp::Load => {
                // Even a damaged file may have added entries before the damage.
                self.table_used = true;
                self.searcher
                    .load_hash(file, key)
                    .map(|n| format!("table loaded: {n} entries from {path}"))
            }
        };
        match result {
            Ok(msg) => self.out.line(&reply::message(&msg)),
            Err(e) => self.error(&format!("{}: {e:#}", op.name())),
        }
    }

    fn parse_error(&self, e: &ParseError) {
        // A bad INFO is logged only: managers do not read replies to INFO.
        if e.message().starts_with("INFO") {
            log::warn!("ignored: {}", e.message());
        } else {
            self.out.line(&e.reply());
        }
    }

    fn error(&self, msg: &str) {
        self.out.line(&reply::error(msg));
    }

    fn block_line(&mut self, line: &[u8], at: Instant) -> Flow {
        match parse_block_bytes(line) {
            Ok(BlockLine::Empty) => Flow::Continue,
            Ok(BlockLine::Stone { x, y, field }) => {
                let block = self.block.as_mut().expect("in a block");
                let wants_field = block.kind.wants_field();
                if block.error.is_none() && field.is_some() != wants_field {
                    block.error = Some(if wants_field {
                        format!("stone {x},{y} needs a field: x,y,f")
                    } else {
                        format!(
                            "{} points are x,y, got {x},{y},{}",
                            block.name(),
                            field.unwrap_or(0)
                        )
                    });
                }
                block.stones.push((x, y, field));
                Flow::Continue
            }
            Ok(BlockLine::Done) => {
                let block = self.block.take().expect("in a block");
                self.finish_block(block, at);
                Flow::Continue
            }
            Err(e) => {
                match parse_bytes(line) {
                    // A setting inside a block is applied and the block goes
                    // on (a manager may send a time update at any moment).
                    Ok(Command::Info(setting)) => {
                        self.info(setting);
                        return Flow::Continue;
                    }
                    // A real command inside a block ends the block with an error.
                    Ok(cmd) if !matches!(cmd, Command::Empty) => {
                        let block = self.block.take().expect("in a block");
                        if cmd == Command::End {
                            return Flow::Exit;
                        }
                        self.error(&format!("{} block not closed by DONE", block.name()));
                        return self.command(cmd, at);
                    }
                    _ => {}
                }
                let block = self.block.as_mut().expect("in a block");
                if block.error.is_none() {
                    block.error = Some(e.message().to_string());
                }
                Flow::Continue
            }
        }
    }

    fn command(&mut self, cmd: Command, at: Instant) -> Flow {
        match cmd {
            Command::Empty => {}
            Command::Start(n) => self.start(n, n),
            Command::RectStart(w, h) => self.start(w, h),
            Command::Restart => match &self.board {
                Some(b) => {
                    let (w, h) = (b.width() as u32, b.height() as u32);
                    self.start(w, h);
                }
                None => self.error("RESTART before START"),
            },
            Command::Begin => match &self.board {
                None => self.error("no game: send START first"),
                Some(b) if b.stone_count() > 0 => self.error("BEGIN on a board that has stones"),
                Some(_) => self.think(Task::Move, at),
            },
            Command::Turn(x, y) => {
                if let Some(p) = self.checked_empty(x, y, "TURN")
                    && self.in_turn("TURN", false)
                {
                    let b = self.board.as_mut().expect("checked");
                    b.make(p);
                    self.think(Task::Move, at);
                }
            }
            Command::Play(x, y) => {
                if let Some(p) = self.checked_empty(x, y, "PLAY")
                    && self.in_turn("PLAY", true)
                {
                    let b = self.board.as_mut().expect("checked");
                    self.engine = Some(b.side_to_move());
                    b.make(p);
                    self.out.line(&reply::coord(p.x(), p.y()));
                }
            }
            Command::Takeback(x, y) => match self.board.as_mut() {
                None => self.error("no game: send START first"),
                Some(b) => match b.pos(x as i64, y as i64).and_then(|p| b.remove(p)) {
                    Ok(_) => self.out.line(&reply::ok()),
                    Err(e) => self.error(&format!("TAKEBACK: {e}")),
                },
            },
            Command::Board
            | Command::YxBoard
            | Command::Swap2Board
            | Command::YxBlock
            | Command::YxBlockUndo => {
                let kind = match cmd {
                    Command::Board => BlockKind::Board,
                    Command::YxBoard => BlockKind::YxBoard,
                    Command::YxBlock => BlockKind::YxBlock,
                    Command::YxBlockUndo => BlockKind::YxBlockUndo,
                    _ => BlockKind::Swap2,
                };
                let error = if self.board.is_none() {
                    Some("no game: send START first".to_string())
                } else {
                    None
                };
                self.block = Some(Block {
                    kind,
                    stones: Vec::new(),
                    error,
                    database: None,
                });
            }
            Command::Database(database) => {
                let error = if self.board.is_none() {
                    Some(format!("{}: no game: send START first", database.name()))
                } else {
                    None
                };
                self.block = Some(Block {
                    kind: BlockKind::Database,
                    stones: Vec::new(),
                    error,
                    database: Some(database),
                });
            }
            Command::YxSetDatabase(path) => self.file_command(FileOp::SetDatabase, path),
            Command::YxDbToTxt { all, path } => self.file_command(FileOp::DbToTxt { all }, path),
            Command::YxTxtToDb(path) => self.file_command(FileOp::TxtToDb, path),
            Command::Done => self.error("DONE without BOARD, YXBOARD or SWAP2BOARD"),
            Command::Info(setting) => self.info(setting),
            Command::About => self.out.line(&reply::about()),
            Command::End => return Flow::Exit,
            Command::YxShowForbid => {
                let pts = match self.board.as_mut() {
                    Some(b) => b
                        .forbidden_points()
                        .into_iter()
                        .map(|(p, _)| (p.x(), p.y()))
                        .collect(),
                    None => Vec::new(),
                };
                self.out.line(&reply::forbid(pts));
            }
            Command::YxStop => {} // nothing is running
            Command::YxNBest(n) => match &self.board {
                None => self.error("no game: send START first"),
                Some(_) if n == 0 => self.error("YXNBEST needs n >= 1"),
                Some(_) => self.think(
                    Task::NBest {
                        n: n.min(32) as usize,
                        found: Vec::new(),
                    },
                    at,
                ),
            },
            Command::YxHashClear => self.clear_table(),
            Command::YxHashDump(path) => self.file_command(FileOp::Dump, path),
            Command::YxHashLoad(path) => self.file_command(FileOp::Load, path),
            Command::YxSearchDefend => match &self.board {
                None => self.error("no game: send START first"),
                Some(_) => self.defend(at),
            },
            Command::YxBlockReset => self.blocked.clear(),
            Command::YxShowInfo => {
                // As Yixin-Board reads them (and Rapfi writes them): the most
                // threads worth asking for, and the largest `hash_size` as a
                // power of two (Yixin-Board sends 2^k KB for its slider's k).
                let kb = (self.hash_bytes_allowed_for(usize::MAX) / 1024).max(1);
                let info =
                    |key: &str, value: usize| reply::message(&reply::info(key, &value.to_string()));
                self.out.line(&info("MAX_THREAD_NUM", cores()));
                self.out.line(&info("MAX_HASH_SIZE", kb.ilog2() as usize));
            }
            Command::YxBalanceOne(bias) | Command::YxBalanceTwo(bias) => match &self.board {
                None => self.error("no game: send START first"),
                Some(_) => {
                    let bias = bias.clamp(-BALANCE_BIAS_MAX, BALANCE_BIAS_MAX);
                    let task = if matches!(cmd, Command::YxBalanceOne(_)) {
                        Task::BalanceOne { bias }
                    } else {
                        Task::BalanceTwo {
                            bias,
                            first: None,
                            quick: false,
                        }
                    };
                    self.think(task, at);
                }
            },
        }
        Flow::Continue
    }

    /// May a stone be placed for the engine (`ours`, `PLAY`) or for the
    /// opponent (`TURN`) now? Not after a five (unless the game is
    /// continuous), nor out of turn once the engine's colour is known;
    /// otherwise `ERROR` and no. Needs a board.
    fn in_turn(&mut self, what: &str, ours: bool) -> bool {
        let b = self.board.as_ref().expect("checked by caller");
        if let Some(problem) = self.game_over(b) {
            self.error(&format!("{what}: {problem}"));
            return false;
        }
        let to_move = b.side_to_move();
        match self.engine {
            Some(e) if (to_move == e) != ours => {
                let whose = if ours { "the opponent's" } else { "ours" };
                self.error(&format!(
                    "{what}: the move is {whose} (we play {}, {} is to move)",
                    color_name(e),
                    color_name(to_move)
                ));
                false
            }
            _ => true,
        }
    }

    /// Why no move can be played on `b`: a five is on it (outside a continuous game).
    fn game_over(&self, b: &Board) -> Option<String> {
        if self.continuous {
            return None;
        }
        b.winner()
            .map(|c| format!("the game is over: {} has five", color_name(c)))
    }

    /// The empty point `(x, y)` of the current board, or an `ERROR` reply.
    fn checked_empty(&mut self, x: u32, y: u32, what: &str) -> Option<Pos> {
        let Some(b) = self.board.as_ref() else {
            self.error("no game: send START first");
            return None;
        };
        match b.pos(x as i64, y as i64) {
            Err(e) => {
                self.error(&format!("{what}: {e}"));
                None
            }
            Ok(p) if !b.is_empty(p) => {
                self.error(&format!("{what}: point {x},{y} is occupied"));
                None
            }
            Ok(p) => Some(p),
        }
    }

    fn start(&mut self, w: u32, h: u32) {
        match Board::new(w as usize, h as usize, self.rule) {
            Ok(b) => {
                // The table keeps what it learnt unless the size changed: the
                // same stones on another board are another position (its
                // hash does not tell). Yixin-Board sends START before every
                // move of an analysis, and clearing costs time.
                let same_size = self
                    .board
                    .as_ref()
                    .is_some_and(|o| (o.width(), o.height()) == (b.width(), b.height()));
                self.board = Some(b);
                self.engine = None;
                if !same_size {
                    self.clear_table();
                }
                if std::mem::take(&mut self.clock_charged) {
                    // A new game: the game clock we kept starts again.
                    self.time.time_left_ms = None;
                }
                self.out.line(&reply::ok());
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Empties the table now if no search holds it, else before the next search.
    fn clear_table(&mut self) {
        self.clear_pending = true;
        if self.searching.is_none() {
            self.apply_settings();
        }
    }

    fn info(&mut self, setting: InfoSetting) {
        match setting {
            InfoSetting::TimeoutTurn(ms) => self.time.turn_ms = Some(ms),
            InfoSetting::TimeoutMatch(ms) => self.time.match_ms = Some(ms),
            InfoSetting::TimeLeft(ms) => {
                self.time.time_left_ms = Some(ms);
                self.clock_charged = false;
            }
            InfoSetting::TimeIncrement(ms) => self.time.increment_ms = ms,
            InfoSetting::Byoyomi(ms) => self.time.byoyomi_ms = ms,
            InfoSetting::MaxMemory(bytes) => self.max_memory = bytes,
            // 0: the default size (Yixin-Board's slider at 0).
            InfoSetting::HashSize(0) => self.hash_request = self.default_hash,
            InfoSetting::HashSize(kb) => self.hash_request = (kb as usize).saturating_mul(1024),
            InfoSetting::ThreadNum(n) => self.threads = (n as usize).clamp(1, 256),
            InfoSetting::Rule(v) => match Rule::from_protocol(v) {
                Ok(rule) => {
                    // Bit 2 alone is Renju (Yixin-Board); with another bit it
                    // is Gomocup's continuous game.
                    self.continuous = v & 2 != 0 && v != 2;
                    self.set_rule(rule);
                }
                Err(e) => log::warn!("INFO rule: {e}"),
            },
            InfoSetting::MaxDepth(d) => self.max_depth = (d > 0).then(|| d.min(120) as i32),
            InfoSetting::MaxNode(n) => self.max_nodes = (n > 0).then_some(n as u64),
            InfoSetting::ShowDetail(v) => {
                self.show_detail = v;
                self.realtime = v & 1 != 0;
            }
            InfoSetting::GameType(_)
            | InfoSetting::Folder(_)
            | InfoSetting::Evaluate(_, _)
            | InfoSetting::CautionFactor(_) => log::debug!("INFO {setting} noted"),
            InfoSetting::Pondering(on) => {
                self.pondering = on;
                if !on && matches!(self.searching, Some(Task::Ponder)) {
                    self.searcher.stop.store(true, Ordering::Relaxed);
                }
            }
            InfoSetting::Unknown { key, value } => {
                log::warn!("unknown INFO key {key:?} (value {value:?})")
            }
        }
    }

    fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        // Scores under one rule mean nothing under another.
        self.clear_table();
        if let Some(old) = &self.board {
            // Replay the stones under the new rule.
            let mut b = Board::new(old.width(), old.height(), rule).expect("same size");
            for &(p, c) in old.history() {
                b.make_color(p, c);
            }
            self.board = Some(b);
        }
    }

    /// The table size allowed within the memory limit (`max_memory`, else the
    /// Gomocup 350 MB), given the requested size.
    fn hash_bytes_allowed(&self) -> usize {
        self.hash_bytes_allowed_for(self.hash_request)
    }

    /// The table size allowed within the memory limit for a request of `request` bytes.
    fn hash_bytes_allowed_for(&self, request: usize) -> usize {
        let limit = if self.max_memory == 0 {
            GOMOCUP_MEMORY
        } else {
            self.max_memory
        };
        let room = limit.saturating_sub(MEMORY_RESERVE) * 7 / 8;
        (request as u64).min(room) as usize
    }

    /// Applies table size and thread count, and empties the table if a new game
    /// began. Only possible while no search holds the searcher; called before
    /// every search, so settings that arrive during one apply to the next.
    fn apply_settings(&mut self) {
        let bytes = self.hash_bytes_allowed();
        // More threads than cores only fight for them (and the thread that
        // keeps time may not get its turn): the most is one per core.
        let threads = self.threads.min(cores());
        let clear = std::mem::take(&mut self.clear_pending);
        if let Some(s) = Arc::get_mut(&mut self.searcher) {
            let before = s.hash_bytes();
            s.set_hash_bytes(bytes);
            s.set_threads(threads);
            if s.hash_bytes() != before {
                self.table_used = false;
            }
            // A new or unused table is empty already; clearing it would only
            // touch its pages (about 0.1 s for 128 MB).
            if clear && self.table_used {
                s.clear_hash();
                self.table_used = false;
            }
        } else {
            self.clear_pending = clear;
        }
    }

    fn finish_block(&mut self, block: Block, at: Instant) {
        if let Some(e) = block.error {
            self.error(&e);
            return;
        }
        if let Some(command) = block.database {
            let moves: Vec<(u32, u32)> = block.stones.iter().map(|s| (s.0, s.1)).collect();
            return self.database_command(command, &moves);
        }
        let old = self.board.as_ref().expect("checked at block start");
        if matches!(block.kind, BlockKind::YxBlock | BlockKind::YxBlockUndo) {
            // All points or none: a bad one leaves the list as it was.
            for &(x, y, _) in &block.stones {
                if let Err(e) = old.pos(x as i64, y as i64) {
                    return self.error(&format!("{}: {e}", block.kind.name()));
                }
            }
            for &(x, y, _) in &block.stones {
                let known = self.blocked.contains(&(x, y));
                if block.kind == BlockKind::YxBlock && !known {
                    self.blocked.push((x, y));
                } else if block.kind == BlockKind::YxBlockUndo {
                    self.blocked.retain(|&q| q != (x, y));
                }
            }
            return;
        }
        let mut b = match Board::new(old.width(), old.height(), self.rule) {
            Ok(b) => b,
            Err(e) => return self.error(&e.to_string()),
        };
        match block.kind {
            BlockKind::Swap2 => {
                for (i, &(x, y, _)) in block.stones.iter().enumerate() {
                    let color = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if let Err(e) = b.pos(x as i64, y as i64).and_then(|p| b.put(p, color)) {
                        return self.error(&format!("SWAP2BOARD: {e}"));
                    }
                }
                match block.stones.len() {
                    0 => self.swap2_opening(),
                    3 => self.think_on(b, Task::Swap2Three, at),
                    5 => self.think_on(b, Task::Swap2Five, at),
                    n => self.error(&format!("SWAP2BOARD expects 0, 3 or 5 stones, got {n}")),
                }
            }
            BlockKind::YxBlock | BlockKind::YxBlockUndo | BlockKind::Database => {
                unreachable!("handled above")
            }
            BlockKind::Board | BlockKind::YxBoard => {
                let stones: Vec<_> = block.stones.iter().filter(|s| s.2 != Some(3)).collect();
                let own = stones.iter().filter(|s| s.2 == Some(1)).count();
                let opp = stones.len() - own;
                let me = if own == opp {
                    Color::Black
                } else if opp == own + 1 {
                    Color::White
                } else {
                    let what = if block.kind == BlockKind::Board {
                        "BOARD"
                    } else {
                        "YXBOARD"
                    };
                    return self.error(&format!(
                        "{what}: {own} own and {opp} opponent stones cannot be a position with us to move"
                    ));
                };
                for &&(x, y, f) in &stones {
                    let color = if f == Some(1) { me } else { me.opponent() };
                    if let Err(e) = b.pos(x as i64, y as i64).and_then(|p| b.put(p, color)) {
                        return self.error(&format!("{}: {e}", block.kind.name()));
                    }
                }
                self.board = Some(b);
                self.engine = Some(me);
                if block.kind == BlockKind::Board {
                    self.think(Task::Move, at);
                }
            }
        }
    }

    /// `YXSETDATABASE path`: the position database is now the file's.
    fn set_database(&mut self, path: &str) {
        match self.database.open(std::path::Path::new(path)) {
            Ok(()) => self.out.line(&reply::message(&format!(
                "database: {} records in {path}",
                self.database.len()
            ))),
            Err(e) => self.error(&format!("YXSETDATABASE: {e:#}")),
        }
    }

    /// `YXDBTOTXT path` / `YXDBTOTXTALL path`: the database's records (the
    /// game's rule and board size, or `all`) written to the text file.
    fn database_to_text(&mut self, all: bool, path: &str) {
        let name = FileOp::DbToTxt { all }.name();
        let only = if all {
            None
        } else {
            let Some(b) = &self.board else {
                return self.error(&format!("{name}: no game: send START first"));
            };
            Some((
                self.rule.protocol_value(),
                b.width() as u32,
                b.height() as u32,
            ))
        };
        match self.database.export(std::path::Path::new(path), only) {
            Ok(n) => self.out.line(&reply::message(&format!(
                "database: wrote {n} records to {path}"
            ))),
            Err(e) => self.error(&format!("{name}: {e:#}")),
        }
    }

    /// `YXTXTTODB path`: the text file's records added to the database.
    fn text_to_database(&mut self, path: &str) {
        match self.database.import(std::path::Path::new(path)) {
            Ok(n) => self.out.line(&reply::message(&format!(
                "database: read {n} records from {path}, {} in all",
                self.database.len()
            ))),
            Err(e) => self.error(&format!("{}: {e:#}", FileOp::TxtToDb.name())),
        }
    }

    /// A position-database command on the position after `moves` (black
    /// first), on the current game's board size and rule.
    fn database_command(&mut self, command: DatabaseCommand, moves: &[(u32, u32)]) {
        let name = command.name();
        let b = self.board.as_ref().expect("checked at block start");
        let (w, h) = (b.width() as u32, b.height() as u32);
        let key = match PositionKey::from_moves(self.rule.protocol_value(), w, h, moves) {
            Ok(key) => key,
            Err(e) => return self.error(&format!("{name}: {e}")),
        };
        let db = &mut self.database;
        let out = &self.out;
        let message = |text: String| out.line(&reply::message(&text));
        let one = |r: Option<&Record>| {
            let r = r.cloned().unwrap_or_default();
            format!("DATABASE ONE {} {} {}", r.label, r.value, r.depth)
        };
        let comment = |r: Option<&Record>| {
            let text = r.map_or("", |r| r.comment.as_str());
            format!("DATABASE TEXT {}", quoted(text))
        };
        let result = match command {
            DatabaseCommand::QueryAll | DatabaseCommand::QueryAllText => {
                message("DATABASE REFRESH".to_string());
                for e in db.children(&key) {
                    // -1 for no label, as Yixin-Board (and Rapfi) expect.
                    let label = if e.record.label > 0 {
                        e.record.label
                    } else {
                        -1
                    };
                    let r = &e.record;
                    let mut line =
                        format!("DATABASE {} {} {label} {} {}", e.x, e.y, r.value, r.depth);
                    if !e.text.is_empty() {
                        line.push(' ');
                        line.extend(e.text.chars().map(|c| if c.is_control() { ' ' } else { c }));
                    }
                    message(line);
                }
                message("DATABASE DONE".to_string());
                if command == DatabaseCommand::QueryAllText {
                    message(comment(db.get(&key)));
                }
                Ok(())
            }
            DatabaseCommand::QueryOne => {
                message(one(db.get(&key)));
                Ok(())
            }
            DatabaseCommand::QueryText => {
                message(comment(db.get(&key)));
                Ok(())
            }
            DatabaseCommand::EditTvd(edit) => db.edit(&key, edit).map(|r| message(one(Some(r)))),
            DatabaseCommand::EditText(text) => db.set_comment(&key, &text),
            DatabaseCommand::EditPointText { x, y, text } => db.set_point_text(&key, x, y, &text),
            DatabaseCommand::DeleteOne | DatabaseCommand::DeleteAll(_) => {
                let deleted = match command {
                    DatabaseCommand::DeleteAll(filter) => db.delete_from(&key, filter),
                    _ => db.delete_one(&key),
                };
                // Lower case: Yixin-Board reads "MESSAGE DATABASE" lines as
                // points of the board.
                deleted.map(|n| message(format!("database: {n} records deleted")))
            }
            DatabaseCommand::Unsupported(_) => Err(anyhow::anyhow!(
                "not supported: Tianyuan keeps no best-move records"
            )),
        };
        if let Err(e) = result {
            self.error(&format!("{name}: {e:#}"));
        }
    }

    /// Three opening stones for SWAP2 with an even position: the most level of
    /// a few candidate shapes near the centre, judged by a short search.
    fn swap2_opening(&mut self) {
        self.apply_settings();
        let b = self.board.as_ref().expect("checked");
        let (w, h) = (b.width() as i64, b.height() as i64);
        let (cx, cy) = (w / 2, h / 2);
        // Offsets from the centre: black, white, black.
        let shapes: [[(i64, i64); 3]; 6] = [
            [(0, 0), (1, -1), (2, 1)],
            [(0, 0), (0, -1), (2, 1)],
            [(0, 0), (1, 0), (-1, 2)],
            [(0, 0), (1, -1), (3, 0)],
            [(0, 0), (-1, -1), (2, -2)],
            [(0, 0), (0, 1), (3, -1)],
        ];
        let mut best: Option<(Score, Vec<(usize, usize)>)> = None;
        for shape in shapes {
            let Ok(mut t) = Board::new(w as usize, h as usize, self.rule) else {
                break;
            };
            let mut pts = Vec::new();
            for &(dx, dy) in &shape {
                if let Ok(p) = t.pos(cx + dx, cy + dy)
                    && t.play(p).is_ok()
                {
                    pts.push((p.x(), p.y()));
                }
            }
            if pts.len() != 3 {
                continue;
            }
            let o = self.searcher.search(&t, &Limits::depth(4), &mut |_| {});
            let score = o.map_or(0, |o| o.score.abs());
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, pts));
            }
        }
        match best {
            Some((_, pts)) => self.out.line(&reply::moves(&pts)),
            None => self.error("SWAP2BOARD: the board is too small for an opening"),
        }
    }

    /// The limits of a search for a move on `board` asked for at `at` (the
    /// time already spent since is taken off); with `at_once` the least
    /// depth only.
    fn move_limits(&self, board: &Board, at: Instant, at_once: bool) -> Limits {
        let empties = board.width() * board.height() - board.stone_count();
        let budget = budget(&self.time, board.stone_count(), empties);
        log::debug!(
            "time for this move: soft {:?}, expected {:?}, hard {:?}{}",
            budget.soft,
            budget.optimum,
            budget.hard,
            if budget.use_all { ", all of it" } else { "" }
        );
        Limits {
            time: if at_once {
                Budget::INSTANT
            } else {
                budget.less(at.elapsed())
            },
            max_depth: self.max_depth.unwrap_or(120),
            max_nodes: self.max_nodes.unwrap_or(u64::MAX),
            exclude: Vec::new(),
            balance: None,
        }
    }

    /// Starts the search for the moves that hold against the opponent's
    /// forced win (`YXSEARCHDEFEND`) within a move's time: each losing move
    /// is reported as found (`MESSAGE REALTIME LOST x,y`, as Yixin-Board
    /// marks it), then a summary line.
    fn defend(&mut self, at: Instant) {
        let board = self.board.clone().expect("checked by caller");
        if let Some(problem) = self.game_over(&board) {
            return self.error(&problem);
        }
        self.apply_settings();
        let limits = self.move_limits(&board, at, self.ending);
        let out = self.out.clone();
        self.spawn_search(Task::Defend, move |searcher| {
            let d = search_defence(&board, &limits, Instant::now(), &searcher.stop, &mut |p| {
                out.line(&reply::message(&realtime_mark("LOST", p)));
            });
            out.line(&reply::message(&describe_defence(&d, board.height())));
            None
        });
    }

    /// Starts a search on the game's position.
    fn think(&mut self, task: Task, at: Instant) {
        let board = self.board.clone().expect("checked by caller");
        self.think_on(board, task, at);
    }

    /// Starts a search on `board` (the game's position or a SWAP2 proposal).
    fn think_on(&mut self, board: Board, task: Task, at: Instant) {
        if let Some(problem) = self.game_over(&board) {
            return self.error(&problem);
        }
        if board.is_full() {
            return self.error("the board is full");
        }
        if matches!(task, Task::Move) {
            self.engine = Some(board.side_to_move());
        }
        self.apply_settings();
        let quick = matches!(task, Task::BalanceTwo { quick: true, .. });
        // END waits behind this, or YXSTOP cut the first stone of a
        // YXBALANCETWO short: the least depth, at once.
        let mut limits = self.move_limits(&board, at, self.ending || quick);
        if let Task::NBest { n, found } = &task {
            // Split the time over the n searches.
            let n = *n as u32;
            limits.time = limits.time.divided(n);
            limits.exclude = found.iter().map(|f| f.0).collect();
        }
        limits.exclude.extend(self.blocked_points(&board));
        match &task {
            Task::BalanceOne { bias } => limits.balance = Some(*bias),
            Task::BalanceTwo { bias, first, .. } => {
                // Half the time for each stone; the first keeps the game level.
                limits.time = limits.time.divided(2);
                limits.balance = Some(if first.is_some() { *bias } else { 0 });
            }
            _ => {}
        }
        self.table_used = true;
        self.asked_at = Some(at);
        let out = self.out.clone();
        let detail = self.show_detail;
        let realtime = self.realtime;
        let height = board.height();
        self.spawn_search(task, move |searcher| {
            let mut reported = false;
            // Each lost root move is marked once, not at every iteration;
            // a move's DONE only follows its own POS.
            let mut marked_lost: Vec<Pos> = Vec::new();
            let mut marked_pos: Option<Pos> = None;
            let outcome = searcher.search(&board, &limits, &mut |progress| match progress {
                Progress::Iteration(info) => {
                    reported = true;
                    if detail > 0 {
                        out.line(&reply::message(&describe(info, height)));
                    }
                    if let Some(best) = info.pv.first().filter(|_| realtime) {
                        out.line(&reply::message("REALTIME REFRESH"));
                        out.line(&reply::message(&realtime_mark("BEST", *best)));
                    }
                }
                Progress::RootMove(r) if realtime => {
                    let late = r.elapsed >= REALTIME_AFTER;
                    let mark = match r.event {
                        RootEvent::Entered if late => {
                            marked_pos = Some(r.mv);
                            "POS"
                        }
                        RootEvent::Left if marked_pos.take() == Some(r.mv) => "DONE",
                        RootEvent::NewBest if late => "BEST",
                        RootEvent::Lost if !marked_lost.contains(&r.mv) => {
                            marked_lost.push(r.mv);
                            "LOST"
                        }
                        _ => return,
                    };
                    out.line(&reply::message(&realtime_mark(mark, r.mv)));
                }
                Progress::RootMove(_) => {}
            });
            // An answer without a completed iteration (a win or a forced reply
            // found before the main search, or a stop during depth 1) gets
            // its line too, so the user sees e.g. that a win was proven.
            if let Some(o) = outcome.as_ref().filter(|_| detail > 0 && !reported) {
                let info = Info {
                    depth: o.depth,
                    seldepth: o.pv.len(),
                    score: o.score,
                    nodes: o.nodes,
                    elapsed: o.elapsed,
                    pv: o.pv.clone(),
                };
                out.line(&reply::message(&describe(&info, height)));
            }
            outcome
        });
    }

    /// The blocked points (`YXBLOCK`) on `board`'s empty points.
    fn blocked_points(&self, board: &Board) -> Vec<Pos> {
        self.blocked
            .iter()
            .filter_map(|&(x, y)| board.pos(x as i64, y as i64).ok())
            .filter(|&p| board.is_empty(p))
            .collect()
    }

    /// When the search found nothing to play because every sensible point
    /// is blocked: an empty point that is neither blocked nor forbidden (a
    /// manager waits for a move), next to a stone if one is, else nearest
    /// the centre; `None` if there is none.
    fn unblocked_point(&self, board: &mut Board) -> Option<Pos> {
        let blocked = self.blocked_points(board);
        let me = board.side_to_move();
        let c = board.center();
        let mut empty: Vec<Pos> = board
            .points()
            .filter(|&p| board.is_empty(p) && !blocked.contains(&p))
            .collect();
        empty.sort_by_key(|&p| {
            let far = (p.x() as i64 - c.x() as i64).abs() + (p.y() as i64 - c.y() as i64).abs();
            (!board.is_near_stone(p), far)
        });
        empty.into_iter().find(|&p| legal_for(board, p, me))
    }

    /// Answers the finished search's task; true when that was a move
    /// answered (which pondering may follow).
    fn search_finished(&mut self, outcome: Option<Outcome>) -> bool {
        let Some(task) = self.searching.take() else {
            return false;
        };
        if matches!(task, Task::Ponder) {
            return false;
        }
        let answered_move = matches!(task, Task::Move);
        if let Some(at) = self.asked_at.take()
            && self.time.charge(at.elapsed())
        {
            self.clock_charged = true;
        }
        let Some(o) = outcome else {
            match task {
                // Reported by the search thread (which sends no outcome);
                // nothing is played.
                Task::Defend => {}
                Task::NBest { found, .. } if !found.is_empty() => {
                    let p = found[0].0;
                    self.out.line(&reply::coord(p.x(), p.y()));
                }
                Task::Move if !self.blocked.is_empty() => {
                    let mut b = self.board.clone().expect("a search ran on it");
                    match self.unblocked_point(&mut b) {
                        Some(p) => {
                            self.board.as_mut().expect("as above").make(p);
                            self.out.line(&reply::coord(p.x(), p.y()));
                        }
                        None => self.error("no move: every empty point is blocked (YXBLOCK)"),
                    }
                }
                _ => self.error("no move: the board is full"),
            }
            return answered_move;
        };
        match task {
            Task::Defend | Task::Ponder => {}
            // A balancing move is answered and placed as a move.
            Task::Move | Task::BalanceOne { .. } => {
                if matches!(task, Task::BalanceOne { .. }) {
                    // A balancing stone is an opening move (the other side
                    // may swap): who plays which colour is open again.
                    self.engine = None;
                }
                if let Some(b) = self.board.as_mut() {
                    if b.is_empty(o.best) {
                        b.make(o.best);
                    }
                    self.out.line(&reply::coord(o.best.x(), o.best.y()));
                }
            }
            Task::NBest { n, mut found } => {
                found.push((o.best, o.score));
                let height = self.board.as_ref().map_or(15, |b| b.height());
                self.out.line(&reply::message(&format!(
                    "nbest {} {} ev {}",
                    found.len(),
                    to_rif(o.best, height),
                    o.score
                )));
                let stopped = self.searcher.stop.load(Ordering::Relaxed);
                if found.len() < n && !stopped {
                    self.think(Task::NBest { n, found }, Instant::now());
                } else {
                    let p = found[0].0;
                    self.out.line(&reply::coord(p.x(), p.y()));
                }
            }
            Task::BalanceTwo {
                bias, first: None, ..
            } => {
                // The reply is searched on the position after the first stone.
                let Some(mut b) = self.board.clone().filter(|b| b.is_empty(o.best)) else {
                    self.error("YXBALANCETWO: no first stone");
                    return false;
                };
                b.make(o.best);
                if b.is_full() {
                    self.error("YXBALANCETWO: no room for a second stone");
                    return false;
                }
                let task = Task::BalanceTwo {
                    bias,
                    first: Some(o.best),
                    quick: self.searcher.stop.load(Ordering::Relaxed),
                };
                self.think_on(b, task, Instant::now());
            }
            Task::BalanceTwo {
                first: Some(first), ..
            } => {
                // Opening stones of both colours: who plays which is open again.
                self.engine = None;
                if let Some(b) = self.board.as_mut() {
                    for p in [first, o.best] {
                        if b.is_empty(p) {
                            b.make(p);
                        }
                    }
                    let pts = [(first.x(), first.y()), (o.best.x(), o.best.y())];
                    self.out.line(&reply::moves(&pts));
                }
            }
            Task::Swap2Three => {
                // White to move with black's three stones: swap when white is clearly worse.
                if o.score < -SWAP_MARGIN {
                    self.out.line(&reply::swap());
                } else {
                    self.out.line(&reply::coord(o.best.x(), o.best.y()));
                }
            }
            Task::Swap2Five => {
                if o.score < 0 {
                    self.out.line(&reply::swap());
                } else {
                    self.out.line(&reply::coord(o.best.x(), o.best.y()));
                }
            }
        }
        answered_move
    }
}

/// How long a ponder search may run at most (a command stops it sooner).
const PONDER_LIMIT: Duration = Duration::from_secs(3600);

/// The largest balance bias taken (larger ones are clamped): a lead beyond
/// this is no balance, and the sum with a score stays far from overflow.
const BALANCE_BIAS_MAX: Score = 10_000;

/// White's score below which SWAP2 takes black instead.
const SWAP_MARGIN: Score = 80;

/// From this far into a search, the root move loop's steps are marked for
/// the GUI (`REALTIME POS`, `DONE`, `BEST` during an iteration): a quick
/// answer prints no flood of marks (Rapfi waits 200 ms too). A move proven
/// lost is marked at once.
const REALTIME_AFTER: Duration = Duration::from_millis(200);

/// A Yixin-Board mark (without `MESSAGE `): e.g. `REALTIME POS 7,8`, in
/// the coordinates of the engine's moves.
fn realtime_mark(kind: &str, p: Pos) -> String {
    format!("REALTIME {kind} {},{}", p.x(), p.y())
}

/// A progress line: depth, evaluation, nodes, speed, time and PV in `h8` notation.
pub fn describe(info: &Info, height: usize) -> String {
    let pv: Vec<String> = info.pv.iter().map(|&p| to_rif(p, height)).collect();
    format!(
        "depth {}-{} ev {} n {} n/s {} tm {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps(),
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// The summary line of a defence search (`YXSEARCHDEFEND`), e.g. `defend:
/// 2 of 218 moves hold: g8 k8`.
fn describe_defence(d: &Defence, height: usize) -> String {
    if !d.threatened {
        return if d.unchecked.is_empty() {
            "defend: no forced win found for the opponent".to_string()
        } else {
            "defend: stopped before the opponent's threats were checked".to_string()
        };
    }
    let total = d.hold.len() + d.lost.len() + d.unchecked.len();
    let hold: Vec<String> = d.hold.iter().map(|&p| to_rif(p, height)).collect();
    let mut line = format!("defend: {} of {total} moves hold", hold.len());
    if !hold.is_empty() {
        line += &format!(": {}", hold.join(" "));
    }
    if !d.unchecked.is_empty() {
        line += &format!("; {} not checked in time", d.unchecked.len());
    }
    line
}

/// `black` or `white`.
fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The machine's cores (1 if unknown).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Receiver, channel};

    fn session() -> (Session, Receiver<Event>) {
        let (tx, rx) = channel();
        let options = Options {
            threads: Some(1),
            hash_bytes: Some(1 << 20),
        };
        let s = Session::new(Output::new(Box::new(std::io::sink())), tx, &options);
        (s, rx)
    }

    fn send(s: &mut Session, line: &str) -> Flow {
        s.handle(Event::Line(line.as_bytes().to_vec(), Instant::now()))
    }

    /// Sends `line` and, if it started a search, hands its result back.
    fn send_and_wait(s: &mut Session, rx: &Receiver<Event>, line: &str) {
        send(s, line);
        if s.searching.is_some() {
            let done = rx.recv().expect("the search reports");
            s.handle(done);
        }
    }

    #[test]
    fn hash_size_zero_means_the_default_size() {
        let (mut s, _rx) = session();
        send(&mut s, "INFO hash_size 4096");
        assert_eq!(s.hash_request, 4096 * 1024);
        send(&mut s, "INFO hash_size 0");
        assert_eq!(s.hash_request, 1 << 20);
    }

    #[test]
    fn the_table_is_emptied_only_when_its_entries_lose_their_meaning() {
        let (mut s, rx) = session();
        send(&mut s, "INFO timeout_turn 0");
        send_and_wait(&mut s, &rx, "START 15");
        send_and_wait(&mut s, &rx, "BEGIN");
        assert!(s.table_used);
        // A new game on the same board keeps what the table learnt.
        send_and_wait(&mut s, &rx, "START 15");
        assert!(s.table_used);
        send_and_wait(&mut s, &rx, "RESTART");
        assert!(s.table_used);
        // Another rule: emptied at once (no search holds the table).
        send_and_wait(&mut s, &rx, "INFO rule 4");
        assert!(!s.table_used && !s.clear_pending);
        send_and_wait(&mut s, &rx, "BEGIN");
        // Another board size: emptied too.
        send_and_wait(&mut s, &rx, "START 20");
        assert!(!s.table_used && !s.clear_pending);
        send_and_wait(&mut s, &rx, "BEGIN");
        send_and_wait(&mut s, &rx, "YXHASHCLEAR");
        assert!(!s.table_used && !s.clear_pending);
    }

    #[test]
    fn without_time_left_our_moves_are_charged_to_the_game_clock() {
        let (mut s, rx) = session();
        send_and_wait(&mut s, &rx, "START 15");
        send(&mut s, "INFO timeout_match 3000");
        send_and_wait(&mut s, &rx, "BEGIN");
        // The first stone (the centre) comes at once.
        let left = s.time.time_left_ms.expect("charged");
        assert!((2900..=3000).contains(&left), "{left}");
        send_and_wait(&mut s, &rx, "TURN 0,0");
        assert!(s.time.time_left_ms.expect("charged") < left);
        // The manager's count replaces ours, and is not reset by a new game.
        send(&mut s, "INFO time_left 2500");
        send_and_wait(&mut s, &rx, "START 15");
        assert_eq!(s.time.time_left_ms, Some(2500));
        // A move that searches (the centre on an empty board comes in no
        // time) is charged to the manager's count; after it a new game
        // starts our own count again.
        send_and_wait(&mut s, &rx, "TURN 7,7");
        assert!(s.time.time_left_ms.expect("charged") < 2500);
        send_and_wait(&mut s, &rx, "RESTART");
        assert_eq!(s.time.time_left_ms, None);
    }

    /// A writer whose bytes the test reads afterwards.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A session (one thread, 1 MB table) whose replies the test reads.
    fn captured_session() -> (Session, Receiver<Event>, Captured) {
        let (tx, rx) = channel();
        let captured = Captured::default();
        let options = Options {
            threads: Some(1),
            hash_bytes: Some(1 << 20),
        };
        let s = Session::new(Output::new(Box::new(captured.clone())), tx, &options);
        (s, rx, captured)
    }

    #[test]
    fn realtime_marks_pair_each_root_move_and_name_a_lost_one_once() {
        let (mut s, rx, captured) = captured_session();
        // Marks start 200 ms into the search: a turn of 1.5 s leaves the
        // search time to enter root moves after that (at 700 ms one run of
        // the whole suite beside two matches printed no POS mark).
        for line in [
            "INFO show_detail 1",
            "INFO timeout_turn 1500",
            "START 15",
            "BOARD",
        ] {
            send(&mut s, line);
        }
        // White's 8,7 would make a four and an open three (black to move).
        for stone in [
            "8,5,2", "9,5,1", "7,6,1", "8,6,2", "4,7,1", "5,7,2", "6,7,2", "7,7,2", "6,8,1",
            "10,11,1",
        ] {
            send(&mut s, stone);
        }
        send_and_wait(&mut s, &rx, "DONE");
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let marks: Vec<(&str, &str)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("MESSAGE REALTIME "))
            .filter_map(|l| l.split_once(' '))
            .collect();
        let mut open: Option<&str> = None;
        let mut lost: Vec<&str> = Vec::new();
        for &(kind, at) in &marks {
            match kind {
                "POS" => assert_eq!(open.replace(at), None, "{text}"),
                "DONE" => assert_eq!(open.take(), Some(at), "{text}"),
                "LOST" => {
                    assert!(!lost.contains(&at), "{at} marked lost twice");
                    lost.push(at);
                }
                "BEST" => assert_eq!(open, None),
                _ => panic!("unexpected mark {kind}"),
            }
        }
        assert!(marks.iter().any(|m| m.0 == "POS"), "{text}");
        assert!(!lost.is_empty() && !lost.contains(&"8,7"), "{text}");
        assert_eq!(text.lines().last(), Some("8,7"));
    }

    /// Hands the next search result back to the session.
    fn next_done(s: &mut Session, rx: &Receiver<Event>) -> Flow {
        let done = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the search reports");
        assert!(matches!(done, Event::SearchDone(_)));
        s.handle(done)
    }

    #[test]
    fn pondering_fills_the_opponents_time_and_any_command_ends_it() {
        let (mut s, rx, captured) = captured_session();
        for line in [
            "INFO pondering 1",
            "INFO timeout_turn 100",
            "INFO timeout_match 100000",
            "START 15",
        ] {
            send(&mut s, line);
        }
        send(&mut s, "TURN 7,7");
        next_done(&mut s, &rx);
        // Our move is out; the opponent's time is ours to think in.
        assert!(matches!(s.searching, Some(Task::Ponder)));
        let left = s.time.time_left_ms.expect("charged");
        std::thread::sleep(Duration::from_millis(300));
        // A setting leaves it running, and so do the queries Yixin-Board
        // sends after each of our moves, answered at once.
        send(&mut s, "INFO time_increment 0");
        for line in [
            "YXSHOWFORBID",
            "yxquerydatabaseall",
            "7,7",
            "8,7",
            "done",
            "YXBLOCKRESET",
        ] {
            send(&mut s, line);
        }
        assert!(!s.searcher.stop.load(Ordering::Relaxed));
        assert!(s.queue.is_empty());
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert!(text.ends_with("FORBID .\nMESSAGE DATABASE REFRESH\nMESSAGE DATABASE DONE\n"));
        // A move stops it and waits for it.
        send(&mut s, "TURN 9,9");
        assert!(s.searcher.stop.load(Ordering::Relaxed));
        next_done(&mut s, &rx);
        assert!(matches!(s.searching, Some(Task::Move)));
        next_done(&mut s, &rx);
        assert!(matches!(s.searching, Some(Task::Ponder)));
        // The time pondered is not ours: only the move is charged.
        let spent = left - s.time.time_left_ms.expect("charged");
        assert!(spent < 250, "{spent} ms charged");
        // Switched off: the running ponder search stops and none follows.
        send(&mut s, "INFO pondering 0");
        next_done(&mut s, &rx);
        assert!(s.searching.is_none());
        send(&mut s, "INFO pondering 1");
        send(&mut s, "TURN 5,5");
        next_done(&mut s, &rx);
        assert!(matches!(s.searching, Some(Task::Ponder)));
        // The end of input ends it too, and the session with it.
        assert_eq!(s.handle(Event::Eof), Flow::Continue);
        assert_eq!(next_done(&mut s, &rx), Flow::Exit);
        // Nothing but our three moves and the answers above was printed.
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let replies: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(replies.len(), 5, "{text}");
        assert_eq!((replies[0], replies[2]), ("OK", "FORBID ."));
    }

    #[test]
    fn end_behind_waiting_commands_answers_them_at_once_then_exits() {
        let (mut s, rx) = session();
        send(&mut s, "START 15");
        send(&mut s, "INFO timeout_turn 60000");
        send(&mut s, "BEGIN");
        assert!(s.searching.is_some());
        send(&mut s, "TURN 0,0");
        assert_eq!(send(&mut s, "END"), Flow::Continue);
        assert!(s.ending && s.searcher.stop.load(Ordering::Relaxed));
        // The stopped search answers; the waiting TURN searches at the least
        // depth; then END exits.
        let mut flow = Flow::Continue;
        while flow == Flow::Continue {
            let event = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("searches end quickly");
            flow = s.handle(event);
        }
        assert_eq!(s.board.as_ref().map(|b| b.stone_count()), Some(3));
    }
}
