//! The text a run prints: the running score line and the final report.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::record::{GameResult, Termination};
use super::stats::{Pentanomial, ResultsTable, Sprt, SprtDecision, SprtModel};
use super::tournament::{Summary, TournamentConfig};

/// An SPRT and where its log-likelihood ratio stands.
#[derive(Clone, Copy, Debug)]
pub struct SprtStatus {
    /// The test.
    pub sprt: Sprt,
    /// The current LLR.
    pub llr: f64,
    /// What it says.
    pub decision: SprtDecision,
}

impl SprtStatus {
    /// The status at `llr`.
    pub fn new(sprt: Sprt, llr: f64) -> SprtStatus {
        SprtStatus {
            sprt,
            llr,
            decision: sprt.decision(llr),
        }
    }

    /// E.g. `SPRT (logistic elo0 0, elo1 5, alpha 0.05, beta 0.05): LLR 2.96 (-2.94, 2.94): H1 accepted`.
    pub fn describe(&self) -> String {
        let s = &self.sprt;
        let model = match s.model() {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
            SprtModel::LogisticApprox => "logistic-approx",
        };
        let verdict = match self.decision {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "no decision",
        };
        format!(
            "SPRT ({model} elo0 {}, elo1 {}, alpha {}, beta {}): LLR {:.2} ({:.2}, {:.2}): {verdict}",
            s.elo0(),
            s.elo1(),
            s.alpha(),
            s.beta(),
            self.llr,
            s.lower_bound(),
            s.upper_bound()
        )
    }
}

/// `A vs B: 12-7-5 (60.4%), Elo +73.1 +/- 120.3, LOS 87.2%` from `a`'s view; with
/// pair counts, their pentanomial line too.
pub fn pairing_line(table: &ResultsTable, a: &str, b: &str, pairs: Option<&Pentanomial>) -> String {
    let h = table.head_to_head(a, b);
    let mut out = format!("{a} vs {b}: {h}");
    if let Some(s) = h.score() {
        let _ = write!(out, " ({:.1}%)", 100.0 * s);
    }
    if let Some(e) = h.elo() {
        let _ = write!(out, ", Elo {:+.1} +/- {:.1}", e.elo, e.margin());
    }
    if h.games() > 0 {
        let _ = write!(out, ", LOS {:.1}%", 100.0 * h.los());
    }
    if let Some(p) = pairs.filter(|p| p.pairs() > 0) {
        let c = p.counts;
        let _ = write!(
            out,
            "\n    pairs [LL, LD, WL+DD, WD, WW] = [{}, {}, {}, {}, {}]",
            c[0], c[1], c[2], c[3], c[4]
        );
        if let Some(e) = p.elo() {
            let _ = write!(out, ", pair Elo {:+.1} +/- {:.1}", e.elo, e.margin());
        }
    }
    out
}

/// The final report.
pub fn render(config: &TournamentConfig, summary: &Summary) -> String {
    let s = &config.settings;
    let mut out = String::new();
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(
        out,
        "{} ({}): {}, {} {}x{}, {}, {} opening(s)",
        config.event,
        config.kind,
        names.join(", "),
        s.rule,
        s.width,
        s.height,
        s.tc,
        config.openings.len()
    );
    let played = summary.records.len();
    let _ = write!(out, "Games: {played} of {} scheduled", summary.scheduled);
    if summary.stopped_early {
        out.push_str(" (stopped early by the SPRT)");
    }
    if summary.interrupted {
        out.push_str(" (interrupted)");
    }
    out.push_str("\n\n");
    out.push_str(&summary.table.render());
    out.push('\n');
    for &((a, b), ref penta) in &summary.pairs {
        let _ = writeln!(
            out,
            "{}",
            pairing_line(&summary.table, names[a], names[b], Some(penta))
        );
    }
    if let Some(status) = &summary.sprt {
        let _ = writeln!(out, "{}", status.describe());
    }
    // How games ended, and who lost by a fault.
    let mut endings: BTreeMap<&str, usize> = BTreeMap::new();
    let mut faults: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (_, r) in &summary.records {
        *endings.entry(r.termination.description()).or_default() += 1;
        let fault = !matches!(
            r.termination,
            Termination::Five | Termination::BoardFull | Termination::Adjudication
        );
        let loser = match r.result {
            GameResult::BlackWin => Some(r.white.as_str()),
            GameResult::WhiteWin => Some(r.black.as_str()),
            _ => None,
        };
        if fault && let Some(l) = loser {
            *faults.entry((l, r.termination.description())).or_default() += 1;
        }
    }
    if !endings.is_empty() {
        let list: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(out, "Endings: {}", list.join(", "));
    }
    if !faults.is_empty() {
        let list: Vec<String> = faults
            .iter()
            .map(|((name, what), n)| format!("{name} lost {n} by {what}"))
            .collect();
        let _ = writeln!(out, "Faults: {}", list.join("; "));
    }
    out
}
