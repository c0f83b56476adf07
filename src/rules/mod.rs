//! Rules: legality verdicts, repetition (perpetual check and chase), game results. The one authority.
