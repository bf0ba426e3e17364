//! Protocol I/O: the stdin reader thread and the main event loop.
//!
//! The reader thread splits stdin into lines (CR, LF or CR LF), stamps each
//! with its arrival time and hands it to the session, which never blocks for
//! long (searches run on their own threads), so `END` is honoured promptly.

use std::io::Read;
use std::sync::mpsc;
use std::time::Instant;

use super::parser::LineSplitter;
use super::session::{Event, Flow, Options, Output, Session};

/// Runs the protocol on stdin/stdout until `END` or end of input.
pub fn run(options: &Options) {
    let out = Output::stdout();
    let (tx, rx) = mpsc::channel::<Event>();
    let reader_tx = tx.clone();
    std::thread::spawn(move || read_stdin(reader_tx));
    let mut session = Session::new(out, tx, options);
    for event in rx {
        if session.handle(event) == Flow::Exit {
            break;
        }
    }
    // Search threads may still run: leave at once.
    std::process::exit(0);
}

fn read_stdin(tx: mpsc::Sender<Event>) {
    let mut stdin = std::io::stdin().lock();
    let mut splitter = LineSplitter::new();
    let mut buf = [0u8; 4096];
    let mut send = |line: &[u8]| {
        let _ = tx.send(Event::Line(line.to_vec(), Instant::now()));
    };
    loop {
        match stdin.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => splitter.feed(&buf[..n], &mut send),
        }
    }
    splitter.finish(&mut send);
    let _ = tx.send(Event::Eof);
}
