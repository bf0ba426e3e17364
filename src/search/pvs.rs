//! Principal variation search: one thread's alpha-beta over a shared table.
//!
//! Negamax with PVS windows, transposition-table cut-offs, mate-distance scores
//! and pruning, killer, countermove and history ordering (with a malus for
//! quiet moves that failed), internal iterative reduction, singular extensions
//! of the hash move, reverse futility and null-move pruning (outside Renju only
//! deep in the tree), late-move pruning, futility pruning of quiet moves,
//! blocks and threes near the horizon far below alpha, logarithmic late-move reductions of
//! quiet moves (a ply less at nodes that are or were on a principal variation,
//! remembered in the table entry) and at least a ply less for late non-quiet
//! moves (threes, fours, blocks) at quiet non-PV nodes, and a ply less for
//! every move but a four at an expected cut node far above beta (fail-high
//! reduction; nodes are told apart as in Stockfish: the reduced null-window
//! searches of late moves expect a cut, their children an all node, and so
//! on); in Renju also late-move reductions at the root, lone fours treated as
//! quiet, the points of the opponent's plain threes no blocks (`is_block`), a
//! ply less for late counter-fours against an open three (two more far from
//! the opponent's last stone), and a ply more for a reduced move whose
//! reduced search beat alpha by far; in Renju and freestyle late non-quiet
//! moves reduced at PV nodes too (a ply less than elsewhere). None of the
//! pruning applies when the side to move faces an open three, and
//! answering one with at most five replies costs no depth (outside Renju a
//! node with at most four is not a leaf even at the horizon). Forced nodes
//! (block a five, answer an open four) and wins the threat classes show (a
//! five, an open four, a 4-3 or double three the opponent cannot meet in
//! time, at every node including the leaves) come from
//! [`super::movegen::node_kind`], so the tree stays narrow where play is
//! forced and ends where it is decided. At the horizon a
//! quiescence search plays out the side to move's fours near its own last
//! stone (standing pat on the static value), after a quick VCF at PV leaves.

use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;

use super::movegen::{MoveList, NodeKind, generate, node_kind};
use super::tt::{Bound, Entry, WIN_BOUND};
use super::vcf::VcfSolver;
use super::{RootEvent, RootMove, Shared, WIN};
use crate::eval::{Score, evaluate, move_score};
use crate::game::{Board, CELLS, Color, Pos, Rule, Threat};

/// Node budget of the VCF search at a PV leaf.
pub const LEAF_VCF_NODES: u64 = 64;
/// Fours the VCF search at a PV leaf may play.
pub const LEAF_VCF_DEPTH: u8 = 8;

/// Deepest ply the search tracks.
pub const MAX_PLY: usize = 128;

/// One search thread's state.
pub struct Worker<'a> {
    /// The thread's own copy of the position.
    pub board: Board,
    shared: &'a Shared,
    /// Thread index (0 = main, which keeps time).
    pub id: usize,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Nodes of the threat solvers that checked root moves (thread 0).
    pub solver_nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    killers: Vec<[Pos; 2]>,
    /// Per side to move, the move that last cut off after each opponent move
    /// (the countermove heuristic: a refutation of a move tends to refute it
    /// elsewhere in the tree too).
    counter: Vec<[Pos; CELLS]>,
    history: Vec<[i32; CELLS]>,
    pv: Vec<Vec<Pos>>,
    /// Per ply, the move a singular-extension search leaves out (or `Pos::NONE`).
    excluded: Vec<Pos>,
    /// Set when this thread saw the stop flag mid-iteration.
    pub aborted: bool,
    /// Balance mode's target score (see [`super::Limits::balance`]).
    pub balance: Option<Score>,
    vcf: VcfSolver<'a>,
}

impl<'a> Worker<'a> {
    /// A worker searching `board` with the shared state.
    pub fn new(mut board: Board, shared: &'a Shared, id: usize) -> Worker<'a> {
        board.set_shape_tables(crate::eval::shape_tables(board.rule()));
        Worker {
            board,
            shared,
            id,
            nodes: 0,
            solver_nodes: 0,
            seldepth: 0,
            killers: vec![[Pos::NONE; 2]; MAX_PLY + 1],
            history: vec![[0; CELLS]; 2],
            counter: vec![[Pos::NONE; CELLS]; 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            excluded: vec![Pos::NONE; MAX_PLY + 2],
            aborted: false,
            balance: None,
            vcf: VcfSolver::new(0, Some(&shared.stop)),
        }
    }

    /// The state shared with the other threads.
    pub fn shared_ref(&self) -> &'a Shared {
        self.shared
    }

    /// Nodes of all threads so far: the shared count (to which each thread
    /// adds 512 at a time) plus this thread's part not yet added.
    pub fn nodes_so_far(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes & 511)
    }

    /// The principal variation of the last completed root search.
    pub fn root_pv(&self) -> &[Pos] {
        &self.pv[0]
    }

    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 511 == 0 {
            self.shared.nodes.fetch_add(512, Ordering::Relaxed);
            if self.id == 0 {
                self.shared.check_limits();
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Searches the root moves `moves` (already legal) to `depth` within the
    /// window and returns the best move and score. The root PV is in `root_pv`:
    /// empty until a move scores above `alpha`, so after an aborted search it
    /// names the best move found so far, if any beat the window.
    /// `report` hears of each move as its search starts and ends, of a
    /// move proven lost and of a new best move (thread 0 reports; see
    /// [`super::RootMove`]).
    pub fn search_root(
        &mut self,
        moves: &mut [(Pos, i32)],
        depth: i32,
        mut alpha: Score,
        beta: Score,
        report: &mut dyn FnMut(RootMove),
    ) -> (Pos, Score) {
        let mut best = (moves[0].0, -WIN - 1);
        self.pv[0].clear();
        let hash_move = self
            .shared
            .tt
            .probe(self.board.hash(), 0)
            .map(|e| e.mv)
            .unwrap_or(Pos::NONE);
        if let Some(i) = moves.iter().position(|m| m.0 == hash_move) {
            moves[..=i].rotate_right(1);
        }
        let me = self.board.side_to_move();
        let renju = self.board.rule().has_forbidden();
        for i in 0..moves.len() {
            let p = moves[i].0;
            // Renju: late quiet root moves are reduced (the logarithmic
            // amount less one) and searched again at full depth if they beat
            // alpha. One of three Renju-only reductions; see `search_node`.
            let r = if renju
                && self.balance.is_none()
                && depth >= 3
                && i >= 2
                && is_quiet(
                    &self.board,
                    p,
                    me,
                    move_score(&self.board, p, me) * SHAPE_WEIGHT,
                    self.board.threat(p, me.opponent()).is_three_or_better(),
                ) {
                (reduction(depth, i, TACTICAL_LMR_DIVISOR) - 1).clamp(0, depth - 2)
            } else {
                0
            };
            let shared = self.shared;
            let event = |event| RootMove {
                depth,
                mv: p,
                event,
                elapsed: shared.start.elapsed(),
            };
            report(event(RootEvent::Entered));
            self.board.make(p);
            let score = if let Some(bias) = self.balance {
                // Only scores within (alpha, 2 bias - alpha) balance better
                // than alpha: the move's own score is searched in that window.
                let hi = (2 * bias).saturating_sub(alpha).min(WIN + 1);
                let raw = -self.search(depth - 1, 1, -hi, -alpha, Some(p));
                bias - (raw - bias).abs()
            } else if i == 0 {
                -self.search(depth - 1, 1, -beta, -alpha, Some(p))
            } else {
                self.search_late_move(p, depth - 1, r, 1, alpha, beta, false)
            };
            self.board.undo().ok();
            // Left even when the clock cut it short: each Entered is paired.
            report(event(RootEvent::Left));
            if self.aborted {
                break;
            }
            moves[i].1 = score;
            if score <= -WIN_BOUND && self.balance.is_none() {
                report(event(RootEvent::Lost));
            }
            if score > best.1 {
                best = (p, score);
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, p);
                    if i > 0 {
                        report(event(RootEvent::NewBest));
                    }
                    // Move the new best to the front for the next iteration.
                    moves[..=i].rotate_right(1);
                }
                if score >= beta {
                    break;
                }
            }
        }
        // A balanced value is no score of the position: not stored.
        if !self.aborted && self.balance.is_none() {
            let bound = if best.1 >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.shared
                .tt
                .store(self.board.hash(), 0, best.0, best.1, depth, bound, true);
        }
        best
    }

    /// The horizon (`depth` <= 0, the node neither won, lost nor forced):
    /// a quiescence search over fours, Rapfi's quick VCF. The side to move
    /// may stand pat on its static value; below beta it tries each four
    /// near its own last stone ([`near_own_last`]): plain fours down to
    /// [`QUIESCE_PLAIN_FOURS`], deeper only fours with more beside them. The
    /// forced block costs no depth and the node after it is again a horizon
    /// node (so a four-three or a double four the blocks cannot meet ends the
    /// line as a win through `node_kind`). A non-PV node far below alpha
    /// ([`quiesce_delta`]) stops at once. A PV node first tries a quick VCF
    /// search of any fours ([`Self::leaf_vcf`]). In Renju a node that has
    /// fours uses the transposition table as the main search does (a cut-off
    /// at non-PV nodes, the stored four first; its result stored at its
    /// depth), as Rapfi's quiescence does: self-play at 250 ms, Renju +35 and
    /// +70 (100 games each); freestyle -7 and -25 (100 and 70 games), so
    /// Renju only.
    ///
    /// Self-play at 250 ms, 100 games a run, against the PV-leaf VCF alone:
    /// Renju +35 and +49, freestyle +14 and +92; keeping the PV-leaf VCF
    /// in front of it: Renju +17, freestyle +63 and +14 (docs/strength.md).
    fn quiesce(
        &mut self,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        pv_node: bool,
    ) -> Score {
        if pv_node && let Some(score) = self.leaf_vcf(ply) {
            return score;
        }
        let stand = evaluate(&self.board);
        if stand >= beta || ply + 4 >= MAX_PLY {
            return stand;
        }
        let me = self.board.side_to_move();
        if self.board.threat_count_at_least(me, Threat::Four) == 0 {
            return stand;
        }
        // Renju: the table, as at the other nodes: a cut-off at a non-PV
        // node, and the best four first.
        let renju = self.board.rule().has_forbidden();
        let hash = self.board.hash();
        let mut tt_move = Pos::NONE;
        if renju && let Some(e) = self.shared.tt.probe(hash, ply) {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth && cuts(&e, alpha, beta) {
                return e.score;
            }
        }
        if !pv_node && stand + quiesce_delta(depth) < alpha {
            return stand;
        }
        let orig_alpha = alpha;
        let history = self.board.history();
        let own = match history.len().checked_sub(2).map(|i| history[i]) {
            Some((own, c)) if c == me => own,
            _ => return stand,
        };
        let min = if depth >= QUIESCE_PLAIN_FOURS {
            Threat::Four
        } else {
            Threat::FourPlus
        };
        let mut fours: ArrayVec<(Pos, Threat), QUIESCE_MAX_FOURS> = ArrayVec::new();
        for p in self.board.threat_points(me, min) {
            if near_own_last(own, p) && !fours.is_full() {
                fours.push((p, self.board.threat(p, me)));
            }
        }
        if me == Color::Black && renju {
            fours.retain(|&mut (p, _)| !self.board.is_forbidden(p));
        }
        fours.sort_unstable_by_key(|&(p, t)| (p != tt_move, std::cmp::Reverse(t), p));
        let mut best = stand;
        let mut best_move = Pos::NONE;
        if pv_node && stand > alpha {
            alpha = stand;
        }
        for &(p, _) in &fours {
            self.board.make(p);
            let s = -self.search_node(depth - 1, ply + 1, -beta, -alpha, Some(p), true, false);
            self.board.undo().ok();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = p;
                    self.update_pv(ply, p);
                    if s >= beta {
                        break;
                    }
                    alpha = s;
                }
            }
        }
        if renju && !fours.is_empty() {
            let bound = bound_of(best, orig_alpha, beta);
            self.shared
                .tt
                .store(hash, ply, best_move, best, depth, bound, pv_node);
        }
        best
    }

    /// A win by a quick VCF search (at most [`LEAF_VCF_NODES`] nodes) of the
    /// side to move at ply `ply`, as a mate score.
    fn leaf_vcf(&mut self, ply: usize) -> Option<Score> {
        let me = self.board.side_to_move();
        if self.board.threat_count_at_least(me, Threat::Four) == 0 {
            return None;
        }
        self.vcf.reset(LEAF_VCF_NODES);
        let found = self.vcf.solve(&mut self.board, LEAF_VCF_DEPTH);
        self.nodes += self.vcf.nodes;
        found.map(|line| WIN - (ply + line.len()) as Score)
    }

    /// Outside Renju: does the side to move face an open three (or worse)
    /// with at most [`HORIZON_DEFENCE_MOVES`] replies? Such a node at the
    /// horizon is no leaf: its replies are searched at no depth cost, so the
    /// attacker's position is judged after the best defence. Self-play at
    /// 200 ms: freestyle +35 and +42 (200 games), Renju -34 and -100 (208).
    /// The replies are left in `moves` when it says yes.
    fn few_defences(&mut self, kind: NodeKind, moves: &mut MoveList) -> bool {
        if kind != NodeKind::Defend || self.board.rule().has_forbidden() {
            return false;
        }
        generate(&mut self.board, kind, moves);
        moves.len() <= HORIZON_DEFENCE_MOVES
    }

    fn update_pv(&mut self, ply: usize, p: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(p);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Scores the move `p` just made (not the first at its node) from the
    /// mover's view, the child at `ply`: a null window at `depth - r`, again at
    /// `depth` if a reduced search beat `alpha` (in Renju a ply deeper if it
    /// beat it by far), and the full window if the score falls inside it.
    /// `cut_node`: the node of `p`'s parent is an expected cut node.
    // The node's window, depth, ply, last move and flags are the search's
    // state; bundling them in a struct would only move the names.
    #[allow(clippy::too_many_arguments)]
    fn search_late_move(
        &mut self,
        p: Pos,
        mut depth: i32,
        r: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut_node: bool,
    ) -> Score {
        // A reduced null-window search expects a fail high below (a cut
        // node); the full-depth one the node type below this `cut_node`.
        let mut s = -self.search_node(
            depth - r,
            ply,
            -alpha - 1,
            -alpha,
            Some(p),
            true,
            r > 0 || !cut_node,
        );
        if s > alpha && r > 0 {
            // Renju: a reduced move that beat alpha by far is searched a ply
            // deeper than its node's other moves (Stockfish's and Rapfi's
            // "deeper search"): it may be the node's best.
            if self.board.rule().has_forbidden()
                && s > alpha + LMR_DEEPER_MARGIN + LMR_DEEPER_PER_PLY * r
                && !is_decisive(s)
            {
                depth += 1;
            }
            s = -self.search_node(depth, ply, -alpha - 1, -alpha, Some(p), true, !cut_node);
        }
        if s > alpha && s < beta {
            s = -self.search_node(depth, ply, -beta, -alpha, Some(p), true, false);
        }
        s
    }

    /// Scores the move `p` just made as its node's first (or only) move, with
    /// the node's own window, from the mover's view (the child at `ply`). The
    /// child is a PV node below a PV node; otherwise it has the opposite type
    /// of its parent (an expected cut node when the parent, `cut_node`, is not).
    fn search_first_move(
        &mut self,
        p: Pos,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut_node: bool,
    ) -> Score {
        let pv_node = beta - alpha > 1;
        -self.search_node(
            depth,
            ply,
            -beta,
            -alpha,
            Some(p),
            true,
            !pv_node && !cut_node,
        )
    }

    /// Negamax alpha-beta from `ply` with `depth` plies left.
    pub fn search(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        last: Option<Pos>,
    ) -> Score {
        self.search_node(depth, ply, alpha, beta, last, true, false)
    }

    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        last: Option<Pos>,
        allow_null: bool,
        cut_node: bool,
    ) -> Score {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Mate-distance pruning.
        alpha = alpha.max(-WIN + ply as Score);
        beta = beta.min(WIN - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }
        let kind = node_kind(&mut self.board, last);
        let forced = match kind {
            NodeKind::WinNow(_) => return WIN - ply as Score - 1,
            NodeKind::Lost => return -WIN + ply as Score + 2,
            NodeKind::WinIn3(_) => return WIN - ply as Score - 3,
            NodeKind::WinIn5(_) => return WIN - ply as Score - 5,
            NodeKind::Forced(p) => Some(p),
            _ => None,
        };
        if self.board.is_full() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(&self.board);
        }
        let pv_node = beta - alpha > 1;
        let mut moves = MoveList::new();
        let mut generated = false;
        if depth <= 0 && forced.is_none() {
            if !self.few_defences(kind, &mut moves) {
                return self.quiesce(ply, alpha, beta, depth, pv_node);
            }
            generated = true;
        }
        let hash = self.board.hash();
        // Inside a singular-extension search: `excluded` (the hash move) is left out.
        let excluded = self.excluded[ply];
        let singular_search = excluded != Pos::NONE;
        let mut hash_move = Pos::NONE;
        let entry = self.shared.tt.probe(hash, ply);
        // The node is or was on a principal variation (Stockfish's `ttPv`):
        // its late quiet moves get a ply less of reduction below.
        let tt_pv = pv_node || entry.is_some_and(|e| e.pv);
        if let Some(e) = entry
            && !singular_search
        {
            hash_move = e.mv;
            if !pv_node && e.depth >= depth && cuts(&e, alpha, beta) {
                return e.score;
            }
        }
        if let Some(p) = forced {
            // A forced block does not use up depth.
            self.shared.tt.prefetch(self.board.hash_after(p));
            self.board.make(p);
            let s = self.search_first_move(p, depth, ply + 1, alpha, beta, cut_node);
            self.board.undo().ok();
            if !self.aborted && s > alpha {
                self.update_pv(ply, p);
            }
            return s;
        }
        if hash_move == Pos::NONE && depth >= IIR_DEPTH && !singular_search {
            // Internal iterative reduction: without a hash move the ordering
            // is a guess; a shallower search is cheaper and fills the table.
            depth -= 1;
        }
        let me = self.board.side_to_move();
        // Facing an open three (or worse) the position is not quiet: no pruning on the static value.
        let threatened = kind == NodeKind::Defend;
        let static_eval = evaluate(&self.board);
        let prunable = !pv_node
            && !threatened
            && !is_decisive(beta)
            && !is_decisive(alpha)
            && !singular_search;
        if prunable && depth <= FUTILITY_DEPTH && static_eval - FUTILITY_MARGIN * depth >= beta {
            // Reverse futility: far above beta with little depth left.
            return static_eval;
        }
        if prunable
            && allow_null
            && depth >= null_min_depth(self.board.rule())
            && static_eval >= beta
        {
            // Null move: if passing still fails high, a real move will too.
            let r = NULL_REDUCTION + depth / 4;
            self.board.make_null();
            let s = -self.search_node(
                depth - 1 - r,
                ply + 1,
                -beta,
                -beta + 1,
                None,
                false,
                !cut_node,
            );
            self.board.undo_null();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if is_decisive(s) { beta } else { s };
            }
        }
        if !generated {
            generate(&mut self.board, kind, &mut moves);
        }
        if singular_search {
            moves.retain(|m| m.0 != excluded);
            if moves.is_empty() {
                return alpha;
            }
        }
        if moves.is_empty() {
            // Every point forbidden or no defence: the position is lost (or a draw on a full board).
            return -WIN + ply as Score + 2;
        }
        let hist = &self.history[me.index()];
        let killers = self.killers[ply];
        let counter = last.map_or(Pos::NONE, |l| self.counter[me.index()][l.index()]);
        for m in moves.iter_mut() {
            m.1 = if m.0 == hash_move {
                i32::MAX
            } else if m.0 == killers[0] {
                1_000_000
            } else if m.0 == killers[1] {
                999_000
            } else if m.0 == counter {
                998_000
            } else {
                move_score(&self.board, m.0, me) * SHAPE_WEIGHT
                    + hist[m.0.index()].clamp(-(1 << 20), 1 << 20) / 64
            };
        }
        let orig_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_move = Pos::NONE;
        let mut quiets_tried: ArrayVec<Pos, 64> = ArrayVec::new();
        let renju = self.board.rule().has_forbidden();
        // Defending against an open three with few replies costs no depth, so
        // threat sequences are seen deeper (self-play +50 Elo in Renju, +155
        // in freestyle with up to 6 replies; up to 4 was +78 / +49 more, up
        // to 5 +17 / +9 over 300 games each against 4).
        let new_depth = if threatened && moves.len() <= DEFEND_EXTENSION_MOVES {
            depth
        } else {
            depth - 1
        };
        let mut extension = 0;
        // A hash move exists only outside a singular-extension search, and it is the entry's.
        if let Some(e) = entry
            && hash_move != Pos::NONE
            && depth >= SE_DEPTH
            && e.depth >= depth - 3
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && !is_decisive(e.score)
        {
            // Singular extension: if every other move fails well below the
            // hash move's score, the hash move is the only one and gets a ply more.
            let singular_beta = e.score - SE_MARGIN * depth;
            self.excluded[ply] = hash_move;
            let s = self.search_node(
                (depth - 1) / 2,
                ply,
                singular_beta - 1,
                singular_beta,
                last,
                false,
                cut_node,
            );
            self.excluded[ply] = Pos::NONE;
            self.pv[ply].clear();
            if self.aborted {
                return 0;
            }
            if s < singular_beta {
                extension = 1;
            } else if singular_beta >= beta {
                // Multi-cut: more than one move beats beta.
                return singular_beta;
            } else if e.score >= beta {
                // Not singular, and expected to fail high anyway: a ply
                // less (self-play +20 Renju, +10 freestyle).
                extension = -1;
            }
        }
        // Fail-high reduction: at an expected cut node whose static value is
        // far above beta every move but a four gets a ply less (one is
        // likely to cut anyway; Rapfi has the same). Self-play: Renju +40
        // and +34 Elo over 2 x 104 games at 500 ms; freestyle -38 over 100
        // then, +17 over 300 at 250 ms on the search of 5db40e7.
        let likely_fail_high = !pv_node
            && cut_node
            && !threatened
            && !singular_search
            && !is_decisive(beta)
            && static_eval >= beta + FAIL_HIGH_MARGIN * depth;
        for i in 0..moves.len() {
            // Most cut-offs come from the first moves: pick those one at a
            // time and sort the rest only when the node gets that far.
            if i < PICKED_MOVES {
                pick_best(&mut moves[i..]);
            } else if i == PICKED_MOVES {
                moves[i..].sort_unstable_by_key(move_order_key);
            }
            let (p, order) = moves[i];
            // What the move makes for the mover (the fail-high reduction and
            // the futility rules below read it).
            let own = self.board.threat(p, me);
            let fh = if likely_fail_high && !own.is_four_or_better() {
                1
            } else {
                0
            };
            let new_depth = new_depth - fh;
            // The hash move and the killers are never late-move pruned or
            // reduced; outside Renju neither is the countermove (self-play at
            // 250 ms: freestyle +49 (53-39-8), +21 (46-40-14); Renju +10,
            // -21).
            let trusted =
                p == hash_move || p == killers[0] || p == killers[1] || (!renju && p == counter);
            let blocks = is_block(&self.board, self.board.threat(p, me.opponent()));
            let quiet = !trusted && is_quiet(&self.board, p, me, order, blocks);
            if prunable && i > 0 && best_score > -WIN_BOUND {
                if quiet {
                    // Late quiet moves near the horizon are not worth a look.
                    if depth <= LMP_DEPTH && i >= LMP_COUNT[depth as usize] {
                        continue;
                    }
                    if depth <= 2 && static_eval + MOVE_FUTILITY_MARGIN * depth <= alpha {
                        continue;
                    }
                } else if blocks
                    && !trusted
                    && !own.is_three_or_better()
                    && block_futile(renju, depth, static_eval, alpha)
                {
                    // A block of the opponent's three that makes no threat of
                    // its own, near the horizon, far below alpha.
                    continue;
                } else if !blocks
                    && !trusted
                    && own.is_three_or_better()
                    && !own.is_four_or_better()
                    && three_futile(renju, depth, static_eval, alpha)
                {
                    // A three (no four, no block) at the last ply, far below
                    // alpha.
                    continue;
                }
            }
            self.shared.tt.prefetch(self.board.hash_after(p));
            self.board.make(p);
            let score = if i == 0 {
                let d = new_depth + if p == hash_move { extension } else { 0 };
                self.search_first_move(p, d, ply + 1, alpha, beta, cut_node)
            } else {
                let r = if depth >= 3 && quiet {
                    let mut r = reduction(depth, i, LMR_DIVISOR);
                    if tt_pv {
                        // A PV node, or one that was on a PV when its entry
                        // was stored (the ply less at non-PV nodes: self-play
                        // at 250 ms +36 Elo in freestyle over 400 games, +21
                        // in Renju over 200; docs/strength.md).
                        r -= 1;
                    }
                    if !pv_node && i >= LATE_MOVE && renju {
                        // Renju's forbidden points narrow black's play: late
                        // quiet moves at non-PV nodes matter less (self-play
                        // +38 Elo over 208 games; in freestyle -20 in 52).
                        r += 1;
                    }
                    r.clamp(0, new_depth - 1)
                } else if depth >= 3
                    && !pv_node
                    && i >= TACTICAL_LATE_MOVE
                    && !threatened
                    && !trusted
                {
                    // A late move that is not quiet (a three, a four, a block
                    // of the opponent's three) at a quiet non-PV node: the
                    // threes make most of the tree (each is answered at no
                    // depth cost). One ply less (-30 % nodes at bench depth,
                    // +47 Elo Renju, +38 freestyle in self-play), and more
                    // when the logarithmic reduction less one is more (deep
                    // and late: self-play Renju +71 (57-36-11) and +44
                    // (27-20-8 after 55), freestyle +24 (52-45-3) and +3
                    // (49-48-3)); outside Caro a ply more far below alpha
                    // ([`tactical_reduction`], [`tactical_far_margin`]).
                    tactical_reduction(self.board.rule(), depth, new_depth, i, static_eval, alpha)
                } else if depth >= 3
                    && pv_node
                    && pv_tactical_late_move(self.board.rule()).is_some_and(|n| i >= n)
                    && !threatened
                    && !trusted
                {
                    // The same late tactical moves at a PV node (from a later
                    // move on outside Renju), a ply less than at other nodes
                    // ([`pv_tactical_reduction`]).
                    pv_tactical_reduction(
                        self.board.rule(),
                        depth,
                        new_depth,
                        i,
                        static_eval,
                        alpha,
                    )
                } else if renju
                    && depth >= 3
                    && !pv_node
                    && threatened
                    && i >= 1
                    && !trusted
                    && !blocks
                {
                    // Renju, facing an open three: a late reply that does not
                    // block it (a counter-four) gets a ply less from the third
                    // move on. With the lone fours and the root reductions
                    // above: self-play +27 and +47 Elo over 2 x 104 games at
                    // 500 ms (each alone: +27, +20, +40 in Renju; in freestyle
                    // -14, -14, -42, so Renju only). Far from the
                    // opponent's last stone such a reply rarely holds: two
                    // plies more, from the second move on
                    // ([`COUNTER_FAR_REDUCTION`]).
                    counter_four_reduction(i, far_from(last, p), new_depth)
                } else {
                    0
                };
                self.search_late_move(p, new_depth, r, ply + 1, alpha, beta, cut_node)
            };
            self.board.undo().ok();
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = p;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, p);
                    if score >= beta {
                        if let Some(l) = last {
                            self.counter[me.index()][l.index()] = p;
                        }
                        if self.killers[ply][0] != p {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = p;
                        }
                        let bonus = depth * depth;
                        let hist = &mut self.history[me.index()];
                        hist[p.index()] += bonus;
                        for &q in &quiets_tried {
                            hist[q.index()] -= bonus;
                        }
                        break;
                    }
                }
            }
            if quiet && quiets_tried.len() < quiets_tried.capacity() {
                quiets_tried.push(p);
            }
        }
        if singular_search {
            // A search without the hash move proves only a bound here: not stored.
            return best_score;
        }
        // The first move is never pruned, so a best move always exists.
        debug_assert!(best_move != Pos::NONE);
        let bound = bound_of(best_score, orig_alpha, beta);
        self.shared
            .tt
            .store(hash, ply, best_move, best_score, depth, bound, tt_pv);
        best_score
    }
}

/// Internal iterative reduction: nodes without a hash move from this depth
/// on are searched a ply shallower. From depth 3 instead of 4: self-play
/// Renju +47, freestyle +38; from depth 2: Renju +50 and −44, freestyle −7.
const IIR_DEPTH: i32 = 3;
/// Singular extension: least depth, and margin per ply below the hash
/// move's score. Self-play against dff7109 (with the ply less below):
/// Renju +10, freestyle +3 at 200 ms/move; +54, 0 at 500 ms (a build with
/// an ordering tie-break more: +89, +108). From depth 6 −64 / −7 and from
/// depth 8 −17 / −3 against depth 7; margin 4 0 / +21; two plies of
/// extension −61 Renju at 500 ms.
const SE_DEPTH: i32 = 7;
const SE_MARGIN: Score = 2;
/// Fail-high reduction: margin per ply of the static value above
/// beta at an expected cut node.
const FAIL_HIGH_MARGIN: Score = 20;
/// Reverse futility pruning: deepest remaining depth and margin per ply.
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: Score = 120;
/// Quiet moves are skipped at depth 1-2 when the static value plus this (per ply) cannot reach alpha.
const MOVE_FUTILITY_MARGIN: Score = 160;
/// Blocks of a three that make no threat are skipped near the horizon when
/// the static value plus this cannot reach alpha: in Renju at depth 1-2,
/// this per ply; elsewhere at depth 1 and 2, [`BLOCK_FUTILITY_MARGIN_FREE`]
/// and [`BLOCK_FUTILITY_MARGIN_FREE_2`]. On 10 positions per rule at 300k
/// nodes a block so far below alpha raised it in 0.01 % of cases at depth 1
/// and none at depth 2 in Renju (freestyle at 250: 0.25 % and 0.03 %; at
/// 400, depth 1: 0.10 %), and 65 % and 16 % of the blocks were that far
/// below (freestyle at 400: 58 %). Self-play at
/// 500 ms: Renju +90 (50-28-9 after 87 games) and +37 (30-24-3 after 57);
/// margin 150 -110 (8-16-2 after 26). Freestyle at depth 1-2 with 250 per
/// ply -79 (20-32-2 after 54); at depth 1 with 400 +25 (28-24-4 after 56)
/// and +57 (35-25-2 after 62), +41 over 118.
const BLOCK_FUTILITY_MARGIN: Score = 250;
/// The block futility margins outside Renju, at depth 1 and depth 2. At
/// depth 2 with 600 (where 250 per ply, 500, was wrong in 0.03 % of the
/// logged cases): self-play at 500 ms +21 (52-46-2) and +25 (50-43-5 after
/// 98), +23 over 198.
const BLOCK_FUTILITY_MARGIN_FREE: Score = 400;
const BLOCK_FUTILITY_MARGIN_FREE_2: Score = 600;

/// Is a block that makes no threat at a node of `depth`, whose static value
/// is `static_eval`, too far below `alpha` to search (see [`BLOCK_FUTILITY_MARGIN`])?
fn block_futile(renju: bool, depth: i32, static_eval: Score, alpha: Score) -> bool {
    if renju {
        depth <= 2 && static_eval + BLOCK_FUTILITY_MARGIN * depth <= alpha
    } else {
        match depth {
            1 => static_eval + BLOCK_FUTILITY_MARGIN_FREE <= alpha,
            2 => static_eval + BLOCK_FUTILITY_MARGIN_FREE_2 <= alpha,
            _ => false,
        }
    }
}

/// Threes (making no four and blocking nothing) are skipped at depth 1
/// when the static value plus this cannot reach alpha: in Renju
/// [`THREE_FUTILITY_MARGIN`], elsewhere [`THREE_FUTILITY_MARGIN_FREE`].
/// Logged on 20 game positions per rule at 1 s (non-PV, not facing a
/// three, not the first move): of the threes tried at depth 1 so far below
/// alpha, 1 in 19,000 raised it in Renju (400; 300-400 below: 1 in 1,500)
/// and 1 in 3,500 in freestyle (800); closer to alpha 0.2-1 % did. In
/// Renju they were a quarter of the depth-1 moves tried. Self-play at
/// 250 ms, 100 games a run: with 400, Renju +21 (51-45-4) and +45
/// (52-39-9), freestyle with 800 +14 (50-46-4) and +38 (54-43-3); Renju
/// with 300 against 400 +38 (54-43-3) and +63 (55-37-8); freestyle with
/// 600 against 800 +17 (49-44-7) and +14 (49-45-6). In Renju the steps
/// did not add up: against the search without the rule +4 over 700 games.
const THREE_FUTILITY_MARGIN: Score = 300;
const THREE_FUTILITY_MARGIN_FREE: Score = 600;

/// Is a three (see [`THREE_FUTILITY_MARGIN`]) at a node of `depth`, whose
/// static value is `static_eval`, too far below `alpha` to search?
fn three_futile(renju: bool, depth: i32, static_eval: Score, alpha: Score) -> bool {
    let margin = if renju {
        THREE_FUTILITY_MARGIN
    } else {
        THREE_FUTILITY_MARGIN_FREE
    };
    depth == 1 && static_eval + margin <= alpha
}

/// Null move: least depth in Renju and in the other rules, and base
/// reduction (plus a quarter of the depth). A base of 4 instead of 2 scored
/// +27 and +30 Elo in Renju, +21 and +24 in freestyle in self-play; 3, 5
/// and 6 did not do better (docs/strength.md). Outside Renju a pass tried
/// from depth 8 only (about as seldom as Rapfi tries one) scored +45 and +28
/// at 250 ms/move against depth 3 (no null move at all: +3 against depth
/// 8); in Renju it lost 28.
const NULL_MIN_DEPTH_RENJU: i32 = 3;
const NULL_MIN_DEPTH: i32 = 8;
const NULL_REDUCTION: i32 = 4;

/// The least depth at which a null move is tried under `rule`.
fn null_min_depth(rule: Rule) -> i32 {
    if rule.has_forbidden() {
        NULL_MIN_DEPTH_RENJU
    } else {
        NULL_MIN_DEPTH
    }
}

/// Late-move pruning: at depth d <= LMP_DEPTH only the first LMP_COUNT[d] moves are tried
/// (quiet ones past that are skipped).
const LMP_DEPTH: i32 = 4;
const LMP_COUNT: [usize; 5] = [0, 6, 10, 16, 24];
/// Renju: quiet moves from this index on at non-PV nodes get one more ply of reduction.
const LATE_MOVE: usize = 6;
/// Non-quiet moves from this index on at quiet non-PV nodes are reduced: the
/// logarithmic amount less one, at least one ply.
const TACTICAL_LATE_MOVE: usize = 3;
/// Defending an open three with at most this many replies costs no depth.
const DEFEND_EXTENSION_MOVES: usize = 5;
/// Outside Renju an open-three defence with at most this many replies at the
/// horizon is searched, not evaluated (5 was not measured there).
const HORIZON_DEFENCE_MOVES: usize = 4;
/// A reduced late move whose score beat alpha by more than this, plus this
/// per ply of reduction, is searched again a ply deeper (Renju only).
/// Self-play at 500 ms: Renju +30 (50-41-13) and +17 (48-43-13), +24 over
/// 208 games; freestyle -45 (41-54-5).
const LMR_DEEPER_MARGIN: Score = 60;
const LMR_DEEPER_PER_PLY: Score = 20;
/// Moves ordered below this `move_score` (and not blocks, see [`is_block`])
/// are quiet.
const QUIET_ORDER: Score = 40;
/// Renju's [`QUIET_ORDER`]: one more, so that a point where the opponent
/// would make a plain three (worth 40 to take), which is no block in Renju,
/// is quiet when it makes nothing of the mover's own (history moves the
/// line either way, as for every move).
const QUIET_ORDER_RENJU: Score = 41;
/// A move's ordering key is its `move_score` times this, plus a history term
/// (at most 2^14) in the tree: the shape decides, history breaks near-ties.
const SHAPE_WEIGHT: i32 = 16;

/// The first moves of a node are picked one by one (the best of those left);
/// the rest are sorted at once.
const PICKED_MOVES: usize = 3;

/// Sort key of a scored move: higher score first, then the lower point (a
/// total order, so picking and sorting agree).
fn move_order_key(m: &(Pos, i32)) -> (std::cmp::Reverse<i32>, Pos) {
    (std::cmp::Reverse(m.1), m.0)
}

/// Moves the best move of `moves` (by [`move_order_key`]) to the front.
fn pick_best(moves: &mut [(Pos, i32)]) {
    let best = (0..moves.len()).min_by_key(|&j| move_order_key(&moves[j]));
    if let Some(j) = best {
        moves.swap(0, j);
    }
}

/// Is `p` a quiet move for `me` (late-move pruned and reduced), given its
/// ordering score `order` (`move_score` x [`SHAPE_WEIGHT`], plus history in the tree)? One
/// ordered below [`QUIET_ORDER`] ([`QUIET_ORDER_RENJU`]) or, in Renju, a lone
/// four (the forced block costs the opponent no depth), unless it `blocks`
/// the opponent's three.
fn is_quiet(board: &Board, p: Pos, me: Color, order: i32, blocks: bool) -> bool {
    let renju = board.rule().has_forbidden();
    let lone_four = renju && board.threat(p, me) == Threat::Four;
    let quiet_order = if renju {
        QUIET_ORDER_RENJU
    } else {
        QUIET_ORDER
    };
    (order < quiet_order * SHAPE_WEIGHT || lone_four) && !blocks
}

/// Does taking a point where the opponent has the threat `opp` count as a
/// block in the tree (never quiet; skipped near the horizon only far below
/// alpha, [`block_futile`])? Outside Renju a point of a three or better;
/// in Renju only of more than a plain three (three-plus, 3-3, four, ...):
/// a plain three's point is ordered by its value like any other, quiet
/// when it makes nothing of the mover's own (self-play at 250 ms, 100 games
/// a run: Renju +49, −3.5, +38, +28 over 300; freestyle −31, −14).
fn is_block(board: &Board, opp: Threat) -> bool {
    if board.rule().has_forbidden() {
        opp >= Threat::ThreePlus
    } else {
        opp.is_three_or_better()
    }
}

/// Renju, facing an open three: the extra reduction of a reply that does
/// not block the three (a counter-four) more than [`FAR_DISTANCE`] points
/// from the opponent's last stone (as a rule the one that made the three;
/// Rapfi's "useless defence"). In a log of 30 game positions at 1 s the
/// replies more than 4 points away (57 % of the late counter-fours at depth
/// 3-6) raised alpha once in 270 at depth 3-4 and once in 1,050 at depth
/// 5-6, the nearer ones once in 130 and 150. Self-play at 250 ms, 100
/// games a run: two plies +28 (`renju15-rapfi.txt`), +31 (RIF), +24
/// (`renju15-rapfi.txt`): +28 over 300 (at more than 4 points); one ply
/// +70, -24 (+22 over 200); three plies +7; one ply in freestyle -24.
const COUNTER_FAR_REDUCTION: i32 = 2;

/// Renju, facing an open three: the reduction of the `i`-th reply (not the
/// first), one that blocks nothing, `far` from the opponent's last stone or
/// not, whose child has `new_depth` left: a ply from the third move on, and
/// [`COUNTER_FAR_REDUCTION`] more when far; the child keeps at least a ply.
fn counter_four_reduction(i: usize, far: bool, new_depth: i32) -> i32 {
    let near = if i >= 2 { 1 } else { 0 };
    let r = if far {
        near + COUNTER_FAR_REDUCTION
    } else {
        near
    };
    r.clamp(0, (new_depth - 1).max(0))
}

/// A point more than this many king moves from a stone is far from it. 3
/// against 4 (the counter-four reduction for more replies; self-play at
/// 250 ms, Renju): +45 (54-41-5, `renju15-rapfi.txt`), +17 (50-45-5, RIF),
/// +10 (50-47-3, `renju15-rapfi.txt`): +24 over 300.
const FAR_DISTANCE: usize = 3;

/// Is `p` far ([`FAR_DISTANCE`]) from `last`, the opponent's last stone
/// (never after a pass)?
fn far_from(last: Option<Pos>, p: Pos) -> bool {
    last.is_some_and(|q| q.king_distance(p) > FAR_DISTANCE)
}

/// Late-move reductions of quiet moves in the tree are ln(depth) · ln(move
/// index) divided by this, rounded. 1.6 instead of 2 (a ply more for depth 6
/// and the 10th move, depth 4 and the 20th): self-play at 250 ms Renju +24
/// and +21, freestyle +10 and +3.5 (over 200 games each: +22 and +7). In the
/// seventh session, with a search that had no PV flag in its table entries,
/// 1.5 lost 14 and 17.
const LMR_DIVISOR: f32 = 1.6;

/// The divisor of the tactical reduction (late threes, fours and blocks at
/// quiet non-PV nodes) and of Renju's root reduction: these keep 2 when
/// the quiet moves took 1.6. Self-play at 250 ms against 1.6 for all: Renju
/// +21 and +3 (+12 over 200 games), freestyle 0 over 100; against Rapfi in
/// Renju every reduction at / 2 held 30 % over 120 games, at / 1.6 23 % over 90.
const TACTICAL_LMR_DIVISOR: f32 = 2.0;

/// Late tactical moves (threes, fours, blocks; see the move loop) at a
/// node whose static value is this much per ply below alpha get a ply more
/// of reduction (Renju). Logged on 30 game positions per rule at 1 s
/// (non-PV nodes of depth 3 or more not facing a three, from the 4th move
/// on): such moves so far below raised alpha once in 1,400 (Renju) and
/// 3,500 (freestyle), 0-50 a ply below once in 250-300, above alpha once
/// in 60; they were 47 % and 67 % of those moves. Self-play at 250 ms, 100
/// games a run: Renju +45 (56-43-1) and +103 (61-32-7), +74 over 200;
/// freestyle +103 (63-34-3) and +10 (47-44-9), +56 over 200. At 25 a ply
/// Renju was -7 over 200 against 50.
const TACTICAL_FAR_MARGIN: Score = 50;
/// Freestyle's margin: 25 against 50 won +24 (51-44-5), +17 (52-47-1),
/// +43 (54-42-4), +28 over 300 games (25-50 a ply below alpha such moves
/// raised alpha once in 430-920 at depth 3-6 in freestyle, once in 390-490
/// in Renju).
const TACTICAL_FAR_MARGIN_FREE: Score = 25;
/// Exact five's margin: at 50 the ply more lost (-28, -31: -30 over 200
/// games); at 100, against none, it won +28 (51-43-6) and +38 (54-43-3),
/// +33 over 200.
const TACTICAL_FAR_MARGIN_EXACT: Score = 100;

/// The margin per ply below alpha from which late tactical moves get a ply
/// more of reduction under `rule`, if any (Caro: none; at 50 it lost 35
/// over 109 games, at 100 it was +3 over 97).
fn tactical_far_margin(rule: Rule) -> Option<Score> {
    match rule {
        Rule::Renju => Some(TACTICAL_FAR_MARGIN),
        Rule::Freestyle => Some(TACTICAL_FAR_MARGIN_FREE),
        Rule::Standard => Some(TACTICAL_FAR_MARGIN_EXACT),
        Rule::Caro | Rule::CaroExact => None,
    }
}

/// The reduction of a late tactical move under `rule`, the `i`-th at a
/// node of `depth` whose children have `new_depth` left, with static value
/// `static_eval` and window floor `alpha`: the logarithmic amount less one,
/// at least one ply, and a ply more when the static value is the rule's
/// margin a ply below alpha ([`tactical_far_margin`]); the child keeps at
/// least one ply (unless one was all it had).
fn tactical_reduction(
    rule: Rule,
    depth: i32,
    new_depth: i32,
    i: usize,
    static_eval: Score,
    alpha: Score,
) -> i32 {
    let most = (new_depth - 1).max(1);
    let r = (reduction(depth, i, TACTICAL_LMR_DIVISOR) - 1).clamp(1, most);
    let far = tactical_far_margin(rule).is_some_and(|m| static_eval + m * depth <= alpha);
    if far { (r + 1).min(most) } else { r }
}

/// At a PV node (not facing a three) the index from which tactical moves
/// (not the hash move, a killer or the countermove) are reduced under
/// `rule` ([`pv_tactical_reduction`]), if they are: Renju from the 5th
/// move, freestyle from the 7th. Self-play at 250 ms, 100 games a run:
/// Renju from the 5th +59 (58-41-1, `renju15-rapfi.txt`), +35 (51-41-8,
/// RIF): +47 over 200; from the 4th against the 5th +42, -7. Freestyle
/// from the 5th +14 (48-44-8, `freestyle15-rapfi.txt`), -45 (42-55-3,
/// `freestyle15.txt`); from the 7th +21 (49-43-8, `freestyle15-rapfi.txt`),
/// +49 (53-39-8, `freestyle15.txt`): +35 over 200. Exact five from the
/// 7th -31 (43-52-5); Caro not measured.
fn pv_tactical_late_move(rule: Rule) -> Option<usize> {
    match rule {
        Rule::Renju => Some(4),
        Rule::Freestyle => Some(6),
        Rule::Standard | Rule::Caro | Rule::CaroExact => None,
    }
}

/// The reduction of a late tactical move at a PV node under `rule`, the
/// `i`-th at a node of `depth` whose children have `new_depth` left: the
/// tactical reduction of a non-PV node ([`tactical_reduction`]) less one
/// ply, so nothing for the early and shallow ones. Until the forty-seventh
/// session PV nodes searched every tactical move to full depth.
fn pv_tactical_reduction(
    rule: Rule,
    depth: i32,
    new_depth: i32,
    i: usize,
    static_eval: Score,
    alpha: Score,
) -> i32 {
    (tactical_reduction(rule, depth, new_depth, i, static_eval, alpha) - 1).max(0)
}

/// Late-move reduction for the `i`-th move at `depth`: ln(depth) · ln(i) / `divisor`, rounded.
fn reduction(depth: i32, i: usize, divisor: f32) -> i32 {
    let r = (depth as f32).ln() * (i as f32).ln() / divisor + 0.5;
    r as i32
}

/// Quiescence: plain fours are tried down to this depth, below it only
/// fours with a two, a three or a four beside them (Rapfi's `DEPTH_QVCF_FULL`).
const QUIESCE_PLAIN_FOURS: i32 = -1;
/// Quiescence tries at most this many fours at a node.
const QUIESCE_MAX_FOURS: usize = 32;
/// Quiescence delta pruning: a non-PV node whose static value is more than
/// this margin below alpha tries no four. The margin shrinks with the depth
/// below the horizon (by [`QUIESCE_DELTA_PER_PLY`]) down to
/// [`QUIESCE_DELTA_MIN`].
const QUIESCE_DELTA: Score = 400;
const QUIESCE_DELTA_PER_PLY: Score = 20;
const QUIESCE_DELTA_MIN: Score = 150;

/// The quiescence delta margin at `depth` (<= 0).
fn quiesce_delta(depth: i32) -> Score {
    (QUIESCE_DELTA + QUIESCE_DELTA_PER_PLY * depth).max(QUIESCE_DELTA_MIN)
}

/// Is `p` near `own`, the mover's own last stone, for the quiescence search:
/// within the 5x5 square around it, or on one of its four lines at most four
/// points away (Rapfi's neighbourhood for quick VCF moves)?
fn near_own_last(own: Pos, p: Pos) -> bool {
    let dx = p.x().abs_diff(own.x());
    let dy = p.y().abs_diff(own.y());
    (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
}

/// Does the table entry `e` settle a node of window (`alpha`, `beta`)?
fn cuts(e: &Entry, alpha: Score, beta: Score) -> bool {
    match e.bound {
        Bound::Exact => true,
        Bound::Lower => e.score >= beta,
        Bound::Upper => e.score <= alpha,
        Bound::None => false,
    }
}

/// The bound a node's best score `best` gives, its window having been
/// (`alpha`, `beta`) when the node began.
fn bound_of(best: Score, alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Is `score` a proven win or loss?
pub fn is_decisive(score: Score) -> bool {
    score.abs() >= WIN_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::threats::play_near_centre;
    use crate::search::vct::VctSolver;

    #[test]
    fn threes_are_futile_only_at_depth_one_and_far_below_alpha() {
        // Renju's margin is 300, the other rules' 600.
        assert!(three_futile(true, 1, -300, 0));
        assert!(!three_futile(true, 1, -299, 0));
        assert!(!three_futile(false, 1, -300, 0));
        assert!(three_futile(false, 1, -600, 0));
        assert!(!three_futile(false, 1, -599, 0));
        // Never deeper, however far below.
        assert!(!three_futile(true, 2, -5000, 0));
        assert!(!three_futile(false, 2, -5000, 0));
    }

    #[test]
    fn late_tactical_moves_far_below_alpha_lose_a_ply_more() {
        // Depth 8, 10th move: ln 8 · ln 10 / 2 rounds to 2, less one.
        assert_eq!(tactical_reduction(Rule::Renju, 8, 7, 10, 0, 0), 1);
        assert_eq!(tactical_reduction(Rule::Renju, 8, 7, 10, -399, 0), 1);
        assert_eq!(tactical_reduction(Rule::Renju, 8, 7, 10, -400, 0), 2);
        // Depth 30, 60th move: 7 less one, and one more far below.
        assert_eq!(tactical_reduction(Rule::Renju, 30, 29, 60, -1499, 0), 6);
        assert_eq!(tactical_reduction(Rule::Renju, 30, 29, 60, -1500, 0), 7);
        // At least a ply, and the child keeps one.
        assert_eq!(tactical_reduction(Rule::Renju, 3, 2, 3, 0, 0), 1);
        assert_eq!(tactical_reduction(Rule::Renju, 3, 2, 3, -5000, 0), 1);
        assert_eq!(tactical_reduction(Rule::Renju, 4, 3, 3, -5000, 0), 2);
        // After the fail-high reduction the child has a ply less to give.
        assert_eq!(tactical_reduction(Rule::Renju, 4, 2, 3, -5000, 0), 1);
        // Freestyle from 25 a ply, exact five from 100; not under Caro.
        assert_eq!(tactical_reduction(Rule::Freestyle, 8, 7, 10, -199, 0), 1);
        assert_eq!(tactical_reduction(Rule::Freestyle, 8, 7, 10, -200, 0), 2);
        assert_eq!(tactical_reduction(Rule::Standard, 8, 7, 10, -799, 0), 1);
        assert_eq!(tactical_reduction(Rule::Standard, 8, 7, 10, -800, 0), 2);
        for rule in [Rule::Caro, Rule::CaroExact] {
            assert_eq!(tactical_reduction(rule, 8, 7, 10, -5000, 0), 1);
        }
    }

    #[test]
    fn pv_nodes_reduce_late_tactical_moves_a_ply_less() {
        let r = Rule::Renju;
        // Depth 8, 10th move: the non-PV node's 1 ply less one.
        assert_eq!(pv_tactical_reduction(r, 8, 7, 10, 0, 0), 0);
        // Far below alpha, 2 less one.
        assert_eq!(pv_tactical_reduction(r, 8, 7, 10, -400, 0), 1);
        // Depth 30, 60th move: 6 less one.
        assert_eq!(pv_tactical_reduction(r, 30, 29, 60, 0, 0), 5);
        // Shallow and early: nothing.
        assert_eq!(pv_tactical_reduction(r, 3, 2, 4, -5000, 0), 0);
        // Freestyle's far margin is its own (25 a ply).
        assert_eq!(pv_tactical_reduction(Rule::Freestyle, 8, 7, 10, -200, 0), 1);
        // From the 5th move in Renju, the 7th in freestyle, not elsewhere.
        assert_eq!(pv_tactical_late_move(Rule::Renju), Some(4));
        assert_eq!(pv_tactical_late_move(Rule::Freestyle), Some(6));
        assert_eq!(pv_tactical_late_move(Rule::Caro), None);
    }

    #[test]
    fn far_counter_fours_lose_two_plies_more_from_the_second_reply() {
        // (move index, far, child depth) -> reduction
        for (i, far, new_depth, r) in [
            (1, false, 6, 0),
            (2, false, 6, 1),
            (5, false, 6, 1),
            (1, true, 6, 2),
            (2, true, 6, 3),
            (9, true, 6, 3),
            (2, true, 3, 2),
            (2, true, 2, 1),
            (2, false, 1, 0),
        ] {
            assert_eq!(
                counter_four_reduction(i, far, new_depth),
                r,
                "{i} {far} {new_depth}"
            );
        }
    }

    #[test]
    fn far_means_more_than_three_king_moves_and_never_after_a_pass() {
        let last = Some(Pos::new(7, 7));
        for (x, y, far) in [
            (11, 7, true),
            (10, 7, false),
            (3, 3, true),
            (4, 4, false),
            (7, 14, true),
            (11, 0, true),
            (10, 4, false),
            (0, 9, true),
            (7, 10, false),
        ] {
            assert_eq!(far_from(last, Pos::new(x, y)), far, "{x},{y}");
        }
        assert!(!far_from(None, Pos::new(0, 0)));
    }

    #[test]
    fn near_own_last_is_the_5x5_square_and_the_lines_to_four() {
        let own = Pos::new(7, 7);
        for (x, y, near) in [
            (5, 5, true),
            (9, 8, true),
            (3, 7, true),
            (7, 11, true),
            (11, 11, true),
            (3, 11, true),
            (2, 7, false),
            (7, 12, false),
            (12, 12, false),
            (10, 8, false),
            (4, 9, false),
        ] {
            assert_eq!(near_own_last(own, Pos::new(x, y)), near, "{x},{y}");
        }
    }

    #[test]
    fn a_win_at_the_horizon_is_a_real_threat_win() {
        // Seeded random games near the centre in four rules. Wherever the
        // side to move is neither decided, forced nor threatened, a
        // quiescence search (over fours alone) that proves a win must name a
        // four near the mover's last stone, and the threat solver must
        // prove the win from there.
        let mut rng = crate::game::Rng::new(0x7175_6965_7363_6521);
        let shared = Shared::for_tests();
        let mut found = [0; 4];
        for game in 0..400 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro][game % 4];
            let mut b = Board::new(15, 15, rule).unwrap();
            b.make(Pos::new(7, 7));
            for _ in 0..40 {
                let me = b.side_to_move();
                let last = b.last_move().map(|(p, _)| p);
                let kind = node_kind(&mut b, last);
                if matches!(
                    kind,
                    NodeKind::WinNow(_) | NodeKind::Lost | NodeKind::WinIn3(_)
                ) {
                    break;
                }
                if kind == NodeKind::Quiet {
                    let mut w = Worker::new(b.clone(), &shared, 0);
                    // As at a non-PV node (no quick VCF in front), whole window.
                    let score = w.quiesce(0, -WIN - 1, WIN + 1, 0, false);
                    if score >= WIN_BOUND {
                        found[game % 4] += 1;
                        let first = w.root_pv()[0];
                        let own = b.history()[b.history().len() - 2].0;
                        assert!(b.threat(first, me) >= Threat::Four && near_own_last(own, first));
                        let mut vct = VctSolver::new(10_000_000, None, None);
                        assert!(
                            vct.solve_deepening(&mut b, 12).is_some(),
                            "{rule:?}: {score} by {:?}\n{}",
                            w.root_pv(),
                            b.diagram()
                        );
                    }
                }
                if !play_near_centre(&mut b, &mut rng) {
                    break;
                }
            }
        }
        assert!(found.iter().all(|&n| n >= 10), "{found:?} wins checked");
    }

    #[test]
    fn a_renju_quiescence_node_with_fours_is_settled_by_the_table_the_second_time() {
        // A quiet Renju position (random games) whose quiescence search
        // tries fours stores its result; the same search again at a non-PV
        // node is cut off by that entry without a node searched. In
        // freestyle nothing is stored.
        let mut rng = crate::game::Rng::new(0x5154_5421);
        let mut checked = [0; 2];
        for game in 0..200 {
            let rule = [Rule::Renju, Rule::Freestyle][game % 2];
            let mut b = Board::new(15, 15, rule).unwrap();
            b.make(Pos::new(7, 7));
            for _ in 0..40 {
                let last = b.last_move().map(|(p, _)| p);
                if node_kind(&mut b, last) == NodeKind::Quiet {
                    let shared = Shared::for_tests();
                    let mut w = Worker::new(b.clone(), &shared, 0);
                    let stand = evaluate(&b);
                    // A window above the static value: only fours can reach it.
                    let (alpha, beta) = (stand + 50, stand + 51);
                    let first = w.quiesce(0, alpha, beta, 0, false);
                    if w.nodes > 0 && rule == Rule::Freestyle {
                        assert!(shared.tt.probe(b.hash(), 0).is_none());
                        checked[1] += 1;
                    } else if w.nodes > 0 {
                        let e = shared.tt.probe(b.hash(), 0).expect("stored");
                        assert_eq!((e.score, e.depth), (first, 0));
                        let bound = if first >= beta {
                            Bound::Lower
                        } else {
                            Bound::Upper
                        };
                        assert_eq!(e.bound, bound);
                        if first >= beta {
                            assert!(b.threat(e.mv, b.side_to_move()) >= Threat::Four);
                        }
                        let nodes = w.nodes;
                        assert_eq!(w.quiesce(0, alpha, beta, 0, false), first);
                        assert_eq!(w.nodes, nodes, "cut off by the entry");
                        checked[0] += 1;
                    }
                }
                if !play_near_centre(&mut b, &mut rng) {
                    break;
                }
            }
        }
        assert!(
            checked.iter().all(|&n| n >= 20),
            "{checked:?} positions checked"
        );
    }
}
