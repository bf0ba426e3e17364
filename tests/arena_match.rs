//! The tournament runner against small misbehaving engines (`fake-pbrain`): every
//! fault is adjudicated, every run finishes, nothing hangs.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tianyuan::arena::clock::TimeControl;
use tianyuan::arena::engine::{Engine, EngineConfig, ProtocolLog};
use tianyuan::arena::game::{GameReport, GameSettings, Seat, play_game};
use tianyuan::arena::opening::{Opening, rif_openings};
use tianyuan::arena::output::OutputPaths;
use tianyuan::arena::record::{GameResult, Termination};
use tianyuan::arena::schedule::{OpeningOrder, TournamentKind};
use tianyuan::arena::stats::{Sprt, SprtDecision, SprtModel};
use tianyuan::arena::tournament::{RestartPolicy, TournamentConfig, run};
use tianyuan::game::{Pos, Rule};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-pbrain");
const MATCH: &str = env!("CARGO_BIN_EXE_tianyuan-match");

fn fake(name: &str, behaviour: &str, extra: &[&str]) -> EngineConfig {
    let mut c = EngineConfig::new(name, FAKE);
    c.args = ["--behaviour", behaviour]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect();
    c
}

fn settings(rule: Rule, turn_ms: u64) -> GameSettings {
    GameSettings {
        width: 15,
        height: 15,
        rule,
        tc: TimeControl {
            turn_ms: Some(turn_ms),
            game_ms: None,
            increment_ms: 0,
            byoyomi_ms: 0,
            tolerance_ms: 250,
        },
        max_moves: None,
        start_timeout: Duration::from_secs(3),
    }
}

/// Plays one game and checks that it took less than `limit`.
fn play(
    s: &GameSettings,
    opening: &Opening,
    black: &EngineConfig,
    white: &EngineConfig,
    limit: Duration,
) -> GameReport {
    let t0 = Instant::now();
    let mut b = Engine::spawn(black).expect("spawn black");
    let mut w = Engine::spawn(white).expect("spawn white");
    let stop = AtomicBool::new(false);
    let report = play_game(
        s,
        opening,
        Seat {
            engine: &mut b,
            config: black,
        },
        Seat {
            engine: &mut w,
            config: white,
        },
        &ProtocolLog::none(),
        &stop,
    );
    drop((b, w)); // END, and a kill for engines that ignore it
    let took = t0.elapsed();
    assert!(took < limit, "the game took {took:?}");
    assert!(!report.aborted);
    report
}

fn good(name: &str) -> EngineConfig {
    fake(name, "good", &[])
}

fn expect(report: &GameReport, result: GameResult, termination: Termination, words: &[&str]) {
    let r = &report.record;
    assert_eq!(
        (r.result, r.termination),
        (result, termination),
        "reason: {}",
        r.reason
    );
    for w in words {
        assert!(r.reason.contains(w), "{:?} lacks {w:?}", r.reason);
    }
}

const SHORT: Duration = Duration::from_secs(5);

#[test]
fn off_board_move_loses() {
    let s = settings(Rule::Freestyle, 1000);
    let r = play(
        &s,
        &Opening::empty(),
        &good("g"),
        &fake("bad", "illegal", &["--after", "2"]),
        SHORT,
    );
    expect(
        &r,
        GameResult::BlackWin,
        Termination::IllegalMove,
        &["white", "off the 15x15 board", "(bad)"],
    );
    assert_eq!(r.broken, [false, true]);
    assert_eq!(r.record.moves.len(), 5);
}

#[test]
fn occupied_point_loses() {
    let s = settings(Rule::Freestyle, 1000);
    let r = play(
        &s,
        &Opening::empty(),
        &fake("bad", "occupied", &["--after", "1"]),
        &good("g"),
        SHORT,
    );
    expect(
        &r,
        GameResult::WhiteWin,
        Termination::IllegalMove,
        &["black", "occupied"],
    );
}

#[test]
fn renju_forbidden_move_loses_with_the_reason() {
    let s = settings(Rule::Renju, 1000);
    let r = play(
        &s,
        &Opening::empty(),
        &fake("bad", "forbidden", &[]),
        &fake("far", "far", &[]),
        SHORT,
    );
    expect(
        &r,
        GameResult::WhiteWin,
        Termination::Forbidden,
        &["black", "double three", "(33)", "j8"],
    );
    assert_eq!(
        r.record.moves.last(),
        Some(&(9, 7)),
        "the forbidden stone is recorded"
    );
    assert_eq!(r.broken, [false, false]);
    // The same moves are fine in freestyle: the game goes on past them.
    let s = settings(Rule::Freestyle, 1000);
    let mut s = s;
    s.max_moves = Some(12);
    let r = play(
        &s,
        &Opening::empty(),
        &fake("bad", "forbidden", &[]),
        &fake("far", "far", &[]),
        SHORT,
    );
    expect(
        &r,
        GameResult::Draw,
        Termination::Adjudication,
        &["move limit of 12"],
    );
}

#[test]
fn slow_reply_loses_on_time_and_is_killed() {
    let s = settings(Rule::Freestyle, 400);
    let slow = fake("slow", "timeout", &["--after", "2", "--delay-ms", "10000"]);
    let r = play(
        &s,
        &Opening::empty(),
        &slow,
        &good("g"),
        Duration::from_secs(4),
    );
    expect(
        &r,
        GameResult::WhiteWin,
        Termination::Time,
        &["black (slow) did not move within 400 ms"],
    );
    assert_eq!(r.broken, [true, false]);
    assert_eq!(r.record.moves.len(), 4);
}

#[test]
fn silent_engine_that_ignores_end_is_killed() {
    let s = settings(Rule::Freestyle, 300);
    let r = play(
        &s,
        &Opening::empty(),
        &good("g"),
        &fake("mute", "silent", &["--after", "1"]),
        Duration::from_secs(4),
    );
    expect(
        &r,
        GameResult::BlackWin,
        Termination::Time,
        &["white (mute)"],
    );
}

#[test]
fn crash_loses() {
    let s = settings(Rule::Freestyle, 1000);
    let r = play(
        &s,
        &Opening::empty(),
        &good("g"),
        &fake("boom", "crash", &["--after", "1"]),
        SHORT,
    );
    expect(
        &r,
        GameResult::BlackWin,
        Termination::Crash,
        &["white (boom) crashed", "exit code 3"],
    );
    assert_eq!(r.broken, [false, true]);
}

#[test]
fn garbage_reply_loses() {
    let s = settings(Rule::Freestyle, 1000);
    let r = play(
        &s,
        &Opening::empty(),
        &fake("junk", "garbage", &["--after", "3"]),
        &good("g"),
        SHORT,
    );
    expect(
        &r,
        GameResult::WhiteWin,
        Termination::IllegalMove,
        &["garbled", "hello world"],
    );
    assert_eq!(r.record.moves.len(), 6);
}

#[test]
fn slow_start_within_the_limit_plays_normally() {
    let mut s = settings(Rule::Freestyle, 1000);
    s.max_moves = Some(20);
    let slow = fake("slow", "slow-start", &["--delay-ms", "600"]);
    let r = play(&s, &Opening::empty(), &slow, &good("g"), SHORT);
    assert!(
        matches!(
            r.record.termination,
            Termination::Five | Termination::Adjudication
        ),
        "{:?}: {}",
        r.record.termination,
        r.record.reason
    );
    assert_eq!(r.broken, [false, false]);
}

#[test]
fn too_slow_start_and_refused_start_lose() {
    let mut s = settings(Rule::Freestyle, 1000);
    s.start_timeout = Duration::from_millis(400);
    let slow = fake("sleepy", "slow-start", &["--delay-ms", "10000"]);
    let r = play(
        &s,
        &Opening::empty(),
        &good("g"),
        &slow,
        Duration::from_secs(4),
    );
    expect(
        &r,
        GameResult::BlackWin,
        Termination::Time,
        &["white (sleepy) did not answer START within 400 ms"],
    );
    assert!(r.record.moves.is_empty());
    let r = play(
        &s,
        &Opening::empty(),
        &fake("no", "refuse", &[]),
        &good("g"),
        SHORT,
    );
    expect(
        &r,
        GameResult::WhiteWin,
        Termination::Crash,
        &["refused to start", "ERROR unsupported size"],
    );
}

#[test]
fn byoyomi_is_enforced_after_the_main_time() {
    // 300 ms main time + 300 ms byoyomi, 100 ms tolerance; the engine takes 200 ms a
    // move: in time, forever.
    let mut s = settings(Rule::Freestyle, 1000);
    s.tc = TimeControl {
        turn_ms: None,
        game_ms: Some(300),
        increment_ms: 0,
        byoyomi_ms: 300,
        tolerance_ms: 100,
    };
    s.max_moves = Some(10);
    let steady = fake("steady", "timeout", &["--delay-ms", "200"]);
    let r = play(&s, &Opening::empty(), &steady, &good("g"), SHORT);
    expect(
        &r,
        GameResult::Draw,
        Termination::Adjudication,
        &["move limit"],
    );
    // 450 ms a move: the first fits main time + byoyomi, the second is late.
    let slow = fake("slow", "timeout", &["--delay-ms", "450"]);
    let r = play(&s, &Opening::empty(), &slow, &good("g"), SHORT);
    expect(
        &r,
        GameResult::WhiteWin,
        Termination::Time,
        &["black (slow)"],
    );
    assert_eq!(r.record.moves.len(), 2);
}

#[test]
fn openings_reach_both_engines_with_board() {
    let s = settings(Rule::Renju, 1000);
    let openings = rif_openings(15, 15, Rule::Renju).unwrap();
    let kagetsu = &openings[3];
    let mut s = s;
    s.max_moves = Some(9);
    let dir = temp_dir("board");
    let log_path = dir.join("game.log");
    let log = ProtocolLog::create(&log_path).unwrap();
    let (bc, wc) = (good("b"), good("w"));
    let mut b = Engine::spawn(&bc).unwrap();
    let mut w = Engine::spawn(&wc).unwrap();
    let stop = AtomicBool::new(false);
    let r = play_game(
        &s,
        kagetsu,
        Seat {
            engine: &mut b,
            config: &bc,
        },
        Seat {
            engine: &mut w,
            config: &wc,
        },
        &log,
        &stop,
    );
    drop((b, w));
    let moves: Vec<(u32, u32)> = kagetsu
        .moves
        .iter()
        .map(|p| (p.x() as u32, p.y() as u32))
        .collect();
    assert_eq!(r.record.moves[..3], moves[..]);
    assert!(r.record.moves.len() >= 4);
    let text = std::fs::read_to_string(&log_path).unwrap();
    // White (to move after three stones) gets the opening as BOARD, own stone = 1.
    assert!(text.contains("w > BOARD"), "{text}");
    assert!(text.contains("w > 7,7,2"), "{text}");
    assert!(text.contains("w > 7,6,1"), "{text}");
    assert!(text.contains("w > INFO rule 4"), "{text}");
    assert!(text.contains("INFO time_left"), "{text}");
    // MESSAGE and DEBUG lines are logged, not taken for moves.
    assert!(text.contains("< MESSAGE thinking hard"), "{text}");
    // Black learns the opening and white's reply on its first turn with BOARD too.
    assert!(text.contains("b > BOARD"), "{text}");
    assert!(!r.record.reason.is_empty());
    assert_eq!(kagetsu.moves[0], Pos::new(7, 7));
    let _ = std::fs::remove_dir_all(dir);
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tianyuan-arena-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tournament(engines: Vec<EngineConfig>, rounds: usize, concurrency: usize) -> TournamentConfig {
    TournamentConfig {
        engines,
        kind: TournamentKind::Match,
        settings: settings(Rule::Freestyle, 1000),
        openings: vec![Opening::empty()],
        opening_order: OpeningOrder::Sequential,
        seed: 1,
        rounds,
        games: None,
        concurrency,
        sprt: None,
        restart: RestartPolicy::OnError,
        output: OutputPaths::default(),
        event: "test".to_owned(),
        progress: false,
    }
}

#[test]
fn crashing_engine_is_restarted_and_the_run_finishes() {
    let t0 = Instant::now();
    let cfg = tournament(
        vec![good("g"), fake("boom", "crash", &["--after", "2"])],
        3,
        2,
    );
    let summary = run(&cfg).unwrap();
    assert_eq!(summary.records.len(), 6);
    let boom = summary.table.engine("boom").unwrap().total();
    assert_eq!((boom.wins, boom.losses, boom.draws), (0, 6, 0));
    for (_, r) in &summary.records {
        assert_eq!(r.termination, Termination::Crash, "{}", r.reason);
    }
    assert_eq!(summary.pairs[0].1.counts, [0, 0, 0, 0, 3]);
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn stalled_engine_in_the_last_game_does_not_hang_the_run() {
    let t0 = Instant::now();
    let mut cfg = tournament(
        vec![good("g"), fake("mute", "silent", &["--after", "3"])],
        1,
        1,
    );
    cfg.settings.tc.turn_ms = Some(300);
    let summary = run(&cfg).unwrap();
    assert_eq!(summary.records.len(), 2);
    for (_, r) in &summary.records {
        assert_eq!(r.termination, Termination::Time, "{}", r.reason);
    }
    assert!(t0.elapsed() < Duration::from_secs(8), "{:?}", t0.elapsed());
}

#[test]
fn sprt_stops_early_both_ways() {
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
    for (first, second, want) in [
        (
            good("g"),
            fake("junk", "garbage", &[]),
            SprtDecision::AcceptH1,
        ),
        (
            fake("junk", "garbage", &[]),
            good("g"),
            SprtDecision::AcceptH0,
        ),
    ] {
        let mut cfg = tournament(vec![first, second], 1000, 2);
        cfg.sprt = Some(sprt);
        let summary = run(&cfg).unwrap();
        let status = summary.sprt.unwrap();
        assert_eq!(status.decision, want, "{}", status.describe());
        assert!(summary.stopped_early);
        assert!(
            summary.records.len() < 200,
            "{} games",
            summary.records.len()
        );
    }
}

/// A minimal SGF collection reader: games → nodes → (property, first value).
fn parse_sgf(text: &str) -> Vec<Vec<Vec<(String, String)>>> {
    let mut games = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            None => break,
            Some('(') => {}
            Some(c) => panic!("expected '(' got {c:?}"),
        }
        let mut nodes = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.next().expect("unterminated game") {
                ')' => break,
                ';' => nodes.push(Vec::new()),
                c if c.is_ascii_uppercase() => {
                    let mut id = c.to_string();
                    while chars.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                        id.push(chars.next().unwrap());
                    }
                    let mut first = None;
                    while chars.peek() == Some(&'[') {
                        chars.next();
                        let mut v = String::new();
                        loop {
                            match chars.next().expect("unterminated value") {
                                '\\' => v.push(chars.next().unwrap()),
                                ']' => break,
                                c => v.push(c),
                            }
                        }
                        first.get_or_insert(v);
                    }
                    let node: &mut Vec<_> = nodes.last_mut().expect("property outside a node");
                    node.push((id, first.expect("property without value")));
                }
                c => panic!("unexpected {c:?}"),
            }
        }
        games.push(nodes);
    }
    games
}

#[test]
fn smoke_match_writes_sgf_psq_and_pgn() {
    let dir = temp_dir("smoke");
    let out = dir.join("out");
    let status = Command::new(MATCH)
        .args([
            "-e",
            &format!("cmd={FAKE}"),
            "name=alpha",
            "arg=--behaviour",
            "arg=good",
        ])
        .args([
            "-e",
            &format!("cmd={FAKE}"),
            "name=beta",
            "arg=--behaviour",
            "arg=good",
        ])
        .args([
            "--games",
            "4",
            "--move-time",
            "1s",
            "--tolerance",
            "300ms",
            "-c",
            "2",
            "--logs",
            "-q",
        ])
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(
        status.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(stdout.contains("Games: 4 of 4"), "{stdout}");
    assert!(stdout.contains("alpha vs beta"), "{stdout}");

    let sgf = std::fs::read_to_string(out.join("games.sgf")).unwrap();
    let games = parse_sgf(&sgf);
    assert_eq!(games.len(), 4);
    for g in &games {
        let root = &g[0];
        let prop = |id: &str| root.iter().find(|(i, _)| i == id).map(|(_, v)| v.as_str());
        assert_eq!(prop("GM"), Some("4"));
        assert_eq!(prop("SZ"), Some("15"));
        let re = prop("RE").unwrap();
        assert!(re == "0" || re == "B+" || re == "W+", "{re}");
        // Moves alternate and never repeat a point.
        let mut seen = std::collections::HashSet::new();
        for (i, node) in g[1..].iter().enumerate() {
            let (id, v) = &node[0];
            assert_eq!(id, if i % 2 == 0 { "B" } else { "W" });
            assert!(seen.insert(v.clone()), "point {v} twice");
        }
        assert!(g.len() > 9, "a five needs at least nine stones");
    }
    let psq: Vec<_> = std::fs::read_dir(out.join("psq")).unwrap().collect();
    assert_eq!(psq.len(), 4);
    for f in psq {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        assert!(text.starts_with("Piskvorky 15x15, "), "{text}");
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result \"").count(), 4);
    assert_eq!(std::fs::read_dir(out.join("logs")).unwrap().count(), 4);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn clear_errors_and_exit_codes() {
    let dir = temp_dir("errors");
    let run = |args: &[&str]| {
        let o = Command::new(MATCH).args(args).arg("-q").output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let good = format!("cmd={FAKE}");
    // No such engine.
    let (code, err) = run(&["-e", "/no/such/pbrain", "-e", &good]);
    assert_eq!(code, Some(2));
    assert!(err.contains("/no/such/pbrain does not exist"), "{err}");
    // An engine that cannot be started (not executable).
    let text = dir.join("not-an-engine.txt");
    std::fs::write(&text, "hello").unwrap();
    let (code, err) = run(&[
        "-e",
        &format!("cmd={}", text.display()),
        "name=x",
        "-e",
        &good,
        "--move-time",
        "1s",
    ]);
    assert_eq!(code, Some(1));
    assert!(err.contains("cannot start engine \"x\""), "{err}");
    // A malformed opening line is named.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "0,0, 1,1\n0,0, 1\n").unwrap();
    let (code, err) = run(&[
        "-e",
        &good,
        "-e",
        &good,
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("openings.txt:2:"), "{err}");
    // Conflicting options.
    let (code, err) = run(&["-e", &good, "-e", &good, "-e", &good, "--sprt"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--sprt needs a match"), "{err}");
    let (code, _) = run(&["-e", &good, "-e", &good, "--rounds", "1", "--games", "2"]);
    assert_eq!(code, Some(2));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn engine_that_never_starts_stops_the_run_with_an_error() {
    let t0 = Instant::now();
    let cfg = tournament(vec![good("g"), fake("no", "refuse", &[])], 10, 1);
    let e = run(&cfg).unwrap_err().to_string();
    assert!(
        e.contains("engine \"no\" failed to start in 3 games in a row"),
        "{e}"
    );
    assert!(e.contains("refused to start"), "{e}");
    // An executable that exits at once, through the command line: exit code 1.
    let o = Command::new(MATCH)
        .args([
            "-e",
            &format!("cmd={FAKE}"),
            "-e",
            "cmd=/bin/true",
            "name=quitter",
            "--games",
            "10",
            "-q",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("\"quitter\" failed to start"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(10));
}
