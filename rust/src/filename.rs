//! Filename stems for curated entries (the `<stem>` of `<stem>.md`, not word stemming): a
//! `remember` op's name cannot leave its directory.
//!
//! NFC, Python's full case folding, then every run of characters that are neither Python `\w`
//! nor `-` becomes one `-`, then `-` is trimmed from both ends. Separators, dots and NUL are
//! never word characters, so `/`, `..` and hidden files cannot survive. Non-ASCII names keep
//! their letters (`José` → `josé`, CJK stays CJK).

use unicode_normalization::UnicodeNormalization;

use crate::error::{Error, Result};
use crate::unicode::{casefold, is_word_char};

/// Stems are cut to this many UTF-8 bytes (at a character boundary): `<stem>.md` must fit
/// NAME_MAX (255 bytes) with room to spare.
pub const DEFAULT_MAX_STEM_BYTES: usize = 120;

pub fn filename_stem(name: &str, max_bytes: usize) -> Result<String> {
    let folded = casefold(&name.nfc().collect::<String>());
    let mut collapsed = String::with_capacity(folded.len());
    let mut in_run = false;
    for c in folded.chars() {
        if is_word_char(c) || c == '-' {
            collapsed.push(c);
            in_run = false;
        } else if !in_run {
            collapsed.push('-');
            in_run = true;
        }
    }
    let mut stem = collapsed.trim_matches('-');
    if stem.len() > max_bytes {
        let mut cut = max_bytes;
        while !stem.is_char_boundary(cut) {
            cut -= 1;
        }
        stem = stem[..cut].trim_end_matches('-');
    }
    if stem.is_empty() {
        return Err(Error::Invalid(
            "name has no word characters to make a filename from".into(),
        ));
    }
    Ok(stem.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> String {
        filename_stem(name, DEFAULT_MAX_STEM_BYTES).unwrap()
    }

    #[test]
    fn examples_from_the_spec() {
        assert_eq!(s("José"), "josé");
        assert_eq!(s("Jose\u{301}"), "josé"); // NFD input composes first
        assert_eq!(s("東京タワー"), "東京タワー");
        assert_eq!(s("../etc"), "etc");
        assert_eq!(s("My  Cat/Tom.md"), "my-cat-tom-md");
        assert_eq!(s("a--b"), "a--b");
    }

    #[test]
    fn empty_results_are_invalid() {
        for bad in ["", "...", "/", "---", " \0 ", "\u{301}"] {
            assert!(
                matches!(filename_stem(bad, 120), Err(Error::Invalid(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn long_names_are_cut_on_a_char_boundary() {
        let stem = filename_stem(&"é".repeat(200), 121).unwrap();
        assert_eq!(stem, "é".repeat(60));
        let stem = filename_stem("ab-cd", 3).unwrap();
        assert_eq!(stem, "ab");
    }

    #[test]
    fn nfc_tables_are_the_same_unicode_as_the_casefold_and_word_tables() {
        let (major, minor, micro) = unicode_normalization::UNICODE_VERSION;
        assert_eq!(
            format!("{major}.{minor}.{micro}"),
            crate::unicode_tables::UNICODE_VERSION
        );
    }
}
