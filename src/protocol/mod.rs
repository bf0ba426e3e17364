//! The Piskvork/Gomocup protocol and Yixin-Board extensions: parser, session, I/O.

pub mod command;
pub mod database;
pub mod io;
pub mod parser;
pub mod reply;
pub mod session;
