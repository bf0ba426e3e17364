//! Search: transposition table, move generation, threat solver, PVS, threads, time, bench.
//!
//! [`Searcher`] owns the shared transposition table and runs a Lazy SMP search:
//! every thread searches the same root with its own board copy, sharing
//! results only through the table; thread 0 keeps time and reports progress.

pub mod balance;
pub mod bench;
pub mod defend;
pub mod movegen;
pub mod pvs;
pub mod tablefile;
pub mod threats;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::eval::{Score, move_score};
use crate::game::{Board, Pos, Threat};
use movegen::{MoveList, NodeKind, generate, node_kind};
use pvs::{Worker, is_decisive};
use tt::TranspositionTable;

/// Node budget of the VCF search run before the main search.
pub const VCF_ROOT_NODES: u64 = 300_000;

/// Node budget of the VCT search run before the main search. Of the
/// forced-win suites' positions the solver alone proves 22 of 76 (Renju) and
/// 27 of 78 (freestyle) with 400 k nodes and 11 threats, 33 and 31 with 2 M
/// nodes and 15 threats (docs/strength.md).
pub const VCT_ROOT_NODES: u64 = 2_000_000;
/// The root VCT search may use this part of the soft limit: a quarter
/// (under a game clock the hard limit may be several times the time
/// planned for a move; with only a limit per move the soft limit is 90 %
/// of it). Against a tenth of the hard limit and 400 k nodes, self-play at
/// 250 ms/move: Renju +31 (49-40-11) and +35 (52-42-6); freestyle +24
/// (51-44-5) and +10 (49-46-5) (docs/strength.md).
pub const VCT_ROOT_DIVISOR: u32 = 4;
/// Threes and fours the root VCT search may play.
pub const VCT_ROOT_DEPTH: u8 = 11;

/// Balance mode on an empty board: the first stone may go this far (in x and
/// in y) from the centre.
const BALANCE_FIRST_STONE_REACH: usize = 3;

/// The score of a five made at the root (wins found deeper score less).
pub const WIN: Score = 30_000;

/// How long and how deep to search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The time: no new iteration after its (stability-scaled) soft limit,
    /// stop at once at its hard limit. With `use_all` (only a per-move
    /// limit, or byoyomi: time saved now has no later use) iterations start
    /// until `soft`; otherwise (a game clock) `soft` is scaled by how stable
    /// the root's best move is (see [`time::Stability`]) and no iteration
    /// starts that would likely not finish before `hard` (see
    /// [`time::Budget::can_start_iteration`]).
    pub time: time::Budget,
    /// Deepest iteration.
    pub max_depth: i32,
    /// Stop after about this many nodes (the threat solvers' included).
    pub max_nodes: u64,
    /// Root moves not to consider (for n-best analysis).
    pub exclude: Vec<Pos>,
    /// Balance mode (Yixin-Board's `YXBALANCEONE`): instead of the best move,
    /// the move after which the mover's score is nearest this value (each
    /// root move scores `bias - |score - bias|`). No solvers, no shortcuts.
    pub balance: Option<Score>,
}

impl Limits {
    /// Search to `depth` with no time or node limit.
    pub fn depth(depth: i32) -> Limits {
        Limits {
            time: time::Budget::UNLIMITED,
            max_depth: depth,
            max_nodes: u64::MAX,
            exclude: Vec::new(),
            balance: None,
        }
    }

    /// The hard limit, capped at an hour so fractions of it make deadlines.
    pub fn hard_capped(&self) -> Duration {
        self.time.hard.min(Duration::from_secs(3600))
    }

    /// Search for at most `time` (soft target = hard limit).
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: time::Budget::fixed(time),
            max_depth: pvs::MAX_PLY as i32 - 8,
            max_nodes: u64::MAX,
            exclude: Vec::new(),
            balance: None,
        }
    }
}

/// Progress of the search after a completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth completed.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Pos>,
}

/// What the search tells its caller while it runs (thread 0 only).
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// An iteration completed (or one cut short by the clock found a
    /// checked better move): the answer so far.
    Iteration(&'a Info),
    /// A step of the root move loop, for GUIs that mark the move being
    /// searched (Yixin-Board's `MESSAGE REALTIME POS/DONE/LOST/BEST`).
    RootMove(RootMove),
}

/// One root move's step in an iteration of thread 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// Nominal depth of the iteration.
    pub depth: i32,
    /// The root move.
    pub mv: Pos,
    /// What happened to it.
    pub event: RootEvent,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// What happened to a root move ([`RootMove`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvent {
    /// Its search starts.
    Entered,
    /// Its search ended (whatever the score, or cut short by a stop).
    Left,
    /// The opponent wins by force after it: proven by the search, or by the
    /// check of the opponent's VCF/VCT after a new best move.
    Lost,
    /// It replaced the iteration's first move (the last one's best) as the
    /// best so far.
    NewBest,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let us = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / us
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play.
    pub best: Pos,
    /// Its score from the side to move's view.
    pub score: Score,
    /// Depth of the last completed iteration, or of the iteration cut short
    /// by the clock whose better move was taken (0 if decided without search).
    pub depth: i32,
    /// Nodes searched, all threads (exact).
    pub nodes: u64,
    /// The principal variation (starts with `best`).
    pub pv: Vec<Pos>,
    /// Time taken.
    pub elapsed: Duration,
}

/// State shared by the threads of one search.
pub struct Shared {
    tt: Arc<TranspositionTable>,
    stop: AtomicBool,
    external_stop: Arc<AtomicBool>,
    nodes: AtomicU64,
    start: Instant,
    hard: Duration,
    max_nodes: u64,
}

impl Shared {
    /// Called by thread 0 every few hundred nodes: stops on time, nodes or request.
    fn check_limits(&self) {
        if self.external_stop.load(Ordering::Relaxed)
            || self.start.elapsed() >= self.hard
            || self.nodes.load(Ordering::Relaxed) >= self.max_nodes
        {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
impl Shared {
    /// For tests of one worker: a 1 MiB table, no node limit, ten minutes.
    pub(crate) fn for_tests() -> Shared {
        Shared {
            tt: Arc::new(TranspositionTable::new(1 << 20)),
            stop: AtomicBool::new(false),
            external_stop: Arc::new(AtomicBool::new(false)),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            hard: Duration::from_secs(600),
            max_nodes: u64::MAX,
        }
    }
}

/// The search engine: a transposition table and a thread count.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    /// The table size last asked for (as [`TranspositionTable::bytes_for`]
    /// gives it); the table may be smaller if the memory was not there.
    hash_asked: usize,
    threads: usize,
    /// Set from outside (e.g. by the protocol reader) to stop the current search.
    pub stop: Arc<AtomicBool>,
}

impl Searcher {
    /// A searcher with a table of at most `hash_bytes` and `threads` threads.
    pub fn new(hash_bytes: usize, threads: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_bytes)),
            hash_asked: TranspositionTable::bytes_for(hash_bytes),
            threads: threads.max(1),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Replaces the table by one of at most `hash_bytes` (contents are lost)
    /// unless that size was asked for last time too (then the table stays,
    /// even if it came out smaller for want of memory).
    pub fn set_hash_bytes(&mut self, hash_bytes: usize) {
        let asked = TranspositionTable::bytes_for(hash_bytes);
        if asked != self.hash_asked {
            self.tt = Arc::new(TranspositionTable::new(0)); // free the old table first
            self.tt = Arc::new(TranspositionTable::new(hash_bytes));
            self.hash_asked = asked;
        }
    }

    /// Bytes used by the table.
    pub fn hash_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Empties the transposition table.
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// Saves the transposition table to `path` for the game `key` (see
    /// [`tablefile`]); returns the number of entries saved.
    ///
    /// # Errors
    ///
    /// When the file cannot be written.
    pub fn save_hash(
        &self,
        path: &std::path::Path,
        key: tablefile::TableKey,
    ) -> anyhow::Result<u64> {
        tablefile::save(&self.tt, path, key)
    }

    /// Adds the entries saved in `path` for the game `key` to the table;
    /// returns their number.
    ///
    /// # Errors
    ///
    /// When the file cannot be read, is not a table file, or belongs to another game.
    pub fn load_hash(
        &self,
        path: &std::path::Path,
        key: tablefile::TableKey,
    ) -> anyhow::Result<u64> {
        tablefile::load(&self.tt, path, key)
    }

    /// Finds a move for the side to move. `None` only when the board is full
    /// (or every sensible move is in `limits.exclude`).
    /// `on_progress` hears of every completed iteration of thread 0 and of
    /// each step of its root move loop ([`Progress`]).
    /// Thread 0 first runs the root VCF/VCT solvers; helper threads (if any)
    /// start searching at once and fill the shared table meanwhile.
    pub fn search(
        &self,
        board: &Board,
        limits: &Limits,
        on_progress: &mut dyn FnMut(Progress),
    ) -> Option<Outcome> {
        let start = Instant::now();
        let mut b = board.clone();
        if b.is_full() {
            return None;
        }
        let last = b.last_move().map(|m| m.0);
        let kind = node_kind(&mut b, last);
        let excluded = |p: Pos| limits.exclude.contains(&p);
        // An answer without the main search: a line, its score, solver nodes.
        let won = |(line, score): (Vec<Pos>, Score), nodes: u64| Outcome {
            best: line[0],
            score,
            depth: 0,
            nodes,
            pv: line,
            elapsed: start.elapsed(),
        };
        let decided = |best: Pos, score: Score| won((vec![best], score), 0);
        let balance = limits.balance.is_some();
        match kind {
            // Balance mode weighs every move, the win and the forced block too.
            NodeKind::WinNow(_)
            | NodeKind::WinIn3(_)
            | NodeKind::WinIn5(_)
            | NodeKind::Forced(_)
                if balance => {}
            NodeKind::WinNow(p)
            | NodeKind::WinIn3(p)
            | NodeKind::WinIn5(p)
            | NodeKind::Forced(p)
                if excluded(p) => {}
            NodeKind::WinNow(p) => return Some(decided(p, WIN - 1)),
            NodeKind::WinIn3(p) => return Some(decided(p, WIN - 3)),
            NodeKind::WinIn5(p) => return Some(decided(p, WIN - 5)),
            // The block may itself start a win (e.g. catching a forbidden point).
            NodeKind::Forced(p) => {
                let (found, nodes) = self.root_win(&mut b, limits, start, false);
                return Some(won(found.unwrap_or((vec![p], 0)), nodes));
            }
            NodeKind::Lost => {
                // Block one five point if we can, else anything legal.
                let me = b.side_to_move();
                let block = threats::five_point(&b, me.opponent(), last);
                let p = block
                    .filter(|&p| threats::legal_for(&mut b, p, me))
                    .or_else(|| any_move(&mut b));
                return p.map(|p| decided(p, -WIN + 2));
            }
            _ => {}
        }
        let mut moves = MoveList::new();
        generate(&mut b, kind, &mut moves);
        if balance && b.stone_count() == 0 {
            // On an empty board the move generator offers only the centre,
            // the least balanced first stone: balance weighs the points
            // around it too.
            let c = b.center();
            moves.clear();
            for p in b.points() {
                if p.king_distance(c) <= BALANCE_FIRST_STONE_REACH {
                    moves.push((p, 0));
                }
            }
        }
        moves.retain(|m| !excluded(m.0));
        let me = b.side_to_move();
        // With points excluded the five found above may be one of them; the
        // tree never makes a five (its nodes stop at the five point), so
        // another five among the moves left is answered here.
        if !balance && let Some(&(p, _)) = moves.iter().find(|m| b.threat(m.0, me) == Threat::Five)
        {
            return Some(decided(p, WIN - 1));
        }
        for m in moves.iter_mut() {
            m.1 = move_score(&b, m.0, me);
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        // With helper threads and a choice to make, the helpers search while
        // this thread runs the root solvers (below); else the solvers first.
        let solvers = limits.exclude.is_empty() && !balance;
        let overlap = solvers && self.threads > 1 && moves.len() > 1;
        // Nodes of the root solvers, counted with the search's.
        let mut solver_nodes = 0;
        if solvers && !overlap {
            let (found, nodes) = self.root_win(&mut b, limits, start, true);
            if let Some(f) = found {
                return Some(won(f, nodes));
            }
            solver_nodes = nodes;
        }
        if moves.is_empty() && !limits.exclude.is_empty() {
            return None;
        }
        if moves.is_empty() {
            // Every legal point is forbidden (or none defends): play anything.
            return any_move(&mut b).map(|p| decided(p, -WIN + 2));
        }
        if moves.len() == 1 {
            return Some(decided(moves[0].0, 0));
        }
        self.tt.new_search();
        let shared = Shared {
            tt: self.tt.clone(),
            stop: AtomicBool::new(false),
            external_stop: self.stop.clone(),
            // The root solvers' nodes count towards the node limit.
            nodes: AtomicU64::new(solver_nodes),
            start,
            hard: limits.time.hard,
            max_nodes: limits.max_nodes,
        };
        let root_moves: Vec<(Pos, i32)> = moves.to_vec();
        let mut result = decided(root_moves[0].0, 0);
        let total_nodes = AtomicU64::new(solver_nodes);
        std::thread::scope(|scope| {
            for id in 1..self.threads {
                let (shared, b, rm, total) = (&shared, b.clone(), root_moves.clone(), &total_nodes);
                scope.spawn(move || {
                    let mut w = Worker::new(b, shared, id);
                    iterate(&mut w, rm, limits, &mut |_| {}, &mut None);
                    total.fetch_add(w.nodes, Ordering::Relaxed);
                });
            }
            if overlap {
                let (found, nodes) = self.root_win(&mut b, limits, start, true);
                shared.nodes.fetch_add(nodes, Ordering::Relaxed);
                total_nodes.fetch_add(nodes, Ordering::Relaxed);
                if let Some(f) = found {
                    shared.stop.store(true, Ordering::Relaxed);
                    result = won(f, 0);
                    return;
                }
            }
            let mut w = Worker::new(b.clone(), &shared, 0);
            let mut best = None;
            iterate(&mut w, root_moves.clone(), limits, on_progress, &mut best);
            shared.stop.store(true, Ordering::Relaxed);
            total_nodes.fetch_add(w.nodes + w.solver_nodes, Ordering::Relaxed);
            if let Some(o) = best {
                result = o;
            }
        });
        result.nodes = total_nodes.load(Ordering::Relaxed);
        result.elapsed = start.elapsed();
        Some(result)
    }

    /// Looks for a forced win before the main search: continuous fours (VCF)
    /// within a fifth of the hard limit from `start`, then, with `with_vct`,
    /// threes and fours (VCT) within a quarter of the soft limit from now
    /// ([`VCT_ROOT_DIVISOR`]). Returns the winning line (for a VCT only its
    /// first move) with its score, and the solver nodes spent, found or not.
    fn root_win(
        &self,
        b: &mut Board,
        limits: &Limits,
        start: Instant,
        with_vct: bool,
    ) -> (Option<(Vec<Pos>, Score)>, u64) {
        let vcf_deadline = start + limits.hard_capped() / 5;
        // A node limit bounds the solvers too.
        let vcf_nodes = VCF_ROOT_NODES.min(limits.max_nodes);
        let mut vcf = vcf::VcfSolver::new(vcf_nodes, Some(&self.stop)).with_deadline(vcf_deadline);
        if let Some(line) = vcf.solve(b, 40) {
            let score = WIN - line.len() as Score;
            return (Some((line, score)), vcf.nodes);
        }
        if !with_vct {
            return (None, vcf.nodes);
        }
        // A part of the soft limit: under a game clock the hard limit may be
        // several times the time planned for the move.
        let time = limits.time.soft.min(limits.hard_capped()) / VCT_ROOT_DIVISOR;
        let vct_deadline = Instant::now() + time;
        let vct_nodes = VCT_ROOT_NODES.min(limits.max_nodes.saturating_sub(vcf.nodes));
        let mut vct = vct::VctSolver::new(vct_nodes, Some(&self.stop), Some(vct_deadline));
        let found = vct
            .solve_deepening(b, VCT_ROOT_DEPTH)
            .map(|p| (vec![p], WIN - 2 * VCT_ROOT_DEPTH as Score - 1));
        (found, vcf.nodes + vct.nodes)
    }
}

/// Any empty point (used only when nothing legal or sensible exists).
fn any_move(b: &mut Board) -> Option<Pos> {
    let me = b.side_to_move();
    let cands = b.candidates();
    let all: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
    cands
        .iter()
        .chain(all.iter())
        .copied()
        .find(|&p| threats::legal_for(b, p, me))
        .or_else(|| all.first().copied())
}

/// Iterative deepening for one worker. Thread 0 reports and records `best`.
fn iterate(
    w: &mut Worker,
    mut moves: Vec<(Pos, i32)>,
    limits: &Limits,
    on_progress: &mut dyn FnMut(Progress),
    best: &mut Option<Outcome>,
) {
    let shared = w.shared_ref();
    w.balance = limits.balance;
    let mut prev_score = 0;
    let start_depth = 1 + (w.id % 2) as i32;
    let mut verified: Vec<Pos> = Vec::new();
    let mut refutations = 0;
    let mut depth = start_depth;
    // Thread 0's clock: the time budget, how stable the best move is, and
    // when the current iteration started (for the prediction of the next
    // one's cost).
    let budget = limits.time;
    let mut stability = time::Stability::new();
    let mut last_best: Option<Pos> = None;
    let mut iteration_start = shared.start.elapsed();
    while depth <= limits.max_depth.max(1) {
        w.seldepth = 0;
        let (mut alpha, mut beta) = (-WIN - 1, WIN + 1);
        let mut delta = ASPIRATION_DELTA;
        if depth >= 5 && !is_decisive(prev_score) && w.balance.is_none() {
            alpha = prev_score - delta;
            beta = prev_score + delta;
        }
        let (mv, score) = loop {
            let (mv, score) = if w.id == 0 {
                w.search_root(&mut moves, depth, alpha, beta, &mut |r| {
                    on_progress(Progress::RootMove(r))
                })
            } else {
                w.search_root(&mut moves, depth, alpha, beta, &mut |_| {})
            };
            if w.aborted {
                break (mv, score);
            }
            if score <= alpha && alpha > -WIN - 1 {
                alpha = (alpha - delta).max(-WIN - 1);
                delta *= 3;
            } else if score >= beta && beta < WIN + 1 {
                beta = (beta + delta).min(WIN + 1);
                delta *= 3;
            } else {
                break (mv, score);
            }
        };
        if w.aborted {
            if w.id == 0 {
                partial_result(w, (depth, mv, score), &verified, on_progress, best);
            }
            break;
        }
        if w.id == 0
            && w.balance.is_none()
            && !verified.contains(&mv)
            && score < tt::WIN_BOUND
            && moves.len() > 1
            && refutations < MAX_REFUTATIONS
        {
            // Each check may use a part of the hard limit, and never passes it.
            let deadline = (Instant::now() + limits.hard_capped() / REFUTE_TIME_DIVISOR)
                .min(shared.start + limits.hard_capped());
            let budget = limits.max_nodes.saturating_sub(w.nodes_so_far());
            // The caller's stop flag: the search's own is raised only by
            // `check_limits`, which no node calls while the check runs.
            let (lost, nodes) = refuted(&mut w.board, mv, &shared.external_stop, deadline, budget);
            shared.nodes.fetch_add(nodes, Ordering::Relaxed);
            w.solver_nodes += nodes;
            if lost {
                // The opponent wins by force after this move: drop it, search again.
                on_progress(Progress::RootMove(RootMove {
                    depth,
                    mv,
                    event: RootEvent::Lost,
                    elapsed: shared.start.elapsed(),
                }));
                moves.retain(|m| m.0 != mv);
                refutations += 1;
                continue;
            }
            verified.push(mv);
        }
        prev_score = score;
        if w.id == 0 {
            record(w, (depth, mv, score), on_progress, best);
            if is_decisive(score) && depth >= 4 {
                break;
            }
            let now = shared.start.elapsed();
            stability.record(last_best.is_some_and(|b| b != mv));
            last_best = Some(mv);
            if !budget.can_start_iteration(now, stability.factor(), now - iteration_start) {
                break;
            }
            iteration_start = now;
        }
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        depth += 1;
    }
}

/// After an iteration cut short by the clock: if it found a move that beats
/// the last completed iteration's best within the window (its search done to
/// the end, so its score holds at this `depth`) and that move passed the check
/// for an opponent's VCF/VCT at an earlier depth, it becomes the answer. The
/// deeper search has seen that the old best is worse; the time was spent on it.
fn partial_result(
    w: &Worker,
    (depth, mv, score): (i32, Pos, Score),
    verified: &[Pos],
    on_progress: &mut dyn FnMut(Progress),
    best: &mut Option<Outcome>,
) {
    let Some(old) = best.as_ref() else {
        return;
    };
    if w.root_pv().first() != Some(&mv)
        || old.best == mv
        || !verified.contains(&mv)
        || is_decisive(old.score)
    {
        return;
    }
    record(w, (depth, mv, score), on_progress, best);
}

/// Reports `mv` with its `score` at `depth` (with the root PV when it starts
/// with `mv`) and makes it the answer so far.
fn record(
    w: &Worker,
    (depth, mv, score): (i32, Pos, Score),
    on_progress: &mut dyn FnMut(Progress),
    best: &mut Option<Outcome>,
) {
    let pv = if w.root_pv().first() == Some(&mv) {
        w.root_pv().to_vec()
    } else {
        vec![mv]
    };
    let shared = w.shared_ref();
    let info = Info {
        depth,
        seldepth: w.seldepth,
        score,
        nodes: w.nodes_so_far(),
        elapsed: shared.start.elapsed(),
        pv: pv.clone(),
    };
    on_progress(Progress::Iteration(&info));
    *best = Some(Outcome {
        best: mv,
        score,
        depth,
        nodes: 0,
        pv,
        elapsed: info.elapsed,
    });
}

/// Half-width of the aspiration window around the last iteration's score
/// (from depth 5; widened threefold on each failure). 100 instead of 60:
/// self-play at 500 ms/move Renju +40, freestyle +92 (102 games); 30 lost
/// 63 in freestyle at 200 ms (docs/strength.md).
const ASPIRATION_DELTA: Score = 100;

/// Root moves dropped at most per search because the opponent wins after them
/// (past that, the position is probably lost whatever we play).
const MAX_REFUTATIONS: usize = 12;
/// Each check of a best move may use this part of the hard limit. The checks
/// took up to half of a 1 s move in sharp middle games at an eighth each
/// (a new best move is checked at each depth); a sixteenth scored +37 and +20
/// Elo in Renju and +10 and +21 in freestyle in self-play, a thirty-second
/// -54 and -21 (docs/strength.md).
const REFUTE_TIME_DIVISOR: u32 = 16;
/// Budgets of the opponent's VCF and VCT searches that verify a best move.
const REFUTE_VCF_NODES: u64 = 40_000;
const REFUTE_VCT_NODES: u64 = 400_000;
/// Threes and fours the verifying VCT search may play.
const REFUTE_VCT_DEPTH: u8 = 11;

/// Does the opponent win by force (continuous fours, or threes and fours) after `mv`?
/// Undecided within the budget counts as no. Also returns the solver nodes used.
fn refuted(
    board: &mut Board,
    mv: Pos,
    stop: &AtomicBool,
    deadline: Instant,
    budget: u64,
) -> (bool, u64) {
    board.make(mv);
    let found = wins_by_force(board, stop, deadline, budget);
    board.undo().ok();
    found
}

/// Does the side to move win by force: continuous fours (VCF), else threes
/// and fours (VCT), within the verifying budgets ([`REFUTE_VCF_NODES`],
/// [`REFUTE_VCT_NODES`], [`REFUTE_VCT_DEPTH`]), `budget` nodes in all and
/// `deadline`? Undecided counts as no. Also returns the solver nodes used.
pub(crate) fn wins_by_force(
    board: &mut Board,
    stop: &AtomicBool,
    deadline: Instant,
    budget: u64,
) -> (bool, u64) {
    let vcf_nodes = REFUTE_VCF_NODES.min(budget);
    let mut vcf = vcf::VcfSolver::new(vcf_nodes, Some(stop)).with_deadline(deadline);
    let mut win = vcf.solve(board, 40).is_some();
    let mut nodes = vcf.nodes;
    if !win {
        let vct_nodes = REFUTE_VCT_NODES.min(budget.saturating_sub(nodes));
        let mut vct = vct::VctSolver::new(vct_nodes, Some(stop), Some(deadline));
        win = vct.solve_deepening(board, REFUTE_VCT_DEPTH).is_some();
        nodes += vct.nodes;
    }
    (win, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Rule};

    fn best(rule: Rule, text: &str, depth: i32) -> Outcome {
        search_with(rule, text, &Limits::depth(depth))
    }

    /// One thread, a fresh 1 MB table.
    fn search_with(rule: Rule, text: &str, limits: &Limits) -> Outcome {
        let (b, _) = Board::from_diagram(text, rule).unwrap();
        Searcher::new(1 << 20, 1)
            .search(&b, limits, &mut |_| {})
            .unwrap()
    }

    /// Sixty seconds and at most `max_nodes` nodes.
    fn node_limit(max_nodes: u64) -> Limits {
        Limits {
            max_nodes,
            ..Limits::time(Duration::from_secs(60))
        }
    }

    #[test]
    fn a_stop_request_ends_the_check_of_a_new_best_move() {
        // A freestyle middle game (22 stones of a self-play game, black to
        // move) where the check that the opponent has no VCF/VCT after the
        // first iteration's best move runs long. The check watched only the
        // search's own stop flag, which `check_limits` raises from the
        // caller's every 512 nodes of the main search: asked to stop before
        // it began, the search still spent 92.6k nodes, 91.9k in that check.
        let moves = [
            (5, 11),
            (7, 9),
            (9, 10),
            (8, 8),
            (8, 11),
            (9, 9),
            (10, 10),
            (10, 9),
            (8, 9),
            (8, 10),
            (7, 11),
            (6, 11),
            (9, 11),
            (10, 11),
            (8, 12),
            (7, 13),
            (9, 12),
            (6, 10),
            (11, 9),
            (12, 8),
            (9, 14),
            (9, 13),
        ];
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in moves {
            b.make(Pos::new(x, y));
        }
        let searcher = Searcher::new(1 << 20, 1);
        searcher.stop.store(true, Ordering::Relaxed);
        let out = searcher
            .search(&b, &Limits::time(Duration::from_secs(60)), &mut |_| {})
            .unwrap();
        assert!(out.nodes < 5_000, "{} nodes", out.nodes);
    }

    #[test]
    fn a_node_limit_bounds_the_threat_solvers_too() {
        // An exact-five opening (black to move): without the limit on the
        // threat solvers (the root VCF/VCT and the checks of new best moves,
        // each with its own budget of 40k-400k nodes) the search spent about
        // 40k nodes.
        let out = search_with(
            Rule::Standard,
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . O . . . . . . . . . .
            . . . . . X O . X . . . . . .
            . . . . . . X O O . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
            &node_limit(2_000),
        );
        assert!(out.nodes < 10_000, "{} nodes", out.nodes);
    }

    #[test]
    fn the_node_limit_counts_the_root_solvers_nodes() {
        // A quiet Renju opening (black to move) where the root VCF/VCT use
        // up the whole node limit and find nothing. The main search's count
        // started at zero after them, so the total reached twice the limit
        // (40.5k nodes for a limit of 20k).
        let out = search_with(
            Rule::Renju,
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . X . . O . . . .
            . . . . . . O O . X . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . X . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
            &node_limit(20_000),
        );
        assert!(out.nodes < 25_000, "{} nodes", out.nodes);
    }

    #[test]
    fn a_cut_short_iteration_answers_only_with_a_checked_better_move() {
        let (b, _) = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . X O . . . .
            . . . O X . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rule::Freestyle,
        )
        .unwrap();
        let shared = Shared::for_tests();
        let mut w = Worker::new(b.clone(), &shared, 0);
        let mut moves: Vec<(Pos, i32)> = b.candidates().into_iter().map(|p| (p, 0)).collect();
        let (mv, score) = w.search_root(&mut moves, 2, -WIN - 1, WIN + 1, &mut |_| {});
        assert_eq!(w.root_pv().first(), Some(&mv));
        let other = moves.iter().find(|m| m.0 != mv).unwrap().0;
        let old = Outcome {
            best: other,
            score: 0,
            depth: 1,
            nodes: 0,
            pv: vec![other],
            elapsed: Duration::ZERO,
        };
        let mut best = Some(old.clone());
        let mut infos = 0;
        // Never checked for an opponent's VCF/VCT: the old answer stays.
        partial_result(&w, (2, mv, score), &[], &mut |_| infos += 1, &mut best);
        assert_eq!(best.as_ref().unwrap().best, other);
        // Checked at an earlier depth: it replaces the old answer and is reported.
        partial_result(&w, (2, mv, score), &[mv], &mut |_| infos += 1, &mut best);
        assert_eq!((best.as_ref().unwrap().best, infos), (mv, 1));
        // A proven old answer stays.
        let mut proven = Some(Outcome {
            score: WIN - 3,
            ..old
        });
        partial_result(&w, (2, mv, score), &[mv], &mut |_| {}, &mut proven);
        assert_eq!(proven.unwrap().best, other);
        // No move beat the window: no root PV, so nothing to answer with.
        w.search_root(&mut moves, 2, WIN - 10, WIN - 9, &mut |_| {});
        assert!(w.root_pv().is_empty());
    }

    /// Each root move's search is entered and left before the next one
    /// starts, and none is left open at the end.
    fn assert_root_moves_paired(events: &[RootMove]) {
        let mut open: Option<Pos> = None;
        for e in events {
            match e.event {
                RootEvent::Entered => assert_eq!(open.replace(e.mv), None),
                RootEvent::Left => assert_eq!(open.take(), Some(e.mv)),
                RootEvent::Lost | RootEvent::NewBest => assert_eq!(open, None),
            }
        }
        assert_eq!(open, None);
    }

    #[test]
    fn root_moves_are_reported_in_pairs_and_losses_are_real() {
        // White's 8,7 makes a four (closed by black's 4,7) and an open
        // three: black to move must take it (or 9,7), or lose.
        let text = "
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . O X . . . .
            . . . . . . . X O . . . . .
            . . . . X O O O . . . . . .
            . . . . . . X . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . . . . .
            . . . . . . . . . . X . . .
            . . . . . . . . . . . . . .";
        let (b, _) = Board::from_diagram(text, Rule::Freestyle).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let mut events: Vec<RootMove> = Vec::new();
        let mut iterations = 0;
        let o = Searcher::new(1 << 20, 1)
            .search(&b, &Limits::depth(6), &mut |p| match p {
                Progress::Iteration(_) => iterations += 1,
                Progress::RootMove(r) => events.push(r),
            })
            .unwrap();
        assert!(iterations >= 1);
        assert_root_moves_paired(&events);
        let lost: Vec<Pos> = events
            .iter()
            .filter(|e| e.event == RootEvent::Lost)
            .map(|e| e.mv)
            .collect();
        assert!(!lost.is_empty(), "moves that ignore the 4-3 lose");
        assert!(!lost.contains(&o.best));
        let stop = AtomicBool::new(false);
        for &mv in &lost {
            let mut after = b.clone();
            after.make(mv);
            let deadline = Instant::now() + Duration::from_secs(10);
            assert!(
                wins_by_force(&mut after, &stop, deadline, u64::MAX).0,
                "{mv:?}"
            );
        }
        // The moves that hold are the two points of the four.
        assert!([Pos::new(8, 7), Pos::new(9, 7)].contains(&o.best));
    }

    #[test]
    fn a_root_move_cut_short_is_still_left() {
        // A node limit stops the search inside a root move's search: its
        // Entered still gets its Left (a GUI's POS its DONE), and that move
        // belongs to an iteration the answer does not come from.
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7)] {
            b.make(Pos::new(x, y));
        }
        let limits = Limits {
            max_nodes: 30_000,
            ..Limits::depth(40)
        };
        let mut events: Vec<RootMove> = Vec::new();
        let o = Searcher::new(1 << 20, 1)
            .search(&b, &limits, &mut |p| {
                if let Progress::RootMove(r) = p {
                    events.push(r)
                }
            })
            .unwrap();
        assert_root_moves_paired(&events);
        let last = events.last().unwrap();
        assert_eq!(last.event, RootEvent::Left);
        assert!(last.depth > o.depth, "{} {}", last.depth, o.depth);
    }

    #[test]
    fn plays_the_centre_first() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let o = Searcher::new(1 << 20, 1)
            .search(&b, &Limits::depth(3), &mut |_| {})
            .unwrap();
        assert_eq!(o.best, Pos::new(7, 7));
    }

    #[test]
    fn with_one_five_excluded_the_other_is_played() {
        // Black (to move) has fives at 0,1 and 5,1; YXNBEST's second search
        // or a YXBLOCK leaves one out: the other is still an immediate win
        // (the tree never plays a five, so it was once scored as any move).
        let text = "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . O
            O . . . . . . . O
            O . . . . . . . .";
        for (out, other) in [
            (Pos::new(0, 1), Pos::new(5, 1)),
            (Pos::new(5, 1), Pos::new(0, 1)),
        ] {
            let limits = Limits {
                exclude: vec![out],
                ..Limits::depth(4)
            };
            let o = search_with(Rule::Freestyle, text, &limits);
            assert_eq!((o.best, o.score), (other, WIN - 1));
        }
    }

    #[test]
    fn balance_mode_weighs_moves_by_distance_to_the_bias() {
        // Black to move with an open three: the best move makes an open four
        // (a win); balance mode never takes it, and what it takes is scored
        // bias - |score - bias| (at most the bias).
        let text = "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . X X X . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . O .
            . . . . . . . O . . O
            . . . . . . . . . . .";
        let best = best(Rule::Freestyle, text, 4);
        assert!([Pos::new(2, 3), Pos::new(6, 3)].contains(&best.best));
        assert!(best.score >= tt::WIN_BOUND);
        for bias in [0, 300] {
            let limits = Limits {
                balance: Some(bias),
                ..Limits::depth(4)
            };
            let o = search_with(Rule::Freestyle, text, &limits);
            assert!(
                ![Pos::new(2, 3), Pos::new(6, 3)].contains(&o.best),
                "bias {bias}: {o:?}"
            );
            assert!(o.depth == 4 && o.score <= bias, "bias {bias}: {o:?}");
        }
    }

    #[test]
    fn wins_at_once_and_blocks() {
        let text = "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . O O O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . O";
        // White to move (4 black, 5 white? no: 4 and 5 -> black to move).
        let o = best(Rule::Freestyle, text, 4);
        assert!(o.best == Pos::new(0, 1) || o.best == Pos::new(5, 1));
    }

    #[test]
    fn stops_an_open_three() {
        let text = "
            . . . . . . . . . .
            . . . . . . . . . .
            . . . X X X . . . .
            . . . . . . . . . .
            . . . . O . . . . .
            . . . . . . . O . .
            . . . . . . . . . .
            . . . . . . . . . .";
        let o = best(Rule::Freestyle, text, 4);
        let x = o.best;
        assert!(x.y() == 2 && [2, 6].contains(&x.x()), "{:?}", x);
    }

    #[test]
    fn many_threads_agree_on_a_forced_win() {
        let text = "
            . . . . . . . . . .
            . . . . . . . . . .
            . . . X X X . . . .
            . . . . . . . . . .
            . . . . O . . . . .
            . . . . . . . O . .
            . . . . O . . . . .
            . . . . . . . . . .";
        let (b, _) = Board::from_diagram(text, Rule::Freestyle).unwrap();
        let o = Searcher::new(1 << 20, 2)
            .search(&b, &Limits::depth(4), &mut |_| {})
            .unwrap();
        assert!(o.score >= tt::WIN_BOUND);
    }

    #[test]
    fn with_helper_threads_the_root_vct_still_answers() {
        // X to move makes a double three at (5,5): a win by threes, no fours.
        // O's blocked three gives it a four to play first, so it is no quick
        // win (`threats::win_in_5`) but one the root VCT proves. With two
        // threads the helper searches while the root solvers run.
        let text = "
            . . . . . . . . . .
            X O O O . . . . . .
            . . . . . . . . . .
            . . . . . X . . . .
            . . . . . X . . . .
            . . . X X . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . O .
            . . . . . . . . . O";
        let (b, _) = Board::from_diagram(text, Rule::Freestyle).unwrap();
        let vct_score = WIN - 2 * VCT_ROOT_DEPTH as Score - 1;
        for threads in [1, 2] {
            let o = Searcher::new(1 << 20, threads)
                .search(&b, &Limits::depth(6), &mut |_| {})
                .unwrap();
            assert_eq!((o.depth, o.score), (0, vct_score), "{threads} threads");
            assert!(o.nodes > 0);
        }
    }
}
