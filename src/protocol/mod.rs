//! The Piskvork/Gomocup protocol and Yixin-Board extensions: parser, session, I/O.
