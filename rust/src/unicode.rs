//! Python-identical character classes over the generated tables (Unicode 15.1, Python 3.13's).

use crate::unicode_tables::{CASEFOLD, WORD_RANGES};

/// Exactly what Python's `re` matches with `\w` in a str pattern (alphanumerics per
/// `str.isalnum`, plus `_`). Not Rust regex's `\w`, which also takes marks and connectors.
pub fn is_word_char(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x80 {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    WORD_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Python's `str.casefold()` (full case folding, at the tables' Unicode version).
pub fn casefold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let cp = c as u32;
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            continue;
        }
        match CASEFOLD.binary_search_by_key(&cp, |&(k, _)| k) {
            Ok(i) => out.push_str(CASEFOLD[i].1),
            Err(_) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_chars_follow_python() {
        for c in ['a', 'Z', '0', '_', 'é', '中', '٣', '²', 'ǅ'] {
            assert!(is_word_char(c), "{c:?} is \\w in Python");
        }
        // Marks and connector punctuation other than '_' are not \w in Python's re.
        for c in ['-', ' ', '.', '/', '\u{301}', '\u{203F}', '\u{200D}', '"'] {
            assert!(!is_word_char(c), "{c:?} is not \\w in Python");
        }
    }

    #[test]
    fn casefold_is_full_folding() {
        assert_eq!(casefold("Straße"), "strasse");
        assert_eq!(casefold("ΣΊΣΥΦΟΣ"), "σίσυφοσ");
        assert_eq!(casefold("ﬁ"), "fi");
        assert_eq!(casefold("中文"), "中文");
    }

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(WORD_RANGES.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(CASEFOLD.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
