//! The ENGINE's Renju forbidden-point checker against the public cases
//! (`shared/testdata/renju-forbidden-public.tsv`, 2,689 cases reproduced by
//! three independent checkers). `forbidden_public.rs` runs the reference
//! checker on the same cases.
//!
//! Kinds: where the case gives one (`overline`, `44`, `33`, `+`-joined for
//! "any of these"), the engine's kind must be one of them. Whatever the case
//! says, a kind the engine reports must also be one the reference finds (a
//! 4-4-3 move is both a double four and a double three; either is right).

mod common;

use common::engine::{engine_board, to_ref};

use common::cases::{CASES_EXPECTED, Case, KindSpec, load_cases};
use common::reference::reference_all_kinds;
use tianyuan::game::Pos;

/// What is wrong with the engine's answer on one case, if anything.
fn judge(case: &Case) -> Option<String> {
    let mut g = case.grid();
    let (qx, qy) = case.query;
    let mut b = engine_board(&g);
    let p = Pos::new(qx, qy);
    let got = b.forbidden_kind(p);
    // Asking again must give the same answer (the board is restored).
    let again = b.forbidden_kind(p);
    if again != got {
        return Some(format!("asked twice: {got:?}, then {again:?}"));
    }
    if got.is_some() != case.forbidden {
        return Some(format!(
            "expected {}, engine says {got:?}",
            if case.forbidden {
                "FORBIDDEN"
            } else {
                "ALLOWED"
            }
        ));
    }
    if let Some(k) = got {
        let k = to_ref(k);
        if let KindSpec::Forbidden(kinds) = &case.kind
            && !kinds.contains(&k)
        {
            return Some(format!(
                "kind {:?} expected, engine says {k:?}",
                case.kind_text
            ));
        }
        let all = reference_all_kinds(&mut g, qx, qy);
        if !all.contains(&k) {
            return Some(format!(
                "engine says {k:?}, the reference finds only {all:?}"
            ));
        }
    }
    None
}

#[test]
fn engine_matches_public_cases() {
    let cases = load_cases();
    assert_eq!(
        cases.len(),
        CASES_EXPECTED,
        "case file holds {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        if let Some(problem) = judge(case) {
            failures.push(case.failure(&problem));
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "engine: {} of {} cases pass",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases fail",
        failures.len(),
        cases.len()
    );
}
