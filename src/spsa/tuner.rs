//! The tuned values and their updates: each iteration draws a random direction (every parameter
//! up or down), plays the values moved that way (`+`) against the values moved the other way
//! (`−`), and moves the tuned values towards the side that scored more.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::gains::Gains;
use super::param::ParamSpec;

/// One iteration's pair of engines: the direction and the whole-number values each side plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The iteration (from 0), which sets its gains and its direction.
    pub iteration: u32,
    /// +1 or −1 for each parameter: where the `+` side lies from the tuned value.
    pub direction: Vec<i8>,
    /// The values the `+` side plays.
    pub plus: Vec<i64>,
    /// The values the `−` side plays.
    pub minus: Vec<i64>,
}

/// The parameters, their tuned values and the gains.
#[derive(Clone, Debug)]
pub struct Tuner {
    specs: Vec<ParamSpec>,
    values: Vec<f64>,
    gains: Gains,
    seed: u64,
}

impl Tuner {
    /// A tuner at the parameters' start values.
    pub fn new(specs: Vec<ParamSpec>, gains: Gains, seed: u64) -> Tuner {
        let values = specs.iter().map(|s| s.start).collect();
        Tuner { specs, values, gains, seed }
    }

    /// The same tuner, its values as a saved run left them (kept within each range).
    pub fn with_values(mut self, values: &[f64]) -> Tuner {
        for ((value, saved), spec) in self.values.iter_mut().zip(values).zip(&self.specs) {
            *value = spec.clamp(*saved);
        }
        self
    }

    /// The parameters.
    pub fn specs(&self) -> &[ParamSpec] {
        &self.specs
    }

    /// The tuned values, unrounded.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The tuned values as whole numbers, as an engine would be given them.
    pub fn rounded(&self) -> Vec<i64> {
        self.values.iter().map(|v| v.round() as i64).collect()
    }

    /// Iteration `k`'s pair, from the values as they stand. Its direction depends on the seed and
    /// `k` alone.
    pub fn trial(&self, k: u32) -> Trial {
        let mut rng =
            StdRng::seed_from_u64(self.seed ^ (u64::from(k) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let direction: Vec<i8> = self.specs.iter().map(|_| if rng.gen::<bool>() { 1 } else { -1 }).collect();
        let side = |sign: f64| -> Vec<i64> {
            self.specs
                .iter()
                .zip(&self.values)
                .zip(&direction)
                .map(|((spec, value), &d)| {
                    let moved = value + sign * f64::from(d) * self.gains.perturbation(spec, k);
                    spec.clamp(moved).round() as i64
                })
                .collect()
        };
        Trial { iteration: k, plus: side(1.0), minus: side(-1.0), direction }
    }

    /// Moves the values after `trial`'s pair ended with `result`: the `+` side's wins less its
    /// losses (−2 to 2).
    pub fn apply(&mut self, trial: &Trial, result: i32) {
        for ((value, spec), &d) in self.values.iter_mut().zip(&self.specs).zip(&trial.direction) {
            let moved = *value + self.gains.step(spec, trial.iteration) * f64::from(result) * f64::from(d);
            *value = spec.clamp(moved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, start: f64, c_end: f64, r_end: f64) -> ParamSpec {
        ParamSpec { name: name.into(), start, min: 0.0, max: 200.0, c_end, r_end }
    }

    /// Two games between engines `elo` apart (the first's view), without draws: the first's wins
    /// less its losses.
    fn pair_result(elo: f64, rng: &mut StdRng) -> i32 {
        let p = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        (0..2).map(|_| if rng.gen::<f64>() < p { 1 } else { -1 }).sum()
    }

    /// A model engine whose strength peaks at 120 for the first parameter and 50 for the
    /// second, falling 100 Elo 60 units away; the third does nothing.
    fn strength(values: &[i64]) -> f64 {
        let off = |v: i64, best: f64| (v as f64 - best) / 60.0;
        -100.0 * (off(values[0], 120.0).powi(2) + off(values[1], 50.0).powi(2))
    }

    #[test]
    fn the_tuner_climbs_to_a_model_engines_best_values_from_both_sides() {
        let specs =
            vec![spec("a", 40.0, 8.0, 0.02), spec("b", 150.0, 8.0, 0.02), spec("idle", 100.0, 8.0, 0.02)];
        let iterations = 3000;
        let mut tuner = Tuner::new(specs, Gains::new(iterations), 11);
        let mut rng = StdRng::seed_from_u64(5);
        for k in 0..iterations {
            let trial = tuner.trial(k);
            let result = pair_result(strength(&trial.plus) - strength(&trial.minus), &mut rng);
            tuner.apply(&trial, result);
        }
        let v = tuner.values();
        assert!((v[0] - 120.0).abs() < 15.0, "a ended at {}", v[0]);
        assert!((v[1] - 50.0).abs() < 15.0, "b ended at {}", v[1]);
        // The idle parameter only wanders.
        assert!((v[2] - 100.0).abs() < 30.0, "idle ended at {}", v[2]);
    }

    #[test]
    fn a_trial_straddles_the_values_within_their_ranges_and_its_direction_is_the_seeds() {
        let specs = vec![spec("a", 100.0, 5.0, 0.002), spec("b", 1.0, 5.0, 0.002)];
        let tuner = Tuner::new(specs.clone(), Gains::new(100), 3);
        let trial = tuner.trial(99);
        for i in 0..2 {
            let d = i64::from(trial.direction[i]);
            assert_eq!(trial.plus[i], if i == 0 { 100 + 5 * d } else { (1 + 5 * d).max(0) }, "{trial:?}");
            assert_eq!(trial.minus[i], if i == 0 { 100 - 5 * d } else { (1 - 5 * d).max(0) }, "{trial:?}");
        }
        assert_eq!(Tuner::new(specs.clone(), Gains::new(100), 3).trial(99), trial);
        let directions: Vec<Vec<i8>> = (0..64).map(|k| tuner.trial(k).direction).collect();
        assert!(directions.iter().any(|d| d[0] == 1) && directions.iter().any(|d| d[0] == -1));
        assert!(directions.iter().any(|d| d[0] != d[1]), "the parameters' signs are drawn apart");
        let other_seed: Vec<Vec<i8>> =
            (0..64).map(|k| Tuner::new(specs.clone(), Gains::new(100), 4).trial(k).direction).collect();
        assert_ne!(directions, other_seed);
    }

    #[test]
    fn a_result_moves_each_value_towards_the_side_that_won_by_its_step() {
        let specs = vec![spec("a", 100.0, 4.0, 0.002), spec("b", 100.0, 4.0, 0.002)];
        let gains = Gains::new(10);
        let mut tuner = Tuner::new(specs.clone(), gains, 1);
        let trial = Trial { iteration: 9, direction: vec![1, -1], plus: vec![104, 96], minus: vec![96, 104] };
        tuner.apply(&trial, 2);
        let step = gains.step(&specs[0], 9);
        assert!((step - 0.002 * 4.0).abs() < 1e-12);
        assert_eq!(tuner.values(), &[100.0 + 2.0 * step, 100.0 - 2.0 * step]);
        tuner.apply(&trial, -2);
        tuner.apply(&trial, 0);
        assert_eq!(tuner.values(), &[100.0, 100.0]);
        // Clamped at the range's ends.
        let mut edge = Tuner::new(vec![spec("a", 200.0, 4.0, 50.0)], gains, 1);
        edge.apply(&Trial { iteration: 0, direction: vec![1], plus: vec![200], minus: vec![196] }, 2);
        assert_eq!(edge.values(), &[200.0]);
        assert_eq!(edge.with_values(&[-5.0]).values(), &[0.0]);
    }
}
