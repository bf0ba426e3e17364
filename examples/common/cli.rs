//! Command-line pieces shared by the solver examples.

use tianyuan::game::Rule;

/// The rule named by an optional protocol `INFO rule` number (freestyle without one).
pub fn rule(arg: Option<String>) -> Rule {
    arg.map(|r| Rule::from_protocol(r.parse().expect("rule number")).expect("rule"))
        .unwrap_or(Rule::Freestyle)
}

/// The environment variable `key` as a number, or `default` when unset or unreadable.
pub fn env_u64(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
