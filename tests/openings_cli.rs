//! `pbrain-tianyuan openings` prints openings the tournament runner loads.

use std::process::Command;

use tianyuan::arena::opening::{OpeningFormat, parse_openings};
use tianyuan::game::Rule;

const ENGINE: &str = env!("CARGO_BIN_EXE_pbrain-tianyuan");

fn run(args: &[&str]) -> std::process::Output {
    Command::new(ENGINE)
        .arg("openings")
        .args(args)
        .output()
        .expect("run pbrain-tianyuan openings")
}

#[test]
fn printed_openings_load_in_the_runner() {
    for (rule, name) in [(Rule::Freestyle, "freestyle"), (Rule::Renju, "renju")] {
        let out = run(&[
            "--rule", name, "--count", "3", "--depth", "3", "--seed", "7",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let openings = parse_openings(&text, "stdout", OpeningFormat::Auto, 15, 15, rule)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(openings.len(), 3, "{text}");
        assert!(openings.iter().all(|o| o.moves.len() == 3));
        // Seeded: the same command prints the same openings.
        let again = run(&[
            "--rule", name, "--count", "3", "--depth", "3", "--seed", "7",
        ]);
        assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    }
}

#[test]
fn bad_settings_are_reported() {
    let out = run(&["--rule", "go", "--count", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown rule"));
    let out = run(&["--stones", "40", "--radius", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("do not fit"));
}
