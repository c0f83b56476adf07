//! Opening books: formats, probing, building.
