//! Self-play data generation and Texel tuning of the evaluation weights.
