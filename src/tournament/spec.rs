//! The match's settings as written on the command line: engine specs, the search limit, SPRT
//! bounds and adjudication rules, each parsed from its `key=value,…` text with a clear refusal.

use std::path::PathBuf;

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI 3.0 (`ucci` → `ucciok`).
    Ucci,
    /// UCI in the Pikafish / Fairy-Stockfish dialect (`uci` → `uciok`).
    Uci,
}

/// One `--engine` argument: how to start the engine and talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in the PGN and the tables.
    pub name: String,
    /// The program to run.
    pub cmd: PathBuf,
    /// Arguments for the program (`arg=…`, repeatable).
    pub args: Vec<String>,
    /// UCCI or UCI.
    pub proto: Protocol,
    /// Whether the engine numbers ranks 1–10 instead of 0–9 (Fairy-Stockfish's UCI mode).
    pub ranks_from_one: bool,
    /// `option.X=Y` pairs, sent with `setoption` in the order given.
    pub options: Vec<(String, String)>,
}

/// Splits `a=1,b=2` into pairs, refusing an item without `=`.
fn pairs<'a>(text: &'a str, what: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    text.split(',')
        .filter(|item| !item.trim().is_empty())
        .map(|item| {
            item.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("bad {what} '{text}': '{item}' is not key=value"))
        })
        .collect()
}

impl EngineSpec {
    /// Parses `name=A,cmd=PATH[,proto=ucci|uci][,ranks=0|1][,arg=X…][,option.X=Y…]`.
    /// The name defaults to the program's file name, the protocol to UCCI.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let (mut name, mut cmd, mut proto, mut ranks) = (None, None, Protocol::Ucci, false);
        let (mut args, mut options) = (Vec::new(), Vec::new());
        for (key, value) in pairs(text, "engine spec")? {
            match key {
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "cmd" if !value.is_empty() => cmd = Some(PathBuf::from(value)),
                "proto" => {
                    proto = match value {
                        "ucci" => Protocol::Ucci,
                        "uci" => Protocol::Uci,
                        _ => {
                            return Err(format!(
                                "bad engine spec '{text}': proto must be ucci or uci, not '{value}'"
                            ))
                        }
                    }
                }
                "ranks" => {
                    ranks = match value {
                        "0" => false,
                        "1" => true,
                        _ => {
                            return Err(format!(
                                "bad engine spec '{text}': ranks must be 0 or 1, not '{value}'"
                            ))
                        }
                    }
                }
                "arg" => args.push(value.to_string()),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(format!("bad engine spec '{text}': unknown or empty key '{key}'")),
                },
            }
        }
        let cmd = cmd.ok_or_else(|| format!("bad engine spec '{text}': cmd=PATH is missing"))?;
        let name = name.unwrap_or_else(|| {
            cmd.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "engine".to_string())
        });
        Ok(EngineSpec { name, cmd, args, proto, ranks_from_one: ranks, options })
    }
}

/// How long each move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock per side: base milliseconds plus an increment after each move.
    Clock {
        /// Starting time in milliseconds.
        base_ms: u64,
        /// Milliseconds added after each move.
        inc_ms: u64,
    },
    /// A fixed number of nodes per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed time per move in milliseconds.
    MoveTime(u64),
}

/// Seconds (`10`, `0.5`) to milliseconds, refusing anything negative or not a number.
fn seconds_to_ms(text: &str, what: &str) -> Result<u64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok((s * 1000.0).round() as u64),
        _ => Err(format!("bad {what} '{text}': expected seconds, such as 10 or 0.5")),
    }
}

impl Limit {
    /// Parses `--tc BASE[+INC]` in seconds (`60+0.6`, `10`).
    pub fn parse_tc(text: &str) -> Result<Limit, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let base_ms = seconds_to_ms(base, "time control")?;
        if base_ms == 0 {
            return Err(format!("bad time control '{text}': the base time must be more than zero"));
        }
        Ok(Limit::Clock { base_ms, inc_ms: seconds_to_ms(inc, "time control")? })
    }

    /// How the limit reads in a PGN `TimeControl` tag and the report.
    pub fn describe(&self) -> String {
        match *self {
            Limit::Clock { base_ms, inc_ms } => {
                format!("{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            Limit::Nodes(n) => format!("nodes={n}"),
            Limit::Depth(d) => format!("depth={d}"),
            Limit::MoveTime(ms) => format!("movetime={ms}ms"),
        }
    }
}

/// SPRT settings: the two hypotheses in Elo and the error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtSpec {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Parses the float value of `key`, naming the setting on failure.
fn number(text: &str, key: &str, value: &str) -> Result<f64, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("bad {text}: {key}={value} is not a number"))
}

impl SprtSpec {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (all four are required).
    pub fn parse(text: &str) -> Result<SprtSpec, String> {
        let what = format!("--sprt '{text}'");
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        for (key, value) in pairs(text, "--sprt")? {
            let slot = match key {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                _ => return Err(format!("bad {what}: unknown key '{key}'")),
            };
            *slot = Some(number(&what, key, value)?);
        }
        let need = |v: Option<f64>, key: &str| v.ok_or_else(|| format!("bad {what}: {key}= is missing"));
        let spec = SprtSpec {
            elo0: need(elo0, "elo0")?,
            elo1: need(elo1, "elo1")?,
            alpha: need(alpha, "alpha")?,
            beta: need(beta, "beta")?,
        };
        if spec.elo1 <= spec.elo0 {
            return Err(format!("bad {what}: elo1 must be above elo0"));
        }
        if !(0.0 < spec.alpha && spec.alpha < 0.5 && 0.0 < spec.beta && spec.beta < 0.5) {
            return Err(format!("bad {what}: alpha and beta must be between 0 and 0.5"));
        }
        Ok(spec)
    }
}

/// `--draw movenumber=…,movecount=…,score=…`: a draw once, from move `movenumber` on, both
/// engines' last `movecount` scores each stayed within `score` centipawns of zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The full move from which adjudication may happen.
    pub move_number: u32,
    /// How many consecutive moves of each engine must qualify.
    pub move_count: u32,
    /// The largest absolute score (centipawns) that counts as drawn.
    pub score: i32,
}

/// `--resign movecount=…,score=…`: a loss for the engine whose last `movecount` scores were all
/// at or below `-score` while its opponent's were all at or above `score`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// How many consecutive moves of each engine must qualify.
    pub move_count: u32,
    /// The margin in centipawns.
    pub score: i32,
}

/// Reads the integer settings named in `keys` from `text`, all required.
fn integers(text: &str, flag: &str, keys: &[&str]) -> Result<Vec<i64>, String> {
    let mut values = vec![None; keys.len()];
    for (key, value) in pairs(text, flag)? {
        let i = keys
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| format!("bad {flag} '{text}': unknown key '{key}'"))?;
        let v: i64 =
            value.parse().map_err(|_| format!("bad {flag} '{text}': {key}={value} is not a whole number"))?;
        if v < 0 {
            return Err(format!("bad {flag} '{text}': {key} may not be negative"));
        }
        values[i] = Some(v);
    }
    keys.iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| format!("bad {flag} '{text}': {k}= is missing")))
        .collect()
}

impl DrawRule {
    /// Parses `movenumber=40,movecount=8,score=10`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let v = integers(text, "--draw", &["movenumber", "movecount", "score"])?;
        if v[1] == 0 {
            return Err(format!("bad --draw '{text}': movecount must be at least 1"));
        }
        Ok(DrawRule { move_number: v[0] as u32, move_count: v[1] as u32, score: v[2] as i32 })
    }
}

impl ResignRule {
    /// Parses `movecount=3,score=600`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let v = integers(text, "--resign", &["movecount", "score"])?;
        if v[0] == 0 {
            return Err(format!("bad --resign '{text}': movecount must be at least 1"));
        }
        Ok(ResignRule { move_count: v[0] as u32, score: v[1] as i32 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec_fields() {
        let s = EngineSpec::parse("name=fsf,cmd=/usr/games/fairy-stockfish,proto=uci,ranks=1,option.Hash=16")
            .unwrap();
        assert_eq!(s.name, "fsf");
        assert_eq!(s.proto, Protocol::Uci);
        assert!(s.ranks_from_one);
        assert_eq!(s.options, vec![("Hash".to_string(), "16".to_string())]);
        let d = EngineSpec::parse("cmd=/bin/eng").unwrap();
        assert_eq!((d.name.as_str(), d.proto, d.ranks_from_one), ("eng", Protocol::Ucci, false));
    }

    #[test]
    fn engine_spec_refusals() {
        assert!(EngineSpec::parse("name=a").unwrap_err().contains("cmd=PATH is missing"));
        assert!(EngineSpec::parse("cmd=x,proto=xboard").unwrap_err().contains("proto must be"));
        assert!(EngineSpec::parse("cmd=x,colour=red").unwrap_err().contains("unknown or empty key 'colour'"));
        assert!(EngineSpec::parse("cmd=x,ranks").unwrap_err().contains("'ranks' is not key=value"));
    }

    #[test]
    fn time_control() {
        assert_eq!(Limit::parse_tc("10+0.1").unwrap(), Limit::Clock { base_ms: 10_000, inc_ms: 100 });
        assert_eq!(Limit::parse_tc("0.5").unwrap(), Limit::Clock { base_ms: 500, inc_ms: 0 });
        assert!(Limit::parse_tc("ten").is_err());
        assert!(Limit::parse_tc("0+1").is_err());
    }

    #[test]
    fn sprt_and_adjudication() {
        let s = SprtSpec::parse("elo0=0,elo1=5,alpha=0.05,beta=0.1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert!(SprtSpec::parse("elo0=0,elo1=5,alpha=0.05").unwrap_err().contains("beta= is missing"));
        assert!(SprtSpec::parse("elo0=5,elo1=0,alpha=0.05,beta=0.05").is_err());
        assert_eq!(
            DrawRule::parse("movenumber=40,movecount=8,score=10").unwrap(),
            DrawRule { move_number: 40, move_count: 8, score: 10 }
        );
        assert_eq!(
            ResignRule::parse("movecount=3,score=600").unwrap(),
            ResignRule { move_count: 3, score: 600 }
        );
        assert!(ResignRule::parse("movecount=3").unwrap_err().contains("score= is missing"));
    }
}
