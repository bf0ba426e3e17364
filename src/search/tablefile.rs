//! The transposition table saved to a file and loaded back (Yixin-Board's
//! `YXHASHDUMP` and `YXHASHLOAD`), so that a long analysis can be resumed in
//! another session.
//!
//! A file is a 16-byte header, then the table's entries as
//! [`TranspositionTable::write_entries`] writes them. The header names the
//! format and the game the entries belong to (rule and board size): a
//! position's hash does not include them, and an entry searched under
//! another rule would mislead the search, so such a file is refused.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, bail};

use super::tt::TranspositionTable;
use crate::game::Rule;

/// The first eight bytes of a table file (the last byte is the format's version).
const MAGIC: &[u8; 8] = b"TYTABLE1";

/// The game a table's entries were searched in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableKey {
    /// The rule.
    pub rule: Rule,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
}

impl TableKey {
    fn header(self) -> [u8; 16] {
        let mut h = [0u8; 16];
        h[..8].copy_from_slice(MAGIC);
        h[8] = self.rule.index() as u8;
        h[9] = self.width as u8;
        h[10] = self.height as u8;
        h
    }

    fn describe(self) -> String {
        format!("{} {}x{}", self.rule, self.width, self.height)
    }
}

/// Writes `tt` to a new file at `path` (replacing one that is there) for
/// the game `key`; returns the number of entries written.
///
/// # Errors
///
/// When the file cannot be created or written.
pub fn save(tt: &TranspositionTable, path: &Path, key: TableKey) -> anyhow::Result<u64> {
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut w = BufWriter::new(file);
    let written = (|| {
        w.write_all(&key.header())?;
        let n = tt.write_entries(&mut w)?;
        w.flush()?;
        Ok::<u64, std::io::Error>(n)
    })();
    written.with_context(|| format!("cannot write {}", path.display()))
}

/// Loads the entries of the file at `path` into `tt` (added to what it
/// holds; see [`TranspositionTable::read_entries`]); returns their number.
///
/// # Errors
///
/// When the file cannot be read, is not a table file, was saved for another
/// game than `key`, or is damaged (then the entries before the damage stay).
pub fn load(tt: &TranspositionTable, path: &Path, key: TableKey) -> anyhow::Result<u64> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut r = BufReader::new(file);
    let mut header = [0u8; 16];
    r.read_exact(&mut header)
        .ok()
        .filter(|_| &header[..8] == MAGIC)
        .with_context(|| format!("{} is not a Tianyuan table file", path.display()))?;
    if header != key.header() {
        let saved = Rule::ALL
            .iter()
            .find(|r| r.index() == header[8] as usize)
            .map_or_else(
                || "an unknown game".to_string(),
                |&rule| {
                    TableKey {
                        rule,
                        width: header[9] as usize,
                        height: header[10] as usize,
                    }
                    .describe()
                },
            );
        bail!(
            "{} was saved for {saved}, not for this game ({})",
            path.display(),
            key.describe()
        );
    }
    tt.read_entries(&mut r)
        .with_context(|| format!("{} is damaged", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Pos;
    use crate::search::tt::Bound;

    const FREESTYLE_15: TableKey = TableKey {
        rule: Rule::Freestyle,
        width: 15,
        height: 15,
    };

    fn temp_path(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("tianyuan-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_saved_table_loads_back_for_the_same_game_only() {
        let tt = TranspositionTable::new(1 << 16);
        tt.store(99, 0, Pos::new(7, 7), 42, 5, Bound::Exact, false);
        let path = temp_path("same-game");
        assert_eq!(save(&tt, &path, FREESTYLE_15).unwrap(), 1);

        let other = TranspositionTable::new(1 << 18);
        assert_eq!(load(&other, &path, FREESTYLE_15).unwrap(), 1);
        assert_eq!(other.probe(99, 0).unwrap().score, 42);

        let renju = TableKey {
            rule: Rule::Renju,
            ..FREESTYLE_15
        };
        let fresh = TableKey {
            width: 20,
            height: 20,
            ..FREESTYLE_15
        };
        for key in [renju, fresh] {
            let e = load(&TranspositionTable::new(1 << 16), &path, key).unwrap_err();
            assert!(
                format!("{e:#}").contains("was saved for freestyle 15x15, not for this game"),
                "{e:#}"
            );
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn missing_foreign_and_cut_files_are_errors() {
        let tt = TranspositionTable::new(1 << 16);
        let missing = temp_path("missing");
        let e = load(&tt, &missing, FREESTYLE_15).unwrap_err();
        assert!(format!("{e:#}").starts_with("cannot open"), "{e:#}");

        let foreign = temp_path("foreign");
        std::fs::write(&foreign, b"hello, world").unwrap();
        let e = load(&tt, &foreign, FREESTYLE_15).unwrap_err();
        assert!(
            format!("{e:#}").contains("is not a Tianyuan table file"),
            "{e:#}"
        );

        tt.store(7, 0, Pos::new(1, 1), 1, 1, Bound::Upper, false);
        save(&tt, &foreign, FREESTYLE_15).unwrap();
        let mut bytes = std::fs::read(&foreign).unwrap();
        bytes.pop();
        std::fs::write(&foreign, &bytes).unwrap();
        let e = load(&tt, &foreign, FREESTYLE_15).unwrap_err();
        assert!(
            format!("{e:#}").contains("is damaged: entry 1 is cut short"),
            "{e:#}"
        );
        std::fs::remove_file(&foreign).unwrap();

        let dir = std::env::temp_dir();
        let e = save(&tt, &dir, FREESTYLE_15).unwrap_err();
        assert!(format!("{e:#}").starts_with("cannot create"), "{e:#}");
    }
}
