//! `pbrain-tianyuan`: the engine binary speaking the Piskvork protocol on stdin/stdout.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}
