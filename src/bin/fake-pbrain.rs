//! `fake-pbrain`: a tiny pbrain engine that misbehaves on purpose, for the tests of
//! the tournament runner.
//!
//! `fake-pbrain --behaviour B [--after N] [--delay-ms MS] [--seed S]`, where B is:
//! - `good`: random legal moves (never a Renju forbidden point), takes a five when it
//!   has one, blocks the opponent's; sends `MESSAGE`/`DEBUG` lines before each move;
//! - `far`: the first empty point with even x and y from the top-left (harmless);
//! - `illegal`: a point off the board;
//! - `occupied`: the point the opponent just played (or the first stone);
//! - `forbidden`: as black, builds a Renju double three (h8 i8 j7 j6, then j8);
//! - `timeout`: sleeps `--delay-ms` before answering;
//! - `silent`: never answers a move, and ignores `END`;
//! - `crash`: exits with code 3 instead of answering;
//! - `garbage`: answers `hello world`;
//! - `slow-start`: sleeps `--delay-ms` before answering `START`, then plays good;
//! - `refuse`: answers `ERROR` to `START`.
//!
//! Every behaviour except `slow-start` and `refuse` plays `good` moves for the first
//! `--after` moves.

use std::io::{self, BufRead, Write};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tianyuan::game::{Board, Color, Pos, Rule};

struct Fake {
    behaviour: String,
    after: usize,
    delay: Duration,
    rng: u64,
    board: Option<Board>,
    size: (usize, usize),
    rule: Rule,
    moves_made: usize,
    board_lines: Option<Vec<(usize, usize, u8)>>,
}

fn out(line: &str) {
    let mut o = io::stdout().lock();
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

impl Fake {
    fn rand(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn new_board(&mut self) {
        let (w, h) = self.size;
        self.board = Board::new(w, h, self.rule).ok();
    }

    fn board(&mut self) -> &mut Board {
        if self.board.is_none() {
            self.new_board();
        }
        self.board.as_mut().expect("a board")
    }

    /// Our move, by behaviour.
    fn choose(&mut self) -> Option<String> {
        let misbehave = self.moves_made >= self.after;
        let (w, h) = self.size;
        let reply = match self.behaviour.as_str() {
            "illegal" if misbehave => Some(format!("{w},{}", h / 2)),
            "occupied" if misbehave => {
                let b = self.board();
                let p = b.last_move().map(|(p, _)| p).unwrap_or(Pos::new(0, 0));
                if b.is_empty(p) {
                    // Empty board: play a point twice.
                    let _ = b.put(p, Color::Black);
                }
                Some(format!("{},{}", p.x(), p.y()))
            }
            "forbidden" => {
                let script = [(7, 7), (8, 7), (9, 8), (9, 9), (9, 7)];
                let b = self.board();
                script
                    .iter()
                    .map(|&(x, y)| Pos::new(x, y))
                    .find(|&p| b.is_empty(p))
                    .map(|p| format!("{},{}", p.x(), p.y()))
            }
            "far" => {
                let b = self.board();
                b.points()
                    .find(|&p| p.x() % 2 == 0 && p.y() % 2 == 0 && b.is_empty(p))
                    .map(|p| format!("{},{}", p.x(), p.y()))
            }
            "timeout" if misbehave => {
                thread::sleep(self.delay);
                None
            }
            "silent" if misbehave => return None,
            "crash" if misbehave => std::process::exit(3),
            "garbage" if misbehave => return Some("hello world".to_owned()),
            _ => None,
        };
        let reply = reply.or_else(|| self.good_move());
        if let Some(r) = &reply
            && let Some((x, y)) = r.split_once(',')
            && let (Ok(x), Ok(y)) = (x.parse::<usize>(), y.parse::<usize>())
            && x < w
            && y < h
        {
            let b = self.board();
            let p = Pos::new(x, y);
            if b.is_empty(p) {
                b.make(p);
            }
        }
        self.moves_made += 1;
        reply
    }

    fn good_move(&mut self) -> Option<String> {
        let me = self.board().side_to_move();
        let b = self.board.as_mut()?;
        let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
        if empties.is_empty() {
            return None;
        }
        let mut legal: Vec<Pos> = empties.iter().copied().filter(|&p| b.is_legal(p)).collect();
        if legal.is_empty() {
            legal = empties;
        }
        let win = legal.iter().copied().find(|&p| b.is_five(p, me));
        let block = legal.iter().copied().find(|&p| b.is_five(p, me.opponent()));
        let p = match win.or(block) {
            Some(p) => p,
            None => {
                let near: Vec<Pos> = b
                    .candidates()
                    .into_iter()
                    .filter(|p| legal.contains(p))
                    .collect();
                let pool = if near.is_empty() { legal } else { near };
                let i = (self.rand() % pool.len() as u64) as usize;
                pool[i]
            }
        };
        Some(format!("{},{}", p.x(), p.y()))
    }

    fn answer_move(&mut self) {
        out("MESSAGE thinking hard");
        out("DEBUG depth 1");
        if let Some(m) = self.choose() {
            out(&m);
        }
    }

    fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        if let Some(lines) = &mut self.board_lines {
            if line.eq_ignore_ascii_case("DONE") {
                let stones = self.board_lines.take().unwrap_or_default();
                self.new_board();
                let own = stones.iter().filter(|s| s.2 == 1).count();
                let opp = stones.len() - own;
                let me = if own == opp {
                    Color::Black
                } else {
                    Color::White
                };
                let b = self.board();
                for (x, y, f) in stones {
                    let c = if f == 1 { me } else { me.opponent() };
                    let _ = b.put(Pos::new(x, y), c);
                }
                self.answer_move();
            } else {
                let f: Vec<usize> = line
                    .split(',')
                    .filter_map(|s| s.trim().parse().ok())
                    .collect();
                if f.len() == 3 {
                    lines.push((f[0], f[1], f[2] as u8));
                }
            }
            return true;
        }
        let mut words = line.splitn(2, ' ');
        let cmd = words.next().unwrap_or("").to_ascii_uppercase();
        let arg = words.next().unwrap_or("").trim();
        match cmd.as_str() {
            "START" | "RECTSTART" => {
                if cmd == "START" {
                    let n = arg.parse().unwrap_or(15);
                    self.size = (n, n);
                } else if let Some((w, h)) = arg.split_once(',') {
                    self.size = (
                        w.trim().parse().unwrap_or(15),
                        h.trim().parse().unwrap_or(15),
                    );
                }
                self.moves_made = 0;
                self.board = None;
                match self.behaviour.as_str() {
                    "slow-start" => thread::sleep(self.delay),
                    "refuse" => {
                        out("ERROR unsupported size");
                        return true;
                    }
                    _ => {}
                }
                out("OK");
            }
            "RESTART" => {
                self.board = None;
                self.moves_made = 0;
                out("OK");
            }
            "INFO" => {
                let mut kv = arg.splitn(2, ' ');
                if kv.next().map(str::to_ascii_lowercase).as_deref() == Some("rule")
                    && let Some(Ok(r)) = kv.next().map(|v| v.trim().parse::<i64>())
                    && let Ok(rule) = Rule::from_protocol(r)
                {
                    self.rule = rule;
                }
            }
            "BEGIN" => {
                self.new_board();
                self.answer_move();
            }
            "TURN" => {
                if let Some((x, y)) = arg.split_once(',')
                    && let (Ok(x), Ok(y)) = (x.trim().parse(), y.trim().parse())
                {
                    let b = self.board();
                    let p = Pos::new(x, y);
                    if b.is_empty(p) {
                        b.make(p);
                    }
                }
                self.answer_move();
            }
            "BOARD" => self.board_lines = Some(Vec::new()),
            "ABOUT" => out("name=\"fake-pbrain\", version=\"1.0\", author=\"tests\""),
            "END" => return self.behaviour == "silent",
            _ => out(&format!("UNKNOWN {cmd}")),
        }
        true
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let seed = value("--seed")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id())
        });
    let mut fake = Fake {
        behaviour: value("--behaviour").unwrap_or_else(|| "good".to_owned()),
        after: value("--after").and_then(|s| s.parse().ok()).unwrap_or(0),
        delay: Duration::from_millis(
            value("--delay-ms")
                .and_then(|s| s.parse().ok())
                .unwrap_or(10_000),
        ),
        rng: seed | 1,
        board: None,
        size: (15, 15),
        rule: Rule::Freestyle,
        moves_made: 0,
        board_lines: None,
    };
    let stdin = io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => {
                if fake.behaviour == "silent" {
                    // Stuck for good: only a kill ends it.
                    loop {
                        thread::sleep(Duration::from_secs(3600));
                    }
                }
                return;
            }
            Ok(_) => {
                if !fake.command(&line) {
                    return;
                }
            }
        }
    }
}
