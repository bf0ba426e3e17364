//! The game rules the engine plays and how the protocol names them.

use std::fmt;

use super::pos::Color;

/// A set of winning (and forbidding) rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Five or more in a row wins, for both colours (protocol `rule` 0).
    Freestyle,
    /// Only exactly five wins, for both colours (protocol `rule` 1).
    Standard,
    /// RIF Renju: black wins only with exactly five and has forbidden points;
    /// white wins with five or more (protocol `rule` 4, and 2 as Yixin-Board sends it).
    Renju,
    /// Caro as the Gomocup judge rules it: five or more wins, except an exact five
    /// with opponent stones at both ends (protocol `rule` 8).
    Caro,
    /// Exactly five wins, except one with opponent stones at both ends (protocol `rule` 9).
    CaroExact,
}

impl Rule {
    /// All rules, in a fixed order (used for per-rule tables).
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Index into per-rule tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rule a protocol `INFO rule` value asks for.
    ///
    /// Bits: 1 exactly five, 2 continuous game (ignored; but a bare 2 means Renju as
    /// in Yixin-Board and Rapfi), 4 Renju, 8 Caro.
    pub fn from_protocol(value: i64) -> Result<Rule, RuleError> {
        if !(0..16).contains(&value) {
            return Err(RuleError(value));
        }
        let v = value as u32;
        if v & 4 != 0 {
            if v & 8 != 0 {
                return Err(RuleError(value));
            }
            return Ok(Rule::Renju);
        }
        if v & 8 != 0 {
            return Ok(if v & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            });
        }
        match v {
            0 => Ok(Rule::Freestyle),
            1 | 3 => Ok(Rule::Standard),
            2 => Ok(Rule::Renju),
            _ => Err(RuleError(value)),
        }
    }

    /// The canonical protocol value for this rule.
    pub const fn protocol_value(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// Does `color` win with an overline (six or more) under this rule?
    pub const fn overline_wins(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Caro => true,
            Rule::Standard | Rule::CaroExact => false,
            Rule::Renju => matches!(color, Color::White),
        }
    }

    /// Does an exact five blocked by opponent stones at both ends fail to win?
    pub const fn blocked_five_loses(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroExact)
    }

    /// Can a cell five steps from a point change what a stone there makes
    /// along the line? Only where an overline does not win for someone or
    /// a blocked end counts; in freestyle the nearest four each way decide.
    pub const fn far_cells_matter(self) -> bool {
        !matches!(self, Rule::Freestyle)
    }

    /// Does black have forbidden points?
    pub const fn has_forbidden(self) -> bool {
        matches!(self, Rule::Renju)
    }

    /// A short lower-case name (`freestyle`, `standard`, `renju`, `caro`, `caro-exact`).
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// The rule with this [`name`](Self::name) (also accepts `exact`, `exactfive`).
    pub fn from_name(name: &str) -> Option<Rule> {
        match name.to_ascii_lowercase().as_str() {
            "freestyle" | "gomoku" => Some(Rule::Freestyle),
            "standard" | "exact" | "exactfive" | "exact-five" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro" => Some(Rule::Caro),
            "caro-exact" | "caroexact" => Some(Rule::CaroExact),
            _ => None,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A protocol rule value the engine cannot honour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleError(pub i64);

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported rule {}", self.0)
    }
}

impl std::error::Error for RuleError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_values_map_to_rules() {
        assert_eq!(Rule::from_protocol(0), Ok(Rule::Freestyle));
        assert_eq!(Rule::from_protocol(1), Ok(Rule::Standard));
        assert_eq!(Rule::from_protocol(2), Ok(Rule::Renju));
        assert_eq!(Rule::from_protocol(4), Ok(Rule::Renju));
        assert_eq!(Rule::from_protocol(6), Ok(Rule::Renju));
        assert_eq!(Rule::from_protocol(8), Ok(Rule::Caro));
        assert_eq!(Rule::from_protocol(9), Ok(Rule::CaroExact));
        assert!(Rule::from_protocol(12).is_err());
        assert!(Rule::from_protocol(-1).is_err());
        assert!(Rule::from_protocol(16).is_err());
        for r in Rule::ALL {
            assert_eq!(Rule::from_protocol(r.protocol_value() as i64), Ok(r));
            assert_eq!(Rule::from_name(r.name()), Some(r));
        }
    }
}
