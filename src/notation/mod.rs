//! Move notation: ICCS, WXF and Chinese; PGN read and write.
