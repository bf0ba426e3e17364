//! The tactical suite: every case in `tests/tactics/*.txt` (format in
//! `tests/tactics/README.md`) is searched for one second on one thread and the
//! answer checked; cases marked `# vcf: yes` also go to the VCF solver directly.
//!
//! All failures are reported (id, diagram with the answer, what was expected)
//! before the test fails. `TACTICS_FILTER=text` runs only the cases whose id
//! contains `text`; `TACTICS_VERBOSE=1` prints every case's result.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tianyuan::game::{Board, Color, Pos, Rule};
use tianyuan::search::tt::WIN_BOUND;
use tianyuan::search::vcf::VcfSolver;
use tianyuan::search::{Limits, Searcher};

/// Time per case, as the suite promises.
const MOVE_TIME: Duration = Duration::from_millis(1000);
/// Transposition table per search.
const HASH_BYTES: usize = 16 << 20;
/// Node budget and depth (own fours) for the direct VCF check.
const VCF_NODES: u64 = 2_000_000;
const VCF_DEPTH: u8 = 60;

/// What the answer must be.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    /// One of these marks.
    AnyOf(Vec<char>),
    /// None of these marks.
    NoneOf(Vec<char>),
}

/// One parsed case.
#[derive(Clone, Debug)]
struct Case {
    id: String,
    file: String,
    line: usize,
    rule: Rule,
    to_move: Color,
    expect: Expect,
    /// `Some(true)`: the score must be a proven win; `Some(false)`: it must not be.
    expect_win: Option<bool>,
    /// `Some(true)`: the VCF solver must find a win starting on an acceptable
    /// point; `Some(false)`: it must find none.
    vcf: Option<bool>,
    diagram: String,
}

fn parse_marks(list: &str) -> Vec<char> {
    list.split_whitespace()
        .flat_map(|w| w.chars())
        .filter(|c| *c != ',')
        .collect()
}

fn parse_color(v: &str) -> Result<Color, String> {
    match v {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        _ => Err(format!("to-move must be black or white, not {v:?}")),
    }
}

fn parse_yes_no(v: &str) -> Result<bool, String> {
    match v {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("expected yes or no, not {v:?}")),
    }
}

/// Parses one block of lines (a case, or a comment block without `id`).
fn parse_block(file: &str, first_line: usize, lines: &[&str]) -> Result<Option<Case>, String> {
    let mut fields: BTreeMap<&str, String> = BTreeMap::new();
    let mut diagram = String::new();
    for raw in lines {
        let t = raw.trim();
        if let Some(h) = t.strip_prefix('#') {
            if !diagram.is_empty() {
                return Err("header line after the diagram".into());
            }
            let Some((k, v)) = h.split_once(':') else {
                continue; // a plain comment
            };
            let k = k.trim();
            let v = v.trim();
            match k {
                "id" | "rule" | "to-move" | "expect" | "expect-win" | "vcf" => {
                    if fields.insert(k, v.to_string()).is_some() {
                        return Err(format!("duplicate header {k}"));
                    }
                }
                "note" | "line" | "why" => {}
                _ => return Err(format!("unknown header {k:?}")),
            }
        } else {
            diagram.push_str(raw);
            diagram.push('\n');
        }
    }
    let Some(id) = fields.get("id").cloned() else {
        if diagram.trim().is_empty() {
            return Ok(None); // a comment block
        }
        return Err("a diagram without `# id:`".into());
    };
    let get = |k: &str| {
        fields
            .get(k)
            .cloned()
            .ok_or_else(|| format!("{id}: missing `# {k}:`"))
    };
    let rule_name = get("rule")?;
    let rule = Rule::from_name(&rule_name).ok_or_else(|| format!("{id}: unknown rule"))?;
    let to_move = parse_color(&get("to-move")?).map_err(|e| format!("{id}: {e}"))?;
    let expect_text = get("expect")?;
    let expect = if let Some(rest) = expect_text.strip_prefix("any-of") {
        Expect::AnyOf(parse_marks(rest))
    } else if let Some(rest) = expect_text.strip_prefix("none-of") {
        Expect::NoneOf(parse_marks(rest))
    } else {
        return Err(format!("{id}: expect must be any-of or none-of"));
    };
    let expect_win = fields
        .get("expect-win")
        .map(|v| parse_yes_no(v))
        .transpose()
        .map_err(|e| format!("{id}: {e}"))?;
    let vcf = fields
        .get("vcf")
        .map(|v| parse_yes_no(v))
        .transpose()
        .map_err(|e| format!("{id}: {e}"))?;
    if diagram.trim().is_empty() {
        return Err(format!("{id}: no diagram"));
    }
    Ok(Some(Case {
        id,
        file: file.to_string(),
        line: first_line,
        rule,
        to_move,
        expect,
        expect_win,
        vcf,
        diagram,
    }))
}

/// Reads every case of one file; cases are separated by blank lines.
fn parse_file(path: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut cases = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    let mut start = 1;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            if !block.is_empty() {
                if let Some(c) =
                    parse_block(&name, start, &block).map_err(|e| format!("{name}:{start}: {e}"))?
                {
                    cases.push(c);
                }
                block.clear();
            }
            continue;
        }
        if block.is_empty() {
            start = i + 1;
        }
        block.push(line);
    }
    if !block.is_empty()
        && let Some(c) =
            parse_block(&name, start, &block).map_err(|e| format!("{name}:{start}: {e}"))?
    {
        cases.push(c);
    }
    Ok(cases)
}

fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tactics");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

fn load_all() -> Vec<Case> {
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for f in case_files() {
        match parse_file(&f) {
            Ok(c) => all.extend(c),
            Err(e) => errors.push(e),
        }
    }
    let mut seen = std::collections::HashSet::new();
    for c in &all {
        if !seen.insert(c.id.clone()) {
            errors.push(format!("duplicate id {}", c.id));
        }
    }
    assert!(errors.is_empty(), "bad case files:\n{}", errors.join("\n"));
    all
}

/// A prepared case: its board and the points its expectation names.
struct Prepared {
    board: Board,
    marks: Vec<(Pos, char)>,
    /// Points the answer must be one of (`AnyOf`) or must avoid (`NoneOf`).
    points: Vec<Pos>,
}

fn prepare(c: &Case) -> Result<Prepared, String> {
    let (board, marks) = Board::from_diagram(&c.diagram, c.rule)?;
    let (nb, nw) = (board.count(Color::Black), board.count(Color::White));
    if nb != nw && nb != nw + 1 {
        // The board derives the side to move from the counts at every move, so
        // any other difference would let one side move twice in the search.
        return Err(format!(
            "{nb} black and {nw} white stones: black needs as many stones as white \
             (black to move) or one more (white to move)"
        ));
    }
    if board.side_to_move() != c.to_move {
        return Err(format!(
            "the stone counts give {:?} to move, the header says {:?}",
            board.side_to_move(),
            c.to_move
        ));
    }
    let wanted = match &c.expect {
        Expect::AnyOf(m) | Expect::NoneOf(m) => m,
    };
    let mut points = Vec::new();
    for &m in wanted {
        let n = marks.iter().filter(|(_, c)| *c == m).count();
        if n == 0 {
            return Err(format!("mark {m:?} is not on the diagram"));
        }
        points.extend(marks.iter().filter(|(_, c)| *c == m).map(|(p, _)| *p));
    }
    if wanted.is_empty() {
        // `any-of` with no list: every marked point.
        points.extend(marks.iter().map(|(p, _)| *p));
    }
    if points.is_empty() {
        return Err("no acceptable or avoided point".into());
    }
    Ok(Prepared {
        board,
        marks,
        points,
    })
}

fn rif(b: &Board, p: Pos) -> String {
    tianyuan::game::notation::to_rif(p, b.height())
}

fn accepts(c: &Case, prep: &Prepared, p: Pos) -> bool {
    match c.expect {
        Expect::AnyOf(_) => prep.points.contains(&p),
        Expect::NoneOf(_) => !prep.points.contains(&p),
    }
}

/// Runs one case; returns the failure text, if any, and a short result line.
fn run_case(c: &Case, searcher: &Searcher) -> (Option<String>, String) {
    let prep = match prepare(c) {
        Ok(p) => p,
        Err(e) => {
            return (
                Some(format!("{} ({}:{}): bad case: {e}", c.id, c.file, c.line)),
                String::new(),
            );
        }
    };
    let b = &prep.board;
    let mut problems = Vec::new();
    searcher.clear_hash();
    let start = Instant::now();
    let outcome = searcher.search(b, &Limits::time(MOVE_TIME), &mut |_| {});
    let elapsed = start.elapsed();
    let mut answer = None;
    let mut summary = String::new();
    match &outcome {
        None => problems.push("the searcher returned no move".to_string()),
        Some(o) => {
            answer = Some(o.best);
            let _ = write!(
                summary,
                "{} score {} depth {} {:.0?} pv {}",
                rif(b, o.best),
                o.score,
                o.depth,
                elapsed,
                o.pv.iter()
                    .map(|&p| rif(b, p))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            if !accepts(c, &prep, o.best) {
                problems.push(format!("answer {} is not acceptable", rif(b, o.best)));
            }
            match c.expect_win {
                Some(true) if o.score < WIN_BOUND => {
                    problems.push(format!("score {} is not a proven win", o.score))
                }
                Some(false) if o.score >= WIN_BOUND => problems.push(format!(
                    "score {} claims a win that does not exist",
                    o.score
                )),
                _ => {}
            }
            if elapsed > MOVE_TIME + Duration::from_millis(250) {
                problems.push(format!("took {elapsed:.0?}"));
            }
        }
    }
    if let Some(want) = c.vcf {
        let mut vb = b.clone();
        let line = VcfSolver::new(VCF_NODES, None).solve(&mut vb, VCF_DEPTH);
        match (&line, want) {
            (Some(l), true) => {
                let _ = write!(summary, " | vcf {} plies", l.len());
                if !accepts(c, &prep, l[0]) {
                    problems.push(format!(
                        "VCF solver starts with {}, not an acceptable point (line {})",
                        rif(b, l[0]),
                        l.iter().map(|&p| rif(b, p)).collect::<Vec<_>>().join(" ")
                    ));
                }
            }
            (None, true) => problems.push("VCF solver finds no win".to_string()),
            (Some(l), false) => problems.push(format!(
                "VCF solver claims a win that does not exist: {}",
                l.iter().map(|&p| rif(b, p)).collect::<Vec<_>>().join(" ")
            )),
            (None, false) => {}
        }
    }
    if problems.is_empty() {
        return (None, summary);
    }
    let mut marks = prep.marks.clone();
    if let Some(a) = answer {
        marks.retain(|(p, _)| *p != a);
        marks.push((a, '@'));
    }
    let points: Vec<String> = prep.points.iter().map(|&p| rif(b, p)).collect();
    let expect = match &c.expect {
        Expect::AnyOf(_) => format!("any of {}", points.join(" ")),
        Expect::NoneOf(_) => format!("none of {}", points.join(" ")),
    };
    let text = format!(
        "FAIL {} ({}:{}, {}, {:?} to move, expect {}{})\n  {}\n  engine: {}\n{}",
        c.id,
        c.file,
        c.line,
        c.rule,
        c.to_move,
        expect,
        match c.expect_win {
            Some(true) => ", a proven win",
            Some(false) => ", no proven win",
            None => "",
        },
        problems.join("; "),
        summary,
        b.diagram_marked(&marks)
    );
    (Some(text), summary)
}

#[test]
fn tactical_suite() {
    let mut cases = load_all();
    let filter = std::env::var("TACTICS_FILTER").ok();
    let verbose = std::env::var_os("TACTICS_VERBOSE").is_some();
    if let Some(f) = &filter {
        cases.retain(|c| c.id.contains(f.as_str()));
    }
    let searcher = Searcher::new(HASH_BYTES, 1);
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut per_file: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut per_rule: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for c in &cases {
        let t = Instant::now();
        let (fail, summary) = run_case(c, &searcher);
        let ok = fail.is_none();
        if verbose {
            println!(
                "{} {:<28} {:>6.0?}  {}",
                if ok { "ok  " } else { "FAIL" },
                c.id,
                t.elapsed(),
                summary
            );
        }
        for (key, map) in [
            (c.file.clone(), &mut per_file),
            (c.rule.to_string(), &mut per_rule),
        ] {
            let e = map.entry(key).or_insert((0, 0));
            e.0 += ok as usize;
            e.1 += 1;
        }
        if let Some(f) = fail {
            failures.push(f);
        }
    }
    let total = start.elapsed();
    for f in &failures {
        println!("{f}");
    }
    println!("per theme:");
    for (k, (ok, n)) in &per_file {
        println!("  {k:<32} {ok:>3} of {n:>3}");
    }
    println!("per rule:");
    for (k, (ok, n)) in &per_rule {
        println!("  {k:<32} {ok:>3} of {n:>3}");
    }
    println!(
        "tactics: solved {} of {} in {:.1?}",
        cases.len() - failures.len(),
        cases.len(),
        total
    );
    if filter.is_none() {
        assert!(
            cases.len() >= 150,
            "the suite should hold at least 150 cases, not {}",
            cases.len()
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} tactical cases fail (listed above): {}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .map(|f| f.lines().next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join(" | ")
    );
}

/// The files parse and every case is well formed (cheap; runs without searching).
#[test]
fn case_files_are_well_formed() {
    let cases = load_all();
    let mut errors = Vec::new();
    for c in &cases {
        if let Err(e) = prepare(c) {
            errors.push(format!("{} ({}:{}): {e}", c.id, c.file, c.line));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
