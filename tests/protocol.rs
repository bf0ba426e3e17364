//! Protocol transcript tests: every `protocol-tests/*.txt` file is a conversation with
//! the real `pbrain-tianyuan` binary. The format is described in
//! `protocol-tests/README.md`.
//!
//! Environment knobs:
//! - `PROTOCOL_TEST_FILTER=substr[,substr…]`: run only cases whose file name contains one
//!   of the substrings;
//! - `PROTOCOL_TEST_JOBS=n`: how many non-serial cases run at once (default 3);
//! - `PROTOCOL_TEST_VERBOSE=1`: list every case with its time; `=2`: with its transcript.

use std::collections::{BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use regex::Regex;

/// The engine under test; `PROTOCOL_TEST_ENGINE=/path/to/engine` runs the cases against
/// another binary.
fn engine_path() -> String {
    std::env::var("PROTOCOL_TEST_ENGINE")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_pbrain-tianyuan").to_string())
}

/// Default time a case may take overall before its engine is killed.
const DEFAULT_CASE_TIMEOUT_MS: u64 = 20_000;
/// Default time to wait for one expected reply.
const DEFAULT_WAIT_MS: u64 = 10_000;
/// How many transcript lines to show around a failure.
const CONTEXT_LINES: usize = 12;
/// How many lines of the engine's stderr to keep for a failure report.
const STDERR_LINES: usize = 20;

// ---------------------------------------------------------------------------------------
// Case files
// ---------------------------------------------------------------------------------------

/// Line ending appended to a sent line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Eol {
    CrLf,
    Lf,
    Cr,
    None,
}

impl Eol {
    fn parse(word: &str) -> Option<Eol> {
        match word.to_ascii_lowercase().as_str() {
            "crlf" => Some(Eol::CrLf),
            "lf" => Some(Eol::Lf),
            "cr" => Some(Eol::Cr),
            "none" => Some(Eol::None),
            _ => None,
        }
    }

    fn bytes(self) -> &'static [u8] {
        match self {
            Eol::CrLf => b"\r\n",
            Eol::Lf => b"\n",
            Eol::Cr => b"\r",
            Eol::None => b"",
        }
    }
}

type Point = (u32, u32);

/// One directive of a transcript.
#[derive(Debug)]
enum Step {
    /// `> LINE` (optionally `>lf`, `>cr`, `>crlf`, `>none`): send a line.
    Send { text: String, eol: Option<Eol> },
    /// `>repeat N TEXT`: send TEXT repeated N times, then the line ending.
    SendRepeat { count: usize, text: String },
    /// `>hex HH HH …`: send raw bytes, no line ending added.
    SendHex(Vec<u8>),
    /// `>first CMD x,y x,y …`: send `CMD x,y` with the first candidate that is empty.
    SendFirst {
        command: String,
        candidates: Vec<Point>,
    },
    /// `>close`: close the engine's stdin.
    Close,
    /// `< LINE`: the next reply equals LINE.
    Expect(String),
    /// `<~ REGEX`: the next reply matches REGEX (anchored at both ends).
    ExpectRegex(Regex),
    /// `<until~ REGEX`: skip replies until one matches REGEX.
    Until(Regex),
    /// `<move`, `<move-in …`, `<move-not …`, `<move-near x,y r`: the next reply is one
    /// move on an empty point (with the given constraint); it is recorded on the board.
    Move(MoveRule),
    /// `<swap2`: the answer to the last `SWAP2BOARD` block.
    Swap2,
    /// `<forbid x,y …`: the next reply is a well-formed `FORBID` line naming exactly
    /// these points (in any order).
    Forbid(BTreeSet<Point>),
    /// `<silent MS`: no reply (other than skipped MESSAGE/DEBUG) within MS.
    Silent(u64),
    /// `<time< MS`: the last reply came less than MS after the last send before it.
    TimeBelow(u64),
    /// `<time> MS`: the last reply came more than MS after the last send before it.
    TimeAbove(u64),
    /// `<exit MS`: the engine exits with status 0 within MS, printing no reply first.
    Exit(u64),
    /// `<rss< BYTES`: the engine's peak resident set (VmHWM) is below BYTES.
    RssBelow(u64),
    /// `= sleep MS`.
    Sleep(u64),
}

#[derive(Debug)]
enum MoveRule {
    Any,
    In(Vec<Point>),
    NotIn(Vec<Point>),
    Near(Point, u32),
}

#[derive(Debug)]
struct Options {
    eol: Eol,
    serial: bool,
    timeout_ms: u64,
    wait_ms: u64,
    messages: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            eol: Eol::CrLf,
            serial: false,
            timeout_ms: DEFAULT_CASE_TIMEOUT_MS,
            wait_ms: DEFAULT_WAIT_MS,
            messages: false,
        }
    }
}

#[derive(Debug)]
struct Case {
    name: String,
    path: PathBuf,
    options: Options,
    /// Each step with its 1-based line number in the file.
    steps: Vec<(usize, Step)>,
}

fn parse_point(text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("expected x,y, got {text:?}"))?;
    let x = x.trim().parse().map_err(|_| format!("bad x in {text:?}"))?;
    let y = y.trim().parse().map_err(|_| format!("bad y in {text:?}"))?;
    Ok((x, y))
}

fn parse_points(text: &str) -> Result<Vec<Point>, String> {
    text.split_whitespace().map(parse_point).collect()
}

fn parse_ms(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected a number, got {:?}", text.trim()))
}

fn anchored(pattern: &str) -> Result<Regex, String> {
    Regex::new(&format!("^(?:{pattern})$")).map_err(|e| format!("bad regex: {e}"))
}

fn parse_case(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut options = Options::default();
    let mut steps = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let at = |e: String| format!("{}:{line_no}: {e}", path.display());
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (head, rest) = match line.split_once(' ') {
            Some((h, r)) => (h, r),
            None => (line, ""),
        };
        let step = match head {
            "@eol" => {
                options.eol = Eol::parse(rest.trim()).ok_or_else(|| at("bad @eol".into()))?;
                continue;
            }
            "@serial" => {
                options.serial = true;
                continue;
            }
            "@messages" => {
                options.messages = true;
                continue;
            }
            "@timeout" => {
                options.timeout_ms = parse_ms(rest).map_err(at)?;
                continue;
            }
            "@wait" => {
                options.wait_ms = parse_ms(rest).map_err(at)?;
                continue;
            }
            ">" => Step::Send {
                text: rest.to_string(),
                eol: None,
            },
            ">crlf" | ">lf" | ">cr" | ">none" => Step::Send {
                text: rest.to_string(),
                eol: Eol::parse(&head[1..]),
            },
            ">repeat" => {
                let (count, text) = rest
                    .split_once(' ')
                    .ok_or_else(|| at(">repeat N TEXT".into()))?;
                Step::SendRepeat {
                    count: count.parse().map_err(|_| at("bad repeat count".into()))?,
                    text: text.to_string(),
                }
            }
            ">hex" => Step::SendHex(
                rest.split_whitespace()
                    .map(|h| u8::from_str_radix(h, 16))
                    .collect::<Result<_, _>>()
                    .map_err(|_| at("bad hex byte".into()))?,
            ),
            ">first" => {
                let (command, points) = rest
                    .split_once(' ')
                    .ok_or_else(|| at(">first CMD x,y …".into()))?;
                let candidates = parse_points(points).map_err(at)?;
                if candidates.is_empty() {
                    return Err(at(">first needs candidates".into()));
                }
                Step::SendFirst {
                    command: command.to_string(),
                    candidates,
                }
            }
            ">close" => Step::Close,
            "<" => Step::Expect(rest.to_string()),
            "<~" => Step::ExpectRegex(anchored(rest).map_err(at)?),
            "<until~" => Step::Until(anchored(rest).map_err(at)?),
            "<move" => Step::Move(MoveRule::Any),
            "<move-in" => Step::Move(MoveRule::In(parse_points(rest).map_err(at)?)),
            "<move-not" => Step::Move(MoveRule::NotIn(parse_points(rest).map_err(at)?)),
            "<move-near" => {
                let (p, r) = rest
                    .trim()
                    .split_once(' ')
                    .ok_or_else(|| at("<move-near x,y r".into()))?;
                Step::Move(MoveRule::Near(
                    parse_point(p).map_err(at)?,
                    r.trim().parse().map_err(|_| at("bad radius".into()))?,
                ))
            }
            "<swap2" => Step::Swap2,
            "<forbid" => Step::Forbid(parse_points(rest).map_err(at)?.into_iter().collect()),
            "<silent" => Step::Silent(parse_ms(rest).map_err(at)?),
            "<time<" => Step::TimeBelow(parse_ms(rest).map_err(at)?),
            "<time>" => Step::TimeAbove(parse_ms(rest).map_err(at)?),
            "<exit" => Step::Exit(parse_ms(rest).map_err(at)?),
            "<rss<" => Step::RssBelow(parse_ms(rest).map_err(at)?),
            "=" => match rest.split_once(' ') {
                Some(("sleep", ms)) => Step::Sleep(parse_ms(ms).map_err(at)?),
                _ => return Err(at(format!("unknown action {rest:?}"))),
            },
            _ => return Err(at(format!("unknown directive {head:?}"))),
        };
        steps.push((line_no, step));
    }
    if steps.is_empty() {
        return Err(format!("{}: no steps", path.display()));
    }
    Ok(Case {
        name,
        path: path.to_path_buf(),
        options,
        steps,
    })
}

// ---------------------------------------------------------------------------------------
// The board the harness tracks from the transcript
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Board,
    Swap2,
    /// `YXBLOCK`/`YXBLOCKUNDO`: points, not stones.
    Points,
}

/// Which points hold a stone, as far as the transcript tells. Colours do not matter to
/// the checks, only occupancy.
#[derive(Debug, Default)]
struct Tracker {
    width: u32,
    height: u32,
    stones: BTreeSet<Point>,
    block: Option<Block>,
    swap2_stones: usize,
    last_move: Option<Point>,
}

impl Tracker {
    fn on_board(&self, (x, y): Point) -> bool {
        x < self.width && y < self.height
    }

    fn is_empty(&self, p: Point) -> bool {
        self.on_board(p) && !self.stones.contains(&p)
    }

    fn reset(&mut self, width: u32, height: u32) {
        self.width = width;
        self.height = height;
        self.stones.clear();
    }

    fn put(&mut self, p: Point) {
        if self.is_empty(p) {
            self.stones.insert(p);
        }
    }

    /// Follow one line sent to the engine. Sizes outside 5..=32 are assumed refused.
    fn sent(&mut self, line: &str) {
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if let Some(block) = self.block {
            if line.eq_ignore_ascii_case("DONE") {
                self.block = None;
                return;
            }
            if block == Block::Points {
                return;
            }
            let parts: Vec<&str> = line.split(',').map(str::trim).collect();
            if parts.len() < 2 {
                return;
            }
            let (Ok(x), Ok(y)) = (parts[0].parse(), parts[1].parse()) else {
                return;
            };
            let field = parts.get(2).copied().unwrap_or("");
            if field == "1" || field == "2" || (block == Block::Swap2 && parts.len() == 2) {
                if block == Block::Swap2 {
                    self.swap2_stones += 1;
                }
                self.put((x, y));
            }
            return;
        }
        let (word, args) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w.to_ascii_uppercase(), a.trim()),
            None => (line.to_ascii_uppercase(), ""),
        };
        let point = || parse_point(args).ok();
        let valid = |n: u32| (5..=32).contains(&n);
        match word.as_str() {
            "START" => {
                let sizes: Vec<u32> = args
                    .split_whitespace()
                    .filter_map(|s| s.parse().ok())
                    .collect();
                match sizes[..] {
                    [n] if valid(n) => self.reset(n, n),
                    // Yixin-Board's w h: its coordinates are row,col, so
                    // the engine's board is the transposed one.
                    [w, h] if valid(w) && valid(h) => self.reset(h, w),
                    _ => {}
                }
            }
            "RECTSTART" => {
                if let Some((w, h)) = point()
                    && valid(w)
                    && valid(h)
                {
                    self.reset(w, h);
                }
            }
            "RESTART" => self.stones.clear(),
            "TURN" | "PLAY" => {
                if let Some(p) = point() {
                    self.put(p);
                }
            }
            "TAKEBACK" => {
                if let Some(p) = point() {
                    self.stones.remove(&p);
                }
            }
            "BOARD" | "YXBOARD" if args.is_empty() => {
                self.stones.clear();
                self.block = Some(Block::Board);
            }
            "YXBLOCK" | "YXBLOCKUNDO" if args.is_empty() => self.block = Some(Block::Points),
            "SWAP2BOARD" if args.is_empty() => {
                self.stones.clear();
                self.swap2_stones = 0;
                self.block = Some(Block::Swap2);
            }
            _ => {}
        }
    }

    /// Check a reply that must be `x,y` on an empty point; record it.
    fn take_move(&mut self, text: &str) -> Result<Point, String> {
        let p = parse_point(text)
            .map_err(|_| "not a move".to_string())
            .and_then(|p| {
                if text.trim() != text || text.contains(' ') {
                    Err("not a single clean move".to_string())
                } else {
                    Ok(p)
                }
            })?;
        if !self.on_board(p) {
            return Err(format!("off the {}x{} board", self.width, self.height));
        }
        if self.stones.contains(&p) {
            return Err("on an occupied point".to_string());
        }
        self.stones.insert(p);
        self.last_move = Some(p);
        Ok(p)
    }
}

// ---------------------------------------------------------------------------------------
// Running one case
// ---------------------------------------------------------------------------------------

enum Output {
    Line(Instant, String),
    Eof(Instant),
}

struct Engine {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Output>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    eof: bool,
}

impl Engine {
    fn spawn() -> Result<Engine, String> {
        let mut child = Command::new(engine_path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", engine_path()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");

        // Writer: never blocks the case thread, closes stdin when the sender is dropped.
        let (input, to_write) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || writer(stdin, to_write));

        // Reader: one timestamped message per stdout line, then Eof.
        let (lines, output) = mpsc::channel();
        thread::spawn(move || {
            let mut pending = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let now = Instant::now();
                        for &b in &buf[..n] {
                            if b == b'\n' {
                                let mut line = String::from_utf8_lossy(&pending).into_owned();
                                if line.ends_with('\r') {
                                    line.pop();
                                }
                                pending.clear();
                                if lines.send(Output::Line(now, line)).is_err() {
                                    return;
                                }
                            } else {
                                pending.push(b);
                            }
                        }
                    }
                }
            }
            if !pending.is_empty() {
                let line = String::from_utf8_lossy(&pending).into_owned();
                let _ = lines.send(Output::Line(Instant::now(), line));
            }
            let _ = lines.send(Output::Eof(Instant::now()));
        });

        let log = Arc::new(Mutex::new(VecDeque::new()));
        let log_in = Arc::clone(&log);
        thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            let mut log = log_in.lock().unwrap();
            for line in String::from_utf8_lossy(&text).lines() {
                if log.len() == STDERR_LINES {
                    log.pop_front();
                }
                log.push_back(line.to_string());
            }
        });

        Ok(Engine {
            child,
            input: Some(input),
            output,
            stderr: log,
            eof: false,
        })
    }

    fn send(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        match &self.input {
            Some(input) => input
                .send(bytes)
                .map_err(|_| "the engine's stdin is closed".to_string()),
            None => Err("stdin was closed by the transcript".to_string()),
        }
    }

    fn close(&mut self) {
        self.input = None;
    }

    fn status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Kill the engine if it is still running and collect its status.
    fn finish(&mut self) {
        self.close();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if self.status().is_some() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn stderr_tail(&self) -> Vec<String> {
        // Give the stderr thread a moment to collect what the engine printed last.
        thread::sleep(Duration::from_millis(50));
        self.stderr.lock().unwrap().iter().cloned().collect()
    }
}

fn writer(mut stdin: ChildStdin, to_write: Receiver<Vec<u8>>) {
    for bytes in to_write {
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// What one reply wait produced.
enum Got {
    Line(String),
    Eof,
    Timeout,
}

struct Run<'a> {
    case: &'a Case,
    engine: Engine,
    board: Tracker,
    deadline: Instant,
    /// Times of every send, in order.
    sends: Vec<Instant>,
    /// Arrival time of the last reply consumed.
    last_reply: Option<Instant>,
    /// Recent transcript for failure reports.
    log: VecDeque<String>,
    start: Instant,
    /// The case's own scratch folder (`$tmp` in sent lines), made on first use.
    scratch: std::path::PathBuf,
}

impl Run<'_> {
    fn note(&mut self, entry: String) {
        self.note_at(Instant::now(), entry);
    }

    /// Log `entry` as happening at `at` (replies are logged at their arrival).
    fn note_at(&mut self, at: Instant, entry: String) {
        let ms = at.saturating_duration_since(self.start).as_millis();
        self.log.push_back(format!("{ms:>6} ms  {entry}"));
    }

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Is this a free-text line the case does not look at?
    fn skipped(&self, line: &str) -> bool {
        !self.case.options.messages
            && (line == "MESSAGE"
                || line == "DEBUG"
                || line.starts_with("MESSAGE ")
                || line.starts_with("DEBUG "))
    }

    /// The next reply the case looks at, waiting at most `wait`.
    fn next(&mut self, wait: Duration) -> Got {
        let until = Instant::now() + wait.min(self.remaining());
        loop {
            if self.engine.eof {
                return Got::Eof;
            }
            let left = until.saturating_duration_since(Instant::now());
            match self.engine.output.recv_timeout(left) {
                Ok(Output::Line(at, line)) => {
                    if self.skipped(&line) {
                        self.note_at(at, format!("<(skipped) {line}"));
                        continue;
                    }
                    self.note_at(at, format!("< {line}"));
                    self.last_reply = Some(at);
                    return Got::Line(line);
                }
                Ok(Output::Eof(at)) => {
                    self.engine.eof = true;
                    self.note_at(at, "<(end of output)".to_string());
                    return Got::Eof;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.engine.eof = true;
                    return Got::Eof;
                }
                Err(RecvTimeoutError::Timeout) => return Got::Timeout,
            }
        }
    }

    fn describe(&mut self, got: &Got, wait: Duration) -> String {
        match got {
            Got::Line(line) => format!("got {line:?}"),
            Got::Timeout if self.remaining().is_zero() => {
                format!(
                    "nothing before the case timeout ({} ms)",
                    self.case.options.timeout_ms
                )
            }
            Got::Timeout => format!("nothing within {} ms", wait.as_millis()),
            Got::Eof => {
                thread::sleep(Duration::from_millis(20));
                match self.engine.status() {
                    Some(status) => format!("end of output; the engine exited with {status}"),
                    None => "end of output (stdout closed)".to_string(),
                }
            }
        }
    }

    /// The next reply line, or a failure message naming what came instead.
    fn reply(&mut self) -> Result<String, String> {
        let wait = Duration::from_millis(self.case.options.wait_ms);
        match self.next(wait) {
            Got::Line(line) => Ok(line),
            other => Err(self.describe(&other, wait)),
        }
    }

    fn send_bytes(&mut self, bytes: Vec<u8>, shown: String) -> Result<(), String> {
        self.note(shown);
        self.sends.push(Instant::now());
        self.engine.send(bytes)
    }

    fn send_line(&mut self, text: &str, eol: Eol) -> Result<(), String> {
        self.board.sent(text);
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(eol.bytes());
        let shown = match eol {
            Eol::CrLf => format!("> {text}"),
            Eol::Lf => format!(">lf {text}"),
            Eol::Cr => format!(">cr {text}"),
            Eol::None => format!(">none {text}"),
        };
        self.send_bytes(bytes, shown)
    }

    /// `$move` in a sent line: the engine's last move; `$tmp`: the case's
    /// scratch folder (for files the engine writes and reads).
    fn expand(&self, text: &str) -> Result<String, String> {
        let text = if text.contains("$tmp") {
            std::fs::create_dir_all(&self.scratch)
                .map_err(|e| format!("cannot make {}: {e}", self.scratch.display()))?;
            text.replace("$tmp", &self.scratch.display().to_string())
        } else {
            text.to_string()
        };
        if !text.contains("$move") {
            return Ok(text);
        }
        let (x, y) = self
            .board
            .last_move
            .ok_or("$move used before the engine made a move")?;
        Ok(text.replace("$move", &format!("{x},{y}")))
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        match step {
            Step::Send { text, eol } => {
                let text = self.expand(text)?;
                self.send_line(&text, eol.unwrap_or(self.case.options.eol))
            }
            Step::SendRepeat { count, text } => {
                let body = text.repeat(*count);
                let mut bytes = body.clone().into_bytes();
                bytes.extend_from_slice(self.case.options.eol.bytes());
                self.board.sent(&body);
                self.send_bytes(bytes, format!(">repeat {count} {text}"))
            }
            Step::SendHex(bytes) => {
                let shown = format!(">hex {}", String::from_utf8_lossy(bytes).escape_debug());
                self.send_bytes(bytes.clone(), shown)
            }
            Step::SendFirst {
                command,
                candidates,
            } => {
                let Some(&(x, y)) = candidates.iter().find(|&&p| self.board.is_empty(p)) else {
                    return Err(format!("no candidate of >first is empty: {candidates:?}"));
                };
                self.send_line(&format!("{command} {x},{y}"), self.case.options.eol)
            }
            Step::Close => {
                self.note(">close".to_string());
                self.engine.close();
                Ok(())
            }
            Step::Expect(expected) => {
                let line = self
                    .reply()
                    .map_err(|e| format!("expected {expected:?}, {e}"))?;
                if &line == expected {
                    Ok(())
                } else {
                    Err(format!("expected {expected:?}, got {line:?}"))
                }
            }
            Step::ExpectRegex(re) => {
                let line = self
                    .reply()
                    .map_err(|e| format!("expected a match of /{re}/, {e}"))?;
                if re.is_match(&line) {
                    Ok(())
                } else {
                    Err(format!("expected a match of /{re}/, got {line:?}"))
                }
            }
            Step::Until(re) => loop {
                let line = self
                    .reply()
                    .map_err(|e| format!("expected a line matching /{re}/ eventually, {e}"))?;
                if re.is_match(&line) {
                    return Ok(());
                }
            },
            Step::Move(rule) => {
                let line = self.reply().map_err(|e| format!("expected a move, {e}"))?;
                let p = self
                    .board
                    .take_move(&line)
                    .map_err(|e| format!("expected a move on an empty point, got {line:?}: {e}"))?;
                let ok = match rule {
                    MoveRule::Any => true,
                    MoveRule::In(set) => set.contains(&p),
                    MoveRule::NotIn(set) => !set.contains(&p),
                    MoveRule::Near((cx, cy), r) => {
                        p.0.abs_diff(*cx) <= *r && p.1.abs_diff(*cy) <= *r
                    }
                };
                if ok {
                    Ok(())
                } else {
                    Err(format!(
                        "expected a move {}, got {line:?}",
                        describe_rule(rule)
                    ))
                }
            }
            Step::Swap2 => {
                let line = self
                    .reply()
                    .map_err(|e| format!("expected a SWAP2 answer, {e}"))?;
                self.check_swap2(&line).map_err(|e| {
                    format!(
                        "bad answer {line:?} to SWAP2BOARD with {} stones: {e}",
                        self.board.swap2_stones
                    )
                })
            }
            Step::Forbid(expected) => {
                let line = self
                    .reply()
                    .map_err(|e| format!("expected a FORBID line, {e}"))?;
                let got = parse_forbid(&line)
                    .map_err(|e| format!("expected a FORBID line, got {line:?}: {e}"))?;
                if &got == expected {
                    Ok(())
                } else {
                    Err(format!(
                        "expected FORBID with {:?}, got {line:?} (points {got:?})",
                        expected
                    ))
                }
            }
            Step::Silent(ms) => {
                let wait = Duration::from_millis(*ms);
                if wait > self.remaining() {
                    return Err("<silent runs past the case timeout".to_string());
                }
                match self.next(wait) {
                    Got::Timeout => Ok(()),
                    got => Err(format!(
                        "expected no reply for {ms} ms, {}",
                        self.describe(&got, wait)
                    )),
                }
            }
            Step::TimeBelow(ms) | Step::TimeAbove(ms) => {
                let reply = self.last_reply.ok_or("<time used before any reply")?;
                let sent = self
                    .sends
                    .iter()
                    .rev()
                    .find(|&&s| s <= reply)
                    .copied()
                    .ok_or("<time used before any send")?;
                let took = reply.duration_since(sent).as_millis();
                self.note(format!("(last reply took {took} ms)"));
                let ok = match step {
                    Step::TimeBelow(_) => took < u128::from(*ms),
                    _ => took > u128::from(*ms),
                };
                if ok {
                    Ok(())
                } else {
                    let cmp = if matches!(step, Step::TimeBelow(_)) {
                        "<"
                    } else {
                        ">"
                    };
                    Err(format!(
                        "expected the last reply within {cmp} {ms} ms of the last send, it took {took} ms"
                    ))
                }
            }
            Step::Exit(ms) => self.check_exit(*ms),
            Step::RssBelow(limit) => {
                let hwm = peak_rss(self.engine.child.id())?;
                self.note(format!("(peak RSS {hwm} bytes)"));
                if hwm < *limit {
                    Ok(())
                } else {
                    Err(format!(
                        "expected a peak RSS below {limit} bytes, VmHWM is {hwm} bytes"
                    ))
                }
            }
            Step::Sleep(ms) => {
                let wait = Duration::from_millis(*ms);
                if wait > self.remaining() {
                    return Err("sleep runs past the case timeout".to_string());
                }
                thread::sleep(wait);
                Ok(())
            }
        }
    }

    fn check_swap2(&mut self, line: &str) -> Result<(), String> {
        let stones = self.board.swap2_stones;
        let allowed: &[usize] = match stones {
            0 => &[3],
            3 => &[0, 1, 2],
            5 => &[0, 1],
            _ => return Err("the case sent a stone count the harness cannot judge".into()),
        };
        if line == "SWAP" {
            return if allowed.contains(&0) {
                Ok(())
            } else {
                Err("SWAP is not an answer here".into())
            };
        }
        let words: Vec<&str> = line.split(' ').collect();
        if !allowed.contains(&words.len()) || words.iter().any(|w| w.is_empty()) {
            return Err(format!(
                "expected {allowed:?} moves (0 = SWAP), separated by single spaces"
            ));
        }
        let mut placed = Vec::new();
        for w in words {
            match self.board.take_move(w) {
                Ok(p) => placed.push(p),
                Err(e) => return Err(format!("{w:?}: {e}")),
            }
        }
        Ok(())
    }

    fn check_exit(&mut self, ms: u64) -> Result<(), String> {
        let wait = Duration::from_millis(ms);
        if wait > self.remaining() {
            return Err("<exit runs past the case timeout".to_string());
        }
        let from = Instant::now();
        let until = from + wait;
        loop {
            // Any reply in the meantime is a failure; free text is fine.
            match self.engine.output.try_recv() {
                Ok(Output::Line(at, line)) => {
                    if self.skipped(&line) {
                        self.note_at(at, format!("<(skipped) {line}"));
                    } else {
                        self.note_at(at, format!("< {line}"));
                        return Err(format!(
                            "expected the engine to exit silently, got {line:?}"
                        ));
                    }
                    continue;
                }
                Ok(Output::Eof(at)) => {
                    self.engine.eof = true;
                    self.note_at(at, "<(end of output)".to_string());
                }
                Err(_) => {}
            }
            if let Some(status) = self.engine.status() {
                let took = from.elapsed().as_millis();
                self.note(format!("(exited with {status} after {took} ms)"));
                return if status.success() {
                    Ok(())
                } else {
                    Err(format!(
                        "expected exit status 0, the engine exited with {status}"
                    ))
                };
            }
            if Instant::now() >= until {
                return Err(format!(
                    "expected the engine to exit within {ms} ms, it is still running"
                ));
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

fn describe_rule(rule: &MoveRule) -> String {
    let list = |set: &[Point]| {
        set.iter()
            .map(|(x, y)| format!("{x},{y}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match rule {
        MoveRule::Any => "anywhere empty".to_string(),
        MoveRule::In(set) => format!("in {{{}}}", list(set)),
        MoveRule::NotIn(set) => format!("not in {{{}}}", list(set)),
        MoveRule::Near((x, y), r) => format!("within {r} of {x},{y}"),
    }
}

/// The points of a `FORBID xxyy….` line.
fn parse_forbid(line: &str) -> Result<BTreeSet<Point>, String> {
    let body = line
        .strip_prefix("FORBID ")
        .and_then(|b| b.strip_suffix('.'))
        .ok_or("not `FORBID ….`")?;
    if body.len() % 4 != 0 || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err("points must be 4-digit groups xxyy".into());
    }
    let mut points = BTreeSet::new();
    for i in (0..body.len()).step_by(4) {
        let x = body[i..i + 2].parse().unwrap();
        let y = body[i + 2..i + 4].parse().unwrap();
        if !points.insert((x, y)) {
            return Err(format!("{x},{y} listed twice"));
        }
    }
    Ok(points)
}

/// The peak resident set size (VmHWM) of process `pid`, in bytes.
fn peak_rss(pid: u32) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("cannot read /proc/{pid}/status: {e}"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .ok_or("no VmHWM in /proc status")?;
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .ok_or("unreadable VmHWM")?;
    Ok(kb * 1024)
}

/// Outcome of one case: `Ok` holds the time taken and the whole transcript, `Err` the
/// failure report.
fn run_case(case: &Case) -> Result<(Duration, Vec<String>), String> {
    let start = Instant::now();
    let engine = Engine::spawn()?;
    let mut run = Run {
        case,
        engine,
        board: Tracker::default(),
        deadline: start + Duration::from_millis(case.options.timeout_ms),
        sends: Vec::new(),
        last_reply: None,
        log: VecDeque::new(),
        start,
        scratch: std::env::temp_dir().join(format!(
            "tianyuan-protocol-{}-{}",
            std::process::id(),
            case.path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
        )),
    };
    let mut outcome = Ok(());
    for (line_no, step) in &case.steps {
        if let Err(problem) = run.step(step) {
            outcome = Err((*line_no, problem));
            break;
        }
    }
    let elapsed = start.elapsed();
    let _ = std::fs::remove_dir_all(&run.scratch);
    match outcome {
        Ok(()) => {
            run.engine.finish();
            Ok((elapsed, run.log.into_iter().collect()))
        }
        Err((line_no, problem)) => {
            let mut report = format!(
                "{}:{line_no}: {problem}\n    recent transcript:\n",
                case.path.display()
            );
            let skip = run.log.len().saturating_sub(CONTEXT_LINES);
            for entry in run.log.iter().skip(skip) {
                let _ = writeln!(report, "      {entry}");
            }
            run.engine.finish();
            let tail = run.engine.stderr_tail();
            if !tail.is_empty() {
                report.push_str("    engine stderr (tail):\n");
                for line in tail {
                    let _ = writeln!(report, "      {line}");
                }
            }
            Err(report)
        }
    }
}

// ---------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------

fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn protocol_transcripts() {
    let filter: Vec<String> = std::env::var("PROTOCOL_TEST_FILTER")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let jobs: usize = std::env::var("PROTOCOL_TEST_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or(3)
        .max(1);
    let verbose = std::env::var("PROTOCOL_TEST_VERBOSE").unwrap_or_default();

    let mut failures: Vec<(String, String)> = Vec::new();
    let mut cases = Vec::new();
    for path in case_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        match parse_case(&path) {
            Ok(case) => cases.push(case),
            Err(e) => failures.push((name, format!("unreadable case: {e}"))),
        }
    }
    let total = cases.len() + failures.len();
    let suite_start = Instant::now();

    // Non-serial cases share the machine `jobs` at a time; serial (timing) cases then run
    // one by one on an otherwise idle machine.
    let (serial, parallel): (Vec<&Case>, Vec<&Case>) = cases.iter().partition(|c| c.options.serial);
    type Outcome = Result<(Duration, Vec<String>), String>;
    let results: Mutex<Vec<(String, Outcome)>> = Mutex::new(Vec::new());
    let queue = Mutex::new(parallel.into_iter());
    thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap().next();
                    let Some(case) = next else { break };
                    let outcome = run_case(case);
                    results.lock().unwrap().push((case.name.clone(), outcome));
                }
            });
        }
    });
    for case in serial {
        let outcome = run_case(case);
        results.lock().unwrap().push((case.name.clone(), outcome));
    }

    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, outcome) in results {
        match outcome {
            Ok((took, transcript)) => {
                if !verbose.is_empty() {
                    eprintln!("ok   {name} ({} ms)", took.as_millis());
                }
                if verbose == "2" {
                    for entry in transcript {
                        eprintln!("       {entry}");
                    }
                }
            }
            Err(report) => failures.push((name, report)),
        }
    }
    failures.sort_by(|a, b| a.0.cmp(&b.0));
    eprintln!(
        "protocol transcripts: {} of {total} passed in {:.1} s",
        total - failures.len(),
        suite_start.elapsed().as_secs_f64()
    );
    if !failures.is_empty() {
        let mut report = String::new();
        for (name, text) in &failures {
            let _ = writeln!(report, "FAIL {name}\n  {text}");
        }
        panic!(
            "{} of {total} protocol transcripts failed:\n\n{report}",
            failures.len()
        );
    }
}
