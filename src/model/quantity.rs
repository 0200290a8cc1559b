//! How the reports and diagnostics write quantities: grouped digits, one
//! decimal for small fractional counts, binary byte units. One module so
//! diagnose and report share it without depending on each other.

/// Rows and values per partition shown with one decimal when fractional.
pub fn count(v: f64) -> String {
    if v.is_finite() && v.fract().abs() > 1e-9 && v < 1000.0 {
        format!("{v:.1}")
    } else {
        group_digits(v)
    }
}

/// [`count`] as a `Display` value: formats straight into a message
/// without a `String` of its own per figure.
pub(crate) struct Count(pub f64);

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if v.is_finite() && v.fract().abs() > 1e-9 && v < 1000.0 {
            write!(f, "{v:.1}")
        } else {
            let mut buf = [0u8; 28];
            match grouped(v, &mut buf) {
                Some(text) => f.write_str(text),
                None => f.write_str(&group_digits(v)),
            }
        }
    }
}

/// `v` rounded and grouped by thousands into `buf`, or none when it is
/// not finite or beyond u64 (never a real count; [`group_digits`] then
/// takes the general path).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn grouped(v: f64, buf: &mut [u8; 28]) -> Option<&str> {
    let n = v.round();
    if !n.is_finite() || n.abs() >= 1.8e19 {
        return None;
    }
    let mut m = n.abs() as u64;
    let mut at = buf.len();
    let mut digits = 0;
    loop {
        if digits > 0 && digits % 3 == 0 {
            at -= 1;
            buf[at] = b',';
        }
        at -= 1;
        buf[at] = b'0' + (m % 10) as u8;
        digits += 1;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0.0 {
        at -= 1;
        buf[at] = b'-';
    }
    std::str::from_utf8(&buf[at..]).ok()
}

/// `1,095,005` style grouping for reports.
pub(crate) fn group_digits(v: f64) -> String {
    if !v.is_finite() {
        return "∞".into();
    }
    let n = v.round();
    // Digits from the right into a stack buffer: this runs for every
    // figure of every finding, and formatting an i128 is slow. Values
    // beyond u64 (never real counts) take the general path.
    if n.abs() >= 1.8e19 {
        let n = n as i128;
        let s = n.unsigned_abs().to_string();
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(ch);
        }
        if n < 0 {
            out.insert(0, '-');
        }
        return out;
    }
    let mut buf = [0u8; 28];
    grouped(v, &mut buf).map_or_else(|| "0".to_string(), str::to_string)
}

/// Human-readable bytes: `1.04 MiB`.
pub(crate) fn human_bytes(b: f64) -> String {
    if !b.is_finite() {
        return "∞".into();
    }
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b;
    let mut u = 0;
    while v >= 1024.0 && u < units.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{} B", v.round())
    } else {
        format!("{v:.2} {}", units[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(1_095_005.0), "1,095,005");
        assert_eq!(group_digits(-1234.4), "-1,234");
        assert_eq!(group_digits(999.0), "999");
        assert_eq!(group_digits(f64::INFINITY), "∞");
        assert_eq!(group_digits(-0.4), "0");
        assert_eq!(group_digits(0.0), "0");
        assert_eq!(group_digits(1e20), "100,000,000,000,000,000,000");
    }

    /// `Count` writes what `count` returns.
    #[test]
    fn count_display_matches_count() {
        for v in [
            0.0,
            -0.4,
            2.25,
            3.0,
            999.96,
            1500.5,
            1e12,
            -7e6,
            f64::INFINITY,
            f64::NAN,
            1e20,
        ] {
            assert_eq!(Count(v).to_string(), count(v), "{v}");
        }
    }

    /// The stack-buffer grouping agrees with grouping the decimal text.
    #[test]
    fn grouping_agrees_with_the_decimal_text() {
        let reference = |v: f64| {
            let n = v.round() as i128;
            let s = n.unsigned_abs().to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(ch);
            }
            if n < 0 {
                out.insert(0, '-');
            }
            out
        };
        let mut v = 0.37_f64;
        while v < 1e19 {
            for x in [v, -v, v.floor(), v + 0.5] {
                assert_eq!(group_digits(x), reference(x), "{x}");
            }
            v *= 1.7;
        }
    }

    #[test]
    fn small_fractional_counts_keep_one_decimal() {
        assert_eq!(count(2.25), "2.2");
        assert_eq!(count(3.0), "3");
        assert_eq!(count(1500.5), "1,501");
    }

    #[test]
    fn bytes_use_binary_units() {
        assert_eq!(human_bytes(512.0), "512 B");
        assert_eq!(human_bytes(1024.0 * 1024.0 * 1.04), "1.04 MiB");
        assert_eq!(human_bytes(f64::NAN), "∞");
    }
}
