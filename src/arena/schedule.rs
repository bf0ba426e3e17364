//! Which games a run plays, in what order: pairings (match, gauntlet, round robin),
//! rounds of game pairs on one opening with colours swapped.

use std::fmt;

use crate::game::Rng;

/// The shape of a tournament.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TournamentKind {
    /// Exactly two engines.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

impl TournamentKind {
    /// `match`, `gauntlet`, `round-robin` (also `rr`, `roundrobin`).
    pub fn from_name(name: &str) -> Option<TournamentKind> {
        match name.to_ascii_lowercase().as_str() {
            "match" => Some(TournamentKind::Match),
            "gauntlet" => Some(TournamentKind::Gauntlet),
            "round-robin" | "roundrobin" | "rr" => Some(TournamentKind::RoundRobin),
            _ => None,
        }
    }
}

impl fmt::Display for TournamentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TournamentKind::Match => "match",
            TournamentKind::Gauntlet => "gauntlet",
            TournamentKind::RoundRobin => "round-robin",
        })
    }
}

/// The order openings are used in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OpeningOrder {
    /// As in the file, from the first.
    Sequential,
    /// Shuffled (each opening once before any repeats), from a seed.
    Random,
}

/// One game to play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Job {
    /// Game number, from 1, in schedule order.
    pub game: usize,
    /// Pair number, from 0: the two games on one opening with colours swapped.
    pub pair: usize,
    /// Is this the first game of its pair (the pairing's first engine is black)?
    pub first_of_pair: bool,
    /// The engines of the pairing: results are counted from `pairing.0`'s view.
    pub pairing: (usize, usize),
    /// Engine playing black.
    pub black: usize,
    /// Engine playing white.
    pub white: usize,
    /// Opening index.
    pub opening: usize,
    /// Round, from 1.
    pub round: usize,
}

/// The pairings of `n` engines, each `(first, second)`.
pub fn pairings(kind: TournamentKind, n: usize) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::Match => vec![(0, 1)],
        TournamentKind::Gauntlet => (1..n).map(|i| (0, i)).collect(),
        TournamentKind::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// Opening index for each of `rounds` rounds.
pub fn opening_sequence(
    rounds: usize,
    openings: usize,
    order: OpeningOrder,
    seed: u64,
) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(rounds);
    let mut deck: Vec<usize> = Vec::new();
    while out.len() < rounds {
        if deck.is_empty() {
            deck = (0..openings.max(1)).collect();
            if order == OpeningOrder::Random {
                rng.shuffle(&mut deck);
            }
            deck.reverse(); // pop from the end in order
        }
        out.push(deck.pop().expect("refilled"));
    }
    out
}

/// Every game of the run, round by round: in each round every pairing plays a pair of
/// games on the round's opening, the first engine black first. `games` (per pairing)
/// may cut the last pair to a single game.
pub fn schedule(
    kind: TournamentKind,
    engines: usize,
    rounds: usize,
    games: Option<usize>,
    openings: &[usize],
) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut pair = 0;
    let per_pairing = games.unwrap_or(2 * rounds);
    for round in 0..rounds {
        for &(a, b) in &pairings(kind, engines) {
            for g in 0..2 {
                if 2 * round + g >= per_pairing {
                    continue;
                }
                let (black, white) = if g == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    game: jobs.len() + 1,
                    pair,
                    first_of_pair: g == 0,
                    pairing: (a, b),
                    black,
                    white,
                    opening: openings.get(round).copied().unwrap_or(0),
                    round: round + 1,
                });
            }
            pair += 1;
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_by_kind() {
        assert_eq!(pairings(TournamentKind::Match, 2), [(0, 1)]);
        assert_eq!(
            pairings(TournamentKind::Gauntlet, 4),
            [(0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(
            pairings(TournamentKind::RoundRobin, 4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
    }

    #[test]
    fn pairs_swap_colours_on_one_opening() {
        let openings = opening_sequence(3, 2, OpeningOrder::Sequential, 0);
        assert_eq!(openings, [0, 1, 0]);
        let jobs = schedule(TournamentKind::Gauntlet, 3, 3, None, &openings);
        assert_eq!(jobs.len(), 12);
        for pair in jobs.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(
                (pair[0].black, pair[0].white),
                (pair[1].white, pair[1].black)
            );
            assert!(pair[0].first_of_pair && !pair[1].first_of_pair);
            assert_eq!(pair[0].black, pair[0].pairing.0);
        }
        assert_eq!(jobs[4].opening, 1);
        assert_eq!(jobs[11].game, 12);
        // An odd game count ends with a single game.
        let jobs = schedule(TournamentKind::Match, 2, 3, Some(5), &openings);
        assert_eq!(jobs.len(), 5);
        assert!(jobs[4].first_of_pair);
    }

    #[test]
    fn random_order_uses_every_opening_before_repeating() {
        let seq = opening_sequence(20, 10, OpeningOrder::Random, 42);
        let mut first: Vec<usize> = seq[..10].to_vec();
        first.sort();
        assert_eq!(first, (0..10).collect::<Vec<_>>());
        assert_ne!(seq[..10], (0..10).collect::<Vec<_>>()[..]);
        assert_eq!(seq, opening_sequence(20, 10, OpeningOrder::Random, 42));
    }
}
