//! The files a run writes: all games as one SGF collection, a PGN results file for
//! Ordo/BayesElo, one Piskvork `.psq` per game, and optional per-game protocol logs.
//! Files are written as games finish, so an interrupted run keeps what it played.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::engine::ProtocolLog;
use super::record::GameRecord;

/// Where to write what; `None` = not at all.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct OutputPaths {
    /// All games as one SGF collection.
    pub sgf: Option<PathBuf>,
    /// PGN result stubs.
    pub pgn: Option<PathBuf>,
    /// A folder for one `.psq` per game.
    pub psq_dir: Option<PathBuf>,
    /// A folder for one protocol log per game.
    pub log_dir: Option<PathBuf>,
}

impl OutputPaths {
    /// The default layout under `dir`: `games.sgf`, `games.pgn`, `psq/`, and `logs/`
    /// when `logs` is set.
    pub fn in_dir(dir: &Path, logs: bool) -> OutputPaths {
        OutputPaths {
            sgf: Some(dir.join("games.sgf")),
            pgn: Some(dir.join("games.pgn")),
            psq_dir: Some(dir.join("psq")),
            log_dir: logs.then(|| dir.join("logs")),
        }
    }
}

/// The open output files.
pub struct Output {
    paths: OutputPaths,
    sgf: Option<File>,
    pgn: Option<File>,
}

fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn create_file(path: &Path) -> io::Result<File> {
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        fs::create_dir_all(parent).map_err(|e| with_path(parent, e))?;
    }
    OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(path)
        .map_err(|e| with_path(path, e))
}

impl Output {
    /// Creates the folders and (empty) files.
    pub fn open(paths: &OutputPaths) -> io::Result<Output> {
        for dir in [&paths.psq_dir, &paths.log_dir].into_iter().flatten() {
            fs::create_dir_all(dir).map_err(|e| with_path(dir, e))?;
        }
        Ok(Output {
            sgf: paths.sgf.as_deref().map(create_file).transpose()?,
            pgn: paths.pgn.as_deref().map(create_file).transpose()?,
            paths: paths.clone(),
        })
    }

    /// Appends a finished game to every output.
    pub fn write_game(&mut self, game: usize, record: &GameRecord) -> io::Result<()> {
        if let (Some(f), Some(path)) = (&mut self.sgf, &self.paths.sgf) {
            let text = record
                .to_sgf()
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| with_path(path, e))?;
        }
        if let (Some(f), Some(path)) = (&mut self.pgn, &self.paths.pgn) {
            f.write_all(record.to_pgn().as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| with_path(path, e))?;
        }
        if let Some(dir) = &self.paths.psq_dir {
            let path = dir.join(format!(
                "{}.psq",
                file_stem(game, &record.black, &record.white)
            ));
            fs::write(&path, record.to_psq()).map_err(|e| with_path(&path, e))?;
        }
        Ok(())
    }
}

/// The protocol log for game number `game` in `log_dir` (created or truncated), or
/// no log.
pub fn game_log(
    log_dir: Option<&Path>,
    game: usize,
    black: &str,
    white: &str,
) -> io::Result<ProtocolLog> {
    match log_dir {
        None => Ok(ProtocolLog::none()),
        Some(dir) => {
            let path = dir.join(format!("{}.log", file_stem(game, black, white)));
            ProtocolLog::create(&path).map_err(|e| with_path(&path, e))
        }
    }
}

/// `0007-alpha-vs-beta`: the game number and the engines, safe for file names.
pub fn file_stem(game: usize, black: &str, white: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!("{game:04}-{}-vs-{}", clean(black), clean(white))
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_089), (2025, 1, 1));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn stems() {
        assert_eq!(file_stem(7, "new", "base 2/x"), "0007-new-vs-base_2_x");
    }
}
