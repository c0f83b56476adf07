//! The match runner behind `chariot match`: engine processes, games, clocks, adjudication, statistics.
