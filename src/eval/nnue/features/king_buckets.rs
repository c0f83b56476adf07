//! King buckets: which block of input weights the perspective's king square selects.

use super::unknown_name::UnknownName;

/// How the perspective's king square selects a block of input weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KingBuckets {
    /// One block for every king square.
    Single = 0,
    /// One block per palace rank the king stands on (3).
    Rank = 1,
    /// One block per palace square (9; 6 when mirroring folds the right file onto the left).
    Palace = 2,
}

impl KingBuckets {
    /// How many weight blocks this layout has, with or without mirroring.
    pub const fn count(self, mirror: bool) -> usize {
        match (self, mirror) {
            (KingBuckets::Single, _) => 1,
            (KingBuckets::Rank, _) => 3,
            (KingBuckets::Palace, false) => 9,
            (KingBuckets::Palace, true) => 6,
        }
    }

    /// The block of a king on palace `file` and `rank` (0 to 2 each, in the perspective's
    /// oriented board, after any mirroring).
    #[inline]
    pub fn bucket(self, mirror: bool, file: usize, rank: usize) -> usize {
        match self {
            KingBuckets::Single => 0,
            KingBuckets::Rank => rank,
            KingBuckets::Palace if mirror => rank * 2 + file.min(1),
            KingBuckets::Palace => rank * 3 + file,
        }
    }

    /// Every layout, in file-code order.
    pub const ALL: [KingBuckets; 3] = [KingBuckets::Single, KingBuckets::Rank, KingBuckets::Palace];

    /// The byte that names this layout in a net file.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The layout a net file's byte names.
    pub fn from_code(code: u8) -> Option<KingBuckets> {
        KingBuckets::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Lower-case name, as the command line takes it.
    pub const fn name(self) -> &'static str {
        match self {
            KingBuckets::Single => "single",
            KingBuckets::Rank => "rank",
            KingBuckets::Palace => "palace",
        }
    }

    /// The layout called `name` (`single`, `rank` or `palace`).
    pub fn from_name(name: &str) -> Result<KingBuckets, UnknownName> {
        KingBuckets::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(name)).ok_or_else(|| {
            UnknownName { what: "king buckets", name: name.to_string(), choices: "single, rank or palace" }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_names() {
        assert_eq!(KingBuckets::from_name("Palace"), Ok(KingBuckets::Palace));
        assert!(KingBuckets::from_name("file").unwrap_err().to_string().contains("'file'"));
        for k in KingBuckets::ALL {
            assert_eq!(KingBuckets::from_code(k.code()), Some(k));
        }
        assert_eq!(KingBuckets::from_code(3), None);
    }
}
