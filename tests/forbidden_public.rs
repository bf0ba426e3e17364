//! The reference Renju checker against the public forbidden-point cases
//! (`shared/testdata/renju-forbidden-public.tsv`). This validates the
//! reference itself; `forbidden_engine.rs` runs the engine on the same cases.

mod common;

use common::cases::{CASES_EXPECTED, KindSpec, load_cases};
use common::reference::{EMPTY, RefVerdict, reference_verdict};

#[test]
fn reference_matches_public_cases() {
    let cases = load_cases();
    assert_eq!(
        cases.len(),
        CASES_EXPECTED,
        "case file holds {} cases",
        cases.len()
    );

    let mut failures = Vec::new();
    let (mut forbidden_cases, mut kinds_checked) = (0, 0);
    for case in &cases {
        let mut g = case.grid();
        let (qx, qy) = case.query;
        assert_eq!(g.get(qx, qy), EMPTY, "{}: query point is occupied", case.id);
        let before = g.clone();
        let verdict = reference_verdict(&mut g, qx, qy);
        assert_eq!(
            g, before,
            "{}: the reference did not restore the board",
            case.id
        );

        let got_forbidden = verdict.forbidden().is_some();
        let mut problem = None;
        if got_forbidden != case.forbidden {
            problem = Some(format!(
                "expected {}, reference says {verdict:?}",
                if case.forbidden {
                    "FORBIDDEN"
                } else {
                    "ALLOWED"
                }
            ));
        } else {
            let kind_ok = match &case.kind {
                KindSpec::Unknown => None,
                KindSpec::Forbidden(kinds) => {
                    Some(verdict.forbidden().is_some_and(|k| kinds.contains(&k)))
                }
                KindSpec::Five => Some(verdict == RefVerdict::Five),
                KindSpec::None => Some(verdict == RefVerdict::Legal),
            };
            if kind_ok.is_some() {
                kinds_checked += 1;
            }
            if kind_ok == Some(false) {
                problem = Some(format!(
                    "kind {:?} expected, reference says {verdict:?}",
                    case.kind_text
                ));
            }
        }
        forbidden_cases += case.forbidden as usize;
        if let Some(p) = problem {
            failures.push(case.failure(&p));
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "reference: {} of {} cases pass ({} FORBIDDEN, kind checked on {})",
        cases.len() - failures.len(),
        cases.len(),
        forbidden_cases,
        kinds_checked
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases fail",
        failures.len(),
        cases.len()
    );
}
