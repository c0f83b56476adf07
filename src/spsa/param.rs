//! One tuned parameter as `--param` gives it: `NAME=START,MIN,MAX,C_END[,R_END]`.

use std::fmt;

/// `R_END` when `--param` leaves it out: fishtest's default.
pub const DEFAULT_R_END: f64 = 0.002;

/// The least `C_END`: the values played are whole numbers, and a smaller step would round the
/// two sides of a pair to the same value.
pub const MIN_C_END: f64 = 0.5;

/// A parameter to tune: where it starts, the range it keeps to, and its two gains.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The engine's name for it (an option, or a name in the tune option's list).
    pub name: String,
    /// The value before tuning.
    pub start: f64,
    /// The least value it may take, played or tuned.
    pub min: f64,
    /// The greatest value it may take.
    pub max: f64,
    /// How far the two sides of a pair differ from the tuned value at the last iteration (each
    /// side by this much, one up and one down): the step the tuner feels the slope with.
    pub c_end: f64,
    /// The learning rate at the last iteration, in units of `c_end²` per point of a pair's result.
    pub r_end: f64,
}

/// Why a `--param` was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamSpecError {
    /// No `=` between the name and the numbers.
    NoName(String),
    /// The name is empty, or has a character that would split an option line or a tune list.
    BadName(String),
    /// Not four or five numbers after the name.
    Count {
        /// The parameter's name.
        name: String,
        /// How many were given.
        given: usize,
    },
    /// A field that is not a finite number.
    NotNumber {
        /// The parameter's name.
        name: String,
        /// The field's text.
        text: String,
    },
    /// MIN is not below MAX, or START lies outside them.
    Range {
        /// The parameter's name.
        name: String,
    },
    /// C_END is below `MIN_C_END`, or R_END is not above zero.
    Gain {
        /// The parameter's name.
        name: String,
    },
    /// The same name twice.
    Repeated(String),
}

impl fmt::Display for ParamSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const FORM: &str = "NAME=START,MIN,MAX,C_END[,R_END]";
        match self {
            ParamSpecError::NoName(text) => write!(f, "--param '{text}': expected {FORM}"),
            ParamSpecError::BadName(name) => write!(
                f,
                "--param '{name}': a parameter's name is one or more characters other than spaces, commas and '='"
            ),
            ParamSpecError::Count { name, given } => {
                write!(f, "--param {name}: expected four or five numbers ({FORM}), got {given}")
            }
            ParamSpecError::NotNumber { name, text } => write!(f, "--param {name}: '{text}' is not a number"),
            ParamSpecError::Range { name } => {
                write!(f, "--param {name}: MIN must be below MAX, and START between them")
            }
            ParamSpecError::Gain { name } => write!(f, "--param {name}: C_END must be at least {MIN_C_END} (the values played are whole numbers) and R_END above zero"),
            ParamSpecError::Repeated(name) => write!(f, "--param {name} is given twice"),
        }
    }
}

impl std::error::Error for ParamSpecError {}

impl ParamSpec {
    /// Parses `NAME=START,MIN,MAX,C_END[,R_END]`.
    pub fn parse(text: &str) -> Result<ParamSpec, ParamSpecError> {
        let (name, numbers) = text.split_once('=').ok_or_else(|| ParamSpecError::NoName(text.to_string()))?;
        let name = name.trim();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',' || c == '=') {
            return Err(ParamSpecError::BadName(name.to_string()));
        }
        let fields: Vec<&str> = numbers.split(',').map(str::trim).collect();
        if !(4..=5).contains(&fields.len()) {
            return Err(ParamSpecError::Count { name: name.to_string(), given: fields.len() });
        }
        let mut values = Vec::with_capacity(5);
        for field in &fields {
            match field.parse::<f64>() {
                Ok(v) if v.is_finite() => values.push(v),
                _ => {
                    return Err(ParamSpecError::NotNumber { name: name.to_string(), text: field.to_string() })
                }
            }
        }
        let spec = ParamSpec {
            name: name.to_string(),
            start: values[0],
            min: values[1],
            max: values[2],
            c_end: values[3],
            r_end: values.get(4).copied().unwrap_or(DEFAULT_R_END),
        };
        if !(spec.min < spec.max && (spec.min..=spec.max).contains(&spec.start)) {
            return Err(ParamSpecError::Range { name: spec.name });
        }
        if !(spec.c_end >= MIN_C_END && spec.r_end > 0.0) {
            return Err(ParamSpecError::Gain { name: spec.name });
        }
        Ok(spec)
    }

    /// Parses every `--param`, refusing a name given twice.
    pub fn parse_all(texts: &[String]) -> Result<Vec<ParamSpec>, ParamSpecError> {
        let mut specs: Vec<ParamSpec> = Vec::with_capacity(texts.len());
        for text in texts {
            let spec = ParamSpec::parse(text)?;
            if specs.iter().any(|s| s.name == spec.name) {
                return Err(ParamSpecError::Repeated(spec.name));
            }
            specs.push(spec);
        }
        Ok(specs)
    }

    /// `value` kept within `min..=max`.
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_reads_with_and_without_its_learning_rate() {
        let spec = ParamSpec::parse("rfp_margin=85,0,1000,10").unwrap();
        assert_eq!(
            spec,
            ParamSpec {
                name: "rfp_margin".into(),
                start: 85.0,
                min: 0.0,
                max: 1000.0,
                c_end: 10.0,
                r_end: DEFAULT_R_END
            }
        );
        let spec = ParamSpec::parse(" lmr_base = -20, -300, 500, 8.5, 0.004 ").unwrap();
        assert_eq!((spec.name.as_str(), spec.start, spec.c_end, spec.r_end), ("lmr_base", -20.0, 8.5, 0.004));
        assert_eq!(spec.clamp(900.0), 500.0);
        assert_eq!(spec.clamp(-301.0), -300.0);
    }

    #[test]
    fn bad_parameters_are_refused_with_what_is_wrong() {
        let refused = |text: &str| ParamSpec::parse(text).unwrap_err().to_string();
        assert_eq!(refused("rfp_margin"), "--param 'rfp_margin': expected NAME=START,MIN,MAX,C_END[,R_END]");
        assert!(refused("=1,0,2,1").contains("a parameter's name"));
        assert!(refused("a b=1,0,2,1").contains("a parameter's name"));
        assert_eq!(
            refused("x=1,0,2"),
            "--param x: expected four or five numbers (NAME=START,MIN,MAX,C_END[,R_END]), got 3"
        );
        assert_eq!(
            refused("x=1,0,2,1,1,1"),
            "--param x: expected four or five numbers (NAME=START,MIN,MAX,C_END[,R_END]), got 6"
        );
        assert_eq!(refused("x=1,0,two,1"), "--param x: 'two' is not a number");
        assert_eq!(refused("x=1,0,inf,1"), "--param x: 'inf' is not a number");
        assert_eq!(refused("x=3,0,2,1"), "--param x: MIN must be below MAX, and START between them");
        assert_eq!(refused("x=1,2,2,1"), "--param x: MIN must be below MAX, and START between them");
        let gain = "--param x: C_END must be at least 0.5 (the values played are whole numbers) and R_END above zero";
        assert_eq!(refused("x=1,0,2,0.4"), gain);
        assert_eq!(refused("x=1,0,2,1,-0.1"), gain);
        assert_eq!(refused("x=1,0,2,1,0"), gain);
        let twice = ParamSpec::parse_all(&["x=1,0,2,1".into(), "x=1,0,3,1".into()]).unwrap_err();
        assert_eq!(twice, ParamSpecError::Repeated("x".into()));
    }
}
