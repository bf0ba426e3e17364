//! Yixin-Board's position database: labels, values, depths and comments a
//! user attaches to positions while analysing, kept in memory and, once a
//! file is set (`YXSETDATABASE`), saved to it after every change.
//!
//! A position is its stones (colours from the move order: black first), the
//! board size and the rule, not the order of its moves. Yixin-Board asks for
//! the records of every position one move ahead (`YXQUERYDATABASEALL`) and
//! draws their labels on the board's empty points. The search does not read
//! the database.
//!
//! The file is Tianyuan's own text format (one record a line; not Yixin's or
//! Rapfi's database files): a header line, then
//! `P rule w h stones<TAB>label value depth<TAB>comment` for a record and
//! `T rule w h stones<TAB>x,y<TAB>text` for a text shown at a point of a
//! position, where `stones` is `x,y,c;…` (c 1 black, 2 white; `-` for none)
//! and texts have `\\`, tab and line breaks escaped.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::Hash;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The first line of a database file.
const HEADER: &str = "TIANYUAN-DB 1";

/// A position: rule, board size and stones (sorted; colour 1 black, 2 white).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PositionKey {
    rule: u32,
    width: u32,
    height: u32,
    stones: Vec<(u32, u32, u8)>,
}

impl PositionKey {
    /// The position after `moves` (black first, alternating) on a
    /// `width`×`height` board of the protocol rule value `rule`. Errors for a
    /// point off the board or played twice.
    pub fn from_moves(
        rule: u32,
        width: u32,
        height: u32,
        moves: &[(u32, u32)],
    ) -> anyhow::Result<PositionKey> {
        let mut stones = Vec::with_capacity(moves.len());
        for (i, &(x, y)) in moves.iter().enumerate() {
            if x >= width || y >= height {
                bail!("{x},{y} is off the {width}x{height} board");
            }
            if stones.iter().any(|&(sx, sy, _)| (sx, sy) == (x, y)) {
                bail!("{x},{y} is played twice");
            }
            stones.push((x, y, 1 + (i % 2) as u8));
        }
        Ok(PositionKey::new(rule, width, height, stones))
    }

    /// The key of these stones (in any order).
    fn new(rule: u32, width: u32, height: u32, mut stones: Vec<(u32, u32, u8)>) -> PositionKey {
        stones.sort_unstable();
        PositionKey {
            rule,
            width,
            height,
            stones,
        }
    }

    /// The colour to move next: 1 black, 2 white.
    fn to_move(&self) -> u8 {
        1 + (self.stones.len() % 2) as u8
    }

    /// Is `(x, y)` an empty point of the board?
    fn is_empty(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height && !self.stones.iter().any(|s| (s.0, s.1) == (x, y))
    }

    /// The position after the side to move plays the empty point `(x, y)`.
    fn child(&self, x: u32, y: u32) -> PositionKey {
        let mut k = self.clone();
        let at = k.stones.partition_point(|s| (s.0, s.1) < (x, y));
        k.stones.insert(at, (x, y, self.to_move()));
        k
    }

    /// Is this position `other` with more stones (or `other` itself)?
    fn extends(&self, other: &PositionKey) -> bool {
        (self.rule, self.width, self.height) == (other.rule, other.width, other.height)
            && other
                .stones
                .iter()
                .all(|s| self.stones.binary_search(s).is_ok())
    }

    fn write(&self, out: &mut String) {
        let _ = write!(out, "{} {} {} ", self.rule, self.width, self.height);
        if self.stones.is_empty() {
            out.push('-');
        }
        for (i, (x, y, c)) in self.stones.iter().enumerate() {
            let sep = if i > 0 { ";" } else { "" };
            let _ = write!(out, "{sep}{x},{y},{c}");
        }
    }

    fn read(text: &str) -> anyhow::Result<PositionKey> {
        let mut words = text.split(' ');
        let mut number = |what: &str| -> anyhow::Result<u32> {
            let w = words.next().with_context(|| format!("no {what}"))?;
            w.parse().with_context(|| format!("bad {what} {w:?}"))
        };
        let (rule, width, height) = (number("rule")?, number("width")?, number("height")?);
        let list = words.next().context("no stones")?;
        let mut stones = Vec::new();
        if list != "-" {
            for s in list.split(';') {
                let v: Vec<u32> = s
                    .split(',')
                    .map(|n| n.parse())
                    .collect::<Result<_, _>>()
                    .with_context(|| format!("bad stone {s:?}"))?;
                match v[..] {
                    [x, y, c @ 1..=2] if x < width && y < height => stones.push((x, y, c as u8)),
                    _ => bail!("bad stone {s:?}"),
                }
            }
        }
        Ok(PositionKey::new(rule, width, height, stones))
    }
}

/// What the user attached to a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The label Yixin-Board draws (a character code; 0 for none).
    pub label: i32,
    /// A value (e.g. an evaluation the user noted).
    pub value: i32,
    /// A depth (e.g. of the search behind the value).
    pub depth: i32,
    /// A comment.
    pub comment: String,
}

/// Which fields `YXEDITTVDDATABASE` sets (its mask: 1 label, 2 value, 4 depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The mask of fields to set.
    pub mask: u32,
    /// The new label (0 or less: none).
    pub label: i32,
    /// The new value.
    pub value: i32,
    /// The new depth.
    pub depth: i32,
}

/// Which records `YXDELETEDATABASEALL` deletes from a position and every
/// position after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteFilter {
    /// All of them (no argument).
    All,
    /// Those not labelled `W` or `L` (`nonwl`).
    NotWinLoss,
    /// Those labelled `W` or `L` (`wl`).
    WinLoss,
}

impl DeleteFilter {
    fn deletes(self, r: &Record) -> bool {
        let win_loss = r.label == 'W' as i32 || r.label == 'L' as i32;
        match self {
            DeleteFilter::All => true,
            DeleteFilter::NotWinLoss => !win_loss,
            DeleteFilter::WinLoss => win_loss,
        }
    }
}

/// The database: records and point texts, and the file it is saved to.
#[derive(Default, Debug)]
pub struct Database {
    records: HashMap<PositionKey, Record>,
    /// Texts shown at a point of a position (`YXEDITLABELDATABASE`).
    point_texts: HashMap<(PositionKey, u32, u32), String>,
    path: Option<PathBuf>,
}

/// One point of a `YXQUERYDATABASEALL` answer: the position after a move
/// there has a record, or the position has a text at that point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointEntry {
    /// The point.
    pub x: u32,
    /// The point.
    pub y: u32,
    /// The record of the position after the move there (default if none).
    pub record: Record,
    /// The text at the point (empty if none).
    pub text: String,
}

impl Database {
    /// An empty database kept in memory only.
    pub fn new() -> Database {
        Database::default()
    }

    /// How many positions have a record.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Has no position a record?
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The file the database is saved to, if one is set.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Makes `path` the database: its records if the file exists (an
    /// absent file starts empty and is created), saved there from now on.
    /// On an error the database stays as it was.
    pub fn open(&mut self, path: &Path) -> anyhow::Result<()> {
        let mut db = Database {
            path: Some(path.to_path_buf()),
            ..Database::default()
        };
        match std::fs::read_to_string(path) {
            Ok(text) => db.parse(&text)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => db.save()?,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
        *self = db;
        Ok(())
    }

    fn parse(&mut self, text: &str) -> anyhow::Result<()> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, HEADER)) => {}
            _ => bail!("not a Tianyuan database (no {HEADER:?} line)"),
        }
        for (n, line) in lines {
            let at = || format!("line {}", n + 1);
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let (kind, key) = fields[0].split_at_checked(2).with_context(at)?;
            let key = PositionKey::read(key).with_context(at)?;
            match (kind, &fields[1..]) {
                ("P ", [tvd, comment]) => {
                    let v: Vec<i32> = tvd
                        .split(' ')
                        .map(|w| w.parse())
                        .collect::<Result<_, _>>()
                        .with_context(at)?;
                    let [label, value, depth] = v[..] else {
                        bail!("{}: expected label value depth", at());
                    };
                    let comment = unescape(comment);
                    let record = Record {
                        label,
                        value,
                        depth,
                        comment,
                    };
                    self.records.insert(key, record);
                }
                ("T ", [point, text]) => {
                    let (x, y) = point
                        .split_once(',')
                        .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                        .with_context(at)?;
                    self.point_texts.insert((key, x, y), unescape(text));
                }
                _ => bail!("{}: not a record", at()),
            }
        }
        Ok(())
    }

    /// Writes the database to its file (nothing without one): the whole
    /// file anew, through a temporary file renamed over it.
    fn save(&self) -> anyhow::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        write_file(path, &self.to_text(|_| true).0)
    }

    /// The file text of the records and point texts of the positions `keep`
    /// picks, and how many records it holds.
    fn to_text(&self, keep: impl Fn(&PositionKey) -> bool) -> (String, usize) {
        let mut out = String::from(HEADER);
        out.push('\n');
        let mut records: Vec<_> = self.records.iter().filter(|r| keep(r.0)).collect();
        records
            .sort_by(|a, b| (a.0.stones.len(), &a.0.stones).cmp(&(b.0.stones.len(), &b.0.stones)));
        for (key, r) in &records {
            out.push_str("P ");
            key.write(&mut out);
            let _ = writeln!(
                out,
                "\t{} {} {}\t{}",
                r.label,
                r.value,
                r.depth,
                escape(&r.comment)
            );
        }
        let mut texts: Vec<_> = self.point_texts.iter().filter(|t| keep(&t.0.0)).collect();
        texts.sort_by(|a, b| (&a.0.0.stones, a.0.1, a.0.2).cmp(&(&b.0.0.stones, b.0.1, b.0.2)));
        for ((key, x, y), text) in texts {
            out.push_str("T ");
            key.write(&mut out);
            let _ = writeln!(out, "\t{x},{y}\t{}", escape(text));
        }
        (out, records.len())
    }

    /// Writes the records (and point texts) to the text file `path`, in the
    /// database file's own format: all of them, or with `only` = (rule,
    /// width, height) those of that rule and board size (Yixin-Board's
    /// `YXDBTOTXT` and `YXDBTOTXTALL`). Returns how many records it wrote.
    pub fn export(&self, path: &Path, only: Option<(u32, u32, u32)>) -> anyhow::Result<usize> {
        let (text, n) = self.to_text(|k| only.is_none_or(|o| o == (k.rule, k.width, k.height)));
        write_file(path, &text)?;
        Ok(n)
    }

    /// Adds the records and point texts of the text file `path` (written by
    /// [`Database::export`], or a database file) to the database, replacing
    /// those of the same positions, and saves (Yixin-Board's `YXTXTTODB`).
    /// Returns how many records it read. On an error nothing changes.
    pub fn import(&mut self, path: &Path) -> anyhow::Result<usize> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut read = Database::default();
        read.parse(&text)?;
        let n = read.records.len();
        // What the import replaces, to put back if the save fails (only the
        // imported positions are copied, not the whole database).
        let records_before = insert_all(&mut self.records, read.records);
        let texts_before = insert_all(&mut self.point_texts, read.point_texts);
        if let Err(e) = self.save() {
            undo_inserts(&mut self.records, records_before);
            undo_inserts(&mut self.point_texts, texts_before);
            return Err(e);
        }
        Ok(n)
    }

    /// The record of `key`, if it has one.
    pub fn get(&self, key: &PositionKey) -> Option<&Record> {
        self.records.get(key)
    }

    /// The text at a point of `key`'s position (empty if none).
    pub fn point_text(&self, key: &PositionKey, x: u32, y: u32) -> &str {
        self.point_texts
            .get(&(key.clone(), x, y))
            .map_or("", String::as_str)
    }

    /// Every empty point of `key`'s position whose child position has a
    /// record or which has a text, in row order.
    pub fn children(&self, key: &PositionKey) -> Vec<PointEntry> {
        let mut found = Vec::new();
        for y in 0..key.height {
            for x in 0..key.width {
                if !key.is_empty(x, y) {
                    continue;
                }
                let record = self.records.get(&key.child(x, y));
                let text = self.point_text(key, x, y);
                if record.is_some() || !text.is_empty() {
                    found.push(PointEntry {
                        x,
                        y,
                        record: record.cloned().unwrap_or_default(),
                        text: text.to_string(),
                    });
                }
            }
        }
        found
    }

    /// Sets the fields of `key`'s record that `edit` names (a record is
    /// made if there is none) and saves.
    pub fn edit(&mut self, key: &PositionKey, edit: Edit) -> anyhow::Result<&Record> {
        let r = self.records.entry(key.clone()).or_default();
        if edit.mask & 1 != 0 {
            r.label = edit.label.max(0);
        }
        if edit.mask & 2 != 0 {
            r.value = edit.value;
        }
        if edit.mask & 4 != 0 {
            r.depth = edit.depth;
        }
        self.save()?;
        Ok(&self.records[key])
    }

    /// Sets the comment of `key`'s record and saves.
    pub fn set_comment(&mut self, key: &PositionKey, comment: &str) -> anyhow::Result<()> {
        self.records.entry(key.clone()).or_default().comment = comment.to_string();
        self.save()
    }

    /// Sets the text at the empty point `(x, y)` of `key`'s position (an
    /// empty text removes it) and saves.
    pub fn set_point_text(
        &mut self,
        key: &PositionKey,
        x: u32,
        y: u32,
        text: &str,
    ) -> anyhow::Result<()> {
        if !key.is_empty(x, y) {
            bail!("{x},{y} is not an empty point of the position");
        }
        let at = (key.clone(), x, y);
        if text.is_empty() {
            self.point_texts.remove(&at);
        } else {
            self.point_texts.insert(at, text.to_string());
        }
        self.save()
    }

    /// Deletes `key`'s record and its point texts; returns how many records
    /// went (0 or 1).
    pub fn delete_one(&mut self, key: &PositionKey) -> anyhow::Result<usize> {
        let gone = self.records.remove(key).is_some() as usize;
        self.point_texts.retain(|k, _| &k.0 != key);
        self.save()?;
        Ok(gone)
    }

    /// Deletes the records that `filter` picks of `key`'s position and of
    /// every position after it (with the point texts of the positions whose
    /// record went, or of all of them with [`DeleteFilter::All`]); returns
    /// how many records went.
    pub fn delete_from(
        &mut self,
        key: &PositionKey,
        filter: DeleteFilter,
    ) -> anyhow::Result<usize> {
        let before = self.records.len();
        self.records
            .retain(|k, r| !(k.extends(key) && filter.deletes(r)));
        let records = &self.records;
        self.point_texts.retain(|k, _| {
            !(k.0.extends(key) && (filter == DeleteFilter::All || !records.contains_key(&k.0)))
        });
        self.save()?;
        Ok(before - self.records.len())
    }
}

/// Inserts every entry of `entries` into `map`; returns each key with the
/// value it replaced (`None` if it was new), for [`undo_inserts`].
fn insert_all<K: Eq + Hash + Clone, V>(
    map: &mut HashMap<K, V>,
    entries: HashMap<K, V>,
) -> Vec<(K, Option<V>)> {
    entries
        .into_iter()
        .map(|(k, v)| (k.clone(), map.insert(k, v)))
        .collect()
}

/// Undoes [`insert_all`]: puts back the replaced values, removes the new keys.
fn undo_inserts<K: Eq + Hash, V>(map: &mut HashMap<K, V>, before: Vec<(K, Option<V>)>) {
    for (k, old) in before {
        match old {
            Some(v) => map.insert(k, v),
            None => map.remove(&k),
        };
    }
}

/// Writes `text` to `path` through a temporary file renamed over it.
fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut tmp = path.to_path_buf().into_os_string();
    tmp.push(".tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", path.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(moves: &[(u32, u32)]) -> PositionKey {
        PositionKey::from_moves(0, 15, 15, moves).unwrap()
    }

    fn tag(label: char) -> Edit {
        Edit {
            mask: 1,
            label: label as i32,
            value: 0,
            depth: 0,
        }
    }

    #[test]
    fn a_position_is_its_stones_not_its_move_order() {
        let a = key(&[(7, 7), (8, 8), (6, 6), (9, 9)]);
        let b = key(&[(6, 6), (9, 9), (7, 7), (8, 8)]);
        assert_eq!(a, b);
        // The same points with the colours swapped are another position.
        assert_ne!(a, key(&[(8, 8), (7, 7), (9, 9), (6, 6)]));
        assert!(PositionKey::from_moves(0, 15, 15, &[(7, 7), (7, 7)]).is_err());
        assert!(PositionKey::from_moves(0, 15, 15, &[(15, 0)]).is_err());
    }

    #[test]
    fn children_are_the_positions_one_move_ahead() {
        let mut db = Database::new();
        let root = key(&[(7, 7)]);
        db.edit(&key(&[(7, 7), (8, 8)]), tag('a')).unwrap();
        db.edit(&key(&[(7, 7), (6, 8)]), tag('b')).unwrap();
        // Two moves ahead: not a child.
        db.edit(&key(&[(7, 7), (8, 8), (9, 9)]), tag('c')).unwrap();
        db.set_point_text(&root, 0, 0, "corner").unwrap();
        let kids = db.children(&root);
        let seen: Vec<(u32, u32, i32, &str)> = kids
            .iter()
            .map(|e| (e.x, e.y, e.record.label, e.text.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                (0, 0, 0, "corner"),
                (6, 8, 'b' as i32, ""),
                (8, 8, 'a' as i32, ""),
            ]
        );
        assert!(db.set_point_text(&root, 7, 7, "taken").is_err());
    }

    #[test]
    fn text_files_carry_records_between_databases() {
        let dir = std::env::temp_dir().join(format!("tianyuan-db-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut db = Database::new();
        let a = key(&[(7, 7), (8, 8)]);
        let renju = PositionKey::from_moves(4, 15, 15, &[(7, 7)]).unwrap();
        db.edit(&a, tag('a')).unwrap();
        db.set_comment(&a, "tab\there").unwrap();
        db.set_point_text(&a, 0, 0, "corner").unwrap();
        db.edit(&renju, tag('r')).unwrap();
        // Only the freestyle 15x15 records, then all of them.
        let one = dir.join("one.txt");
        assert_eq!(db.export(&one, Some((0, 15, 15))).unwrap(), 1);
        assert_eq!(db.export(&dir.join("all.txt"), None).unwrap(), 2);
        let mut other = Database::new();
        other.edit(&a, tag('z')).unwrap();
        assert_eq!(other.import(&one).unwrap(), 1);
        // The file's record replaces the one of the same position.
        assert_eq!(other.get(&a), db.get(&a));
        assert_eq!(other.point_text(&a, 0, 0), "corner");
        assert!(other.get(&renju).is_none());
        assert_eq!(other.import(&dir.join("all.txt")).unwrap(), 2);
        assert_eq!(other.get(&renju).unwrap().label, 'r' as i32);
        // A file that is not a database text changes nothing.
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "TIANYUAN-DB 1\nP 0 15 15 7,7,1\tx\n").unwrap();
        assert!(other.import(&bad).is_err());
        assert!(other.import(&dir.join("absent.txt")).is_err());
        assert_eq!(other.len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_import_whose_save_fails_leaves_the_database_as_it_was() {
        let base = std::env::temp_dir().join(format!("tianyuan-db-undo-{}", std::process::id()));
        let (files, gone) = (base.join("files"), base.join("gone"));
        std::fs::create_dir_all(&files).unwrap();
        std::fs::create_dir_all(&gone).unwrap();
        let (a, b) = (key(&[(7, 7), (8, 8)]), key(&[(7, 7), (6, 6)]));
        let mut source = Database::new();
        source.edit(&a, tag('n')).unwrap();
        source.edit(&b, tag('m')).unwrap();
        source.set_point_text(&a, 0, 0, "new").unwrap();
        let text = files.join("import.txt");
        assert_eq!(source.export(&text, None).unwrap(), 2);
        let mut db = Database::new();
        db.open(&gone.join("db.txt")).unwrap();
        db.edit(&a, tag('o')).unwrap();
        db.set_point_text(&a, 0, 0, "old").unwrap();
        // The database's directory disappears: the save after the import fails.
        std::fs::remove_dir_all(&gone).unwrap();
        assert!(db.import(&text).is_err());
        assert_eq!(db.len(), 1);
        assert_eq!(db.get(&a).unwrap().label, 'o' as i32);
        assert!(db.get(&b).is_none());
        assert_eq!(db.point_text(&a, 0, 0), "old");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn edits_set_only_the_masked_fields() {
        let mut db = Database::new();
        let k = key(&[(7, 7)]);
        db.edit(&k, tag('W')).unwrap();
        let r = db
            .edit(
                &k,
                Edit {
                    mask: 2 | 4,
                    label: 'x' as i32,
                    value: -350,
                    depth: 12,
                },
            )
            .unwrap();
        assert_eq!((r.label, r.value, r.depth), ('W' as i32, -350, 12));
        // A label of -1 (Yixin-Board's "no tag") clears it.
        let r = db
            .edit(
                &k,
                Edit {
                    mask: 1,
                    label: -1,
                    value: 0,
                    depth: 0,
                },
            )
            .unwrap();
        assert_eq!(r.label, 0);
    }

    #[test]
    fn deleting_from_a_position_takes_what_follows_it_and_the_filter_chooses() {
        let mut db = Database::new();
        let root = key(&[(7, 7)]);
        let win = key(&[(7, 7), (8, 8)]);
        let plain = key(&[(7, 7), (6, 8)]);
        let deeper = key(&[(7, 7), (6, 8), (5, 5)]);
        let elsewhere = key(&[(3, 3)]);
        for (k, l) in [
            (&root, 'r'),
            (&win, 'W'),
            (&plain, 'p'),
            (&deeper, 'd'),
            (&elsewhere, 'e'),
        ] {
            db.edit(k, tag(l)).unwrap();
        }
        assert_eq!(db.delete_from(&root, DeleteFilter::NotWinLoss).unwrap(), 3);
        assert!(db.get(&win).is_some() && db.get(&elsewhere).is_some());
        assert_eq!(db.delete_from(&root, DeleteFilter::WinLoss).unwrap(), 1);
        assert_eq!(db.len(), 1);
        db.edit(&deeper, tag('d')).unwrap();
        assert_eq!(db.delete_one(&root).unwrap(), 0);
        assert_eq!(db.delete_from(&root, DeleteFilter::All).unwrap(), 1);
        assert_eq!(db.len(), 1);
    }

    #[test]
    fn the_file_keeps_every_record_and_text() {
        let dir = std::env::temp_dir().join(format!("tianyuan-db-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("analysis.db");
        let _ = std::fs::remove_file(&path);
        let mut db = Database::new();
        db.open(&path).unwrap();
        assert!(path.exists(), "an absent file is created");
        let k = key(&[(7, 7), (8, 8)]);
        db.edit(
            &k,
            Edit {
                mask: 7,
                label: 'a' as i32,
                value: 120,
                depth: 9,
            },
        )
        .unwrap();
        db.set_comment(&k, "a comment\twith\\odd\nchars").unwrap();
        db.set_point_text(&key(&[]), 7, 7, "centre").unwrap();
        let mut again = Database::new();
        again.open(&path).unwrap();
        assert_eq!(again.get(&k), db.get(&k));
        assert_eq!(again.point_text(&key(&[]), 7, 7), "centre");
        // A file of something else is refused and the database stays.
        std::fs::write(dir.join("other.db"), "hello\n").unwrap();
        assert!(again.open(&dir.join("other.db")).is_err());
        assert_eq!(again.path(), Some(path.as_path()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
