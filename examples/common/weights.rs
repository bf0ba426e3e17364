//! Printing fitted weights as Rust array items, shared by the fitting examples.

/// `a` rounded to integers, comma-separated, ready to paste into a weight table.
pub fn rounded_list(a: &[f64]) -> String {
    a.iter()
        .map(|x| format!("{}", x.round() as i64))
        .collect::<Vec<_>>()
        .join(", ")
}
