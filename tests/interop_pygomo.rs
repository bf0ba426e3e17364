//! Interoperability through an independent client: the PyPI package
//! `pygomo-lib` (its Gomocup protocol client) plays whole games against the
//! engine binary: engine vs itself and engine vs a random player.
//!
//! `.ci/run` installs the package. Elsewhere, without it, the test says so and
//! passes only when not under CI (`CI` unset); under CI a missing package fails.

use std::process::Command;

fn pygomo_available() -> bool {
    Command::new("python3")
        .args(["-c", "import pygomo"])
        .status()
        .is_ok_and(|s| s.success())
}

fn play(black: &str, white: &str) {
    let out = Command::new("python3")
        .arg("tests/interop/pygomo_game.py")
        .args([
            "--black",
            black,
            "--white",
            white,
            "--turn-ms",
            "300",
            "--seed",
            "7",
        ])
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pygomo game failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = stdout
        .lines()
        .find(|l| l.starts_with("result:"))
        .unwrap_or("");
    assert!(
        result.contains("wins with five") || result.contains("draw"),
        "game did not finish normally: {result}\n{stdout}"
    );
}

#[test]
fn pygomo_lib_plays_whole_games() {
    if !pygomo_available() {
        assert!(
            std::env::var_os("CI").is_none(),
            "pygomo-lib is not installed (.ci/run installs it)"
        );
        eprintln!("pygomo-lib not installed: `pip install pygomo-lib` to run this test");
        return;
    }
    let engine = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    play(engine, engine);
    play("random", engine);
}
