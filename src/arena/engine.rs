//! One pbrain engine process: spawn, talk, wait with deadlines, kill.
//!
//! A reader thread per engine turns its stdout into a channel of time-stamped lines
//! (and a final end-of-file event), so that every wait has a deadline and a stalled
//! engine can never hang the runner. Another thread drains stderr into the protocol
//! log, so that a chatty engine cannot block on a full pipe.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine has to exit after `END` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(1000);

/// How to start one engine and what to tell it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineConfig {
    /// The name in tables and records (unique in a tournament).
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (default: the runner's).
    pub dir: Option<PathBuf>,
    /// Search threads, sent as `INFO thread_num`.
    pub threads: Option<u32>,
    /// Memory limit in MiB, sent as `INFO max_memory` (bytes).
    pub memory_mb: Option<u64>,
    /// Further `INFO key value` settings, in order.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// A configuration with just a name and a command.
    pub fn new(name: &str, command: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            name: name.to_owned(),
            command: command.into(),
            args: Vec::new(),
            dir: None,
            threads: None,
            memory_mb: None,
            options: Vec::new(),
        }
    }

    /// The engine's own `INFO` settings (after the game's), as `(key, value)`.
    pub fn info_settings(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        out.push((
            "max_memory".to_owned(),
            self.memory_mb
                .map_or(0, |mb| mb.saturating_mul(1 << 20))
                .to_string(),
        ));
        if let Some(t) = self.threads {
            out.push(("thread_num".to_owned(), t.to_string()));
        }
        out.extend(self.options.iter().cloned());
        out
    }
}

/// A per-game protocol log shared by both engines of a game (and their stderr
/// threads). Writes are best effort: a full disk does not stop a game.
#[derive(Clone, Default)]
pub struct ProtocolLog(Option<Arc<Mutex<LogFile>>>);

/// The open log file and when it was started.
pub struct LogFile {
    out: BufWriter<File>,
    start: Instant,
}

impl ProtocolLog {
    /// No log.
    pub fn none() -> ProtocolLog {
        ProtocolLog(None)
    }

    /// A log written to `path` (created or truncated).
    pub fn create(path: &Path) -> io::Result<ProtocolLog> {
        let out = BufWriter::new(File::create(path)?);
        Ok(ProtocolLog(Some(Arc::new(Mutex::new(LogFile {
            out,
            start: Instant::now(),
        })))))
    }

    /// Is anything written?
    pub fn is_enabled(&self) -> bool {
        self.0.is_some()
    }

    /// One line: elapsed ms, who, a direction mark (`>` to the engine, `<` from it,
    /// `!` its stderr, `#` the runner's note) and the text.
    pub fn write(&self, who: &str, mark: char, text: &str) {
        if let Some(log) = &self.0
            && let Ok(mut log) = log.lock()
        {
            let ms = log.start.elapsed().as_millis();
            let _ = writeln!(log.out, "{ms:>8} {who} {mark} {text}");
        }
    }

    /// Flush to disk.
    pub fn flush(&self) {
        if let Some(log) = &self.0
            && let Ok(mut log) = log.lock()
        {
            let _ = log.out.flush();
        }
    }
}

/// Something an engine's reader thread saw.
enum Event {
    /// A line (without its ending), and when it arrived.
    Line(String, Instant),
    /// Standard output closed.
    Eof,
}

/// Why a reply did not come.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    /// Nothing came before the deadline.
    Timeout,
    /// The process closed its output or could not be written to; with its exit
    /// status when known.
    Exited(Option<String>),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Timeout => f.write_str("no reply in time"),
            EngineError::Exited(Some(status)) => write!(f, "exited ({status})"),
            EngineError::Exited(None) => f.write_str("closed its output"),
        }
    }
}

/// A running engine process.
pub struct Engine {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    log: Arc<Mutex<ProtocolLog>>,
    eof: bool,
}

impl Engine {
    /// Starts the engine process. Fails (with the command in the message) when it
    /// cannot be run at all.
    pub fn spawn(config: &EngineConfig) -> io::Result<Engine> {
        let mut cmd = Command::new(&config.command);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        // Its own process group: a kill reaches what a wrapper script started too,
        // and a Ctrl-C in the terminal reaches only the runner, which stops the games.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot start engine {:?} ({}): {e}",
                    config.name,
                    config.command.display()
                ),
            )
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let log = Arc::new(Mutex::new(ProtocolLog::none()));
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name(format!("{}-out", config.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\r', '\n'])
                                .to_owned();
                            if tx.send(Event::Line(line, Instant::now())).is_err() {
                                return;
                            }
                        }
                    }
                }
            })?;
        let err_log = Arc::clone(&log);
        let err_name = config.name.clone();
        thread::Builder::new()
            .name(format!("{}-err", config.name))
            .spawn(move || drain_stderr(stderr, &err_name, &err_log))?;
        Ok(Engine {
            name: config.name.clone(),
            child,
            stdin,
            rx,
            log,
            eof: false,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Directs this engine's traffic (and stderr) to `log`.
    pub fn set_log(&mut self, log: ProtocolLog) {
        if let Ok(mut l) = self.log.lock() {
            *l = log;
        }
    }

    fn note(&self, mark: char, text: &str) {
        if let Ok(l) = self.log.lock() {
            l.write(&self.name, mark, text);
        }
    }

    /// Sends one command line; returns when it was written.
    pub fn send(&mut self, line: &str) -> Result<Instant, EngineError> {
        self.note('>', line);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Exited(None));
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        match ok {
            Ok(()) => Ok(Instant::now()),
            Err(_) => {
                self.stdin = None;
                Err(EngineError::Exited(
                    self.exit_status(Duration::from_millis(100)),
                ))
            }
        }
    }

    /// Discards lines that arrived unasked (logging them).
    pub fn drain(&mut self) {
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Line(l, _) => self.note('<', &format!("{l}    (unexpected, ignored)")),
                Event::Eof => self.eof = true,
            }
        }
    }

    /// The next line that is not a `MESSAGE` or `DEBUG` (those go to the log), by
    /// `deadline`, trimmed, with its arrival time.
    pub fn recv_line(&mut self, deadline: Instant) -> Result<(String, Instant), EngineError> {
        loop {
            if self.eof {
                return Err(EngineError::Exited(
                    self.exit_status(Duration::from_millis(200)),
                ));
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(wait) {
                Ok(Event::Line(line, at)) => {
                    self.note('<', &line);
                    let text = line.trim();
                    let word = text.split_whitespace().next().unwrap_or("");
                    if word.eq_ignore_ascii_case("MESSAGE") || word.eq_ignore_ascii_case("DEBUG") {
                        log::debug!("{}: {text}", self.name);
                        continue;
                    }
                    if text.is_empty() {
                        continue;
                    }
                    return Ok((text.to_owned(), at));
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => self.eof = true,
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
            }
        }
    }

    /// The exit status if the process has ended within `wait`.
    fn exit_status(&mut self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(describe_status(status)),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Kills the process (and its process group) at once and reaps it.
    pub fn kill(&mut self) {
        self.note('#', "killed");
        self.stdin = None;
        #[cfg(unix)]
        if let Ok(None) = self.child.try_wait()
            && let Ok(pid) = i32::try_from(self.child.id())
        {
            // Not reaped yet, so the group id is still this process's.
            // SAFETY: kill(2) with a negative pid signals that process group; no memory
            // is involved.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `END`, gives the engine `grace` to exit, then kills it.
    pub fn quit(mut self, grace: Duration) {
        self.shutdown(grace);
    }

    fn shutdown(&mut self, grace: Duration) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        if self.stdin.is_some() {
            let _ = self.send("END");
            self.stdin = None; // close stdin too: EOF makes most engines exit
        }
        if self.exit_status(grace).is_none() {
            self.kill();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown(QUIT_GRACE);
    }
}

fn drain_stderr(stderr: impl Read, name: &str, log: &Mutex<ProtocolLog>) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if let Ok(l) = log.lock() {
                    l.write(name, '!', line.trim_end());
                }
            }
        }
    }
}

/// `exit code 3`, `signal 9`, …
fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("signal {sig}");
        }
    }
    status.to_string()
}
