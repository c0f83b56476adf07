//! The `Date` tag's value, `YYYY.MM.DD`, from a clock time.

use std::time::{SystemTime, UNIX_EPOCH};

/// `YYYY.MM.DD` of a time in seconds since 1970 (UTC), as the PGN `Date` tag writes it.
pub fn date_tag(unix_secs: u64) -> String {
    // Civil-from-days (proleptic Gregorian), counting eras of 400 years from 0000-03-01.
    let days = (unix_secs / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Today's `Date` tag, in UTC (`1970.01.01` on a clock set before 1970).
pub fn today_tag() -> String {
    date_tag(SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(86_399), "1970.01.01");
        assert_eq!(date_tag(951_782_400), "2000.02.29");
        assert_eq!(date_tag(951_868_800), "2000.03.01");
        assert_eq!(date_tag(1_735_689_599), "2024.12.31");
        assert_eq!(date_tag(4_107_542_400), "2100.03.01");
    }

    #[test]
    fn today_is_a_date() {
        let d = today_tag();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
        assert_eq!((&d[4..5], &d[7..8]), (".", "."));
    }
}
