//! FTS5 query sanitiser: the owner's raw text becomes a query no input can make MATCH raise.
//!
//! Only bare word terms survive (Python `re` `\w+` runs); each is quoted, so FTS5 operators
//! (`AND`, `NEAR`, `*`, `^`, `:`, column filters) become plain words, and the terms are OR-ed.
//! Count and length are capped so a pasted novel cannot become a huge query.

use crate::unicode::is_word_char;

pub const DEFAULT_MAX_TERMS: usize = 16;
pub const DEFAULT_MAX_TERM_CHARS: usize = 64;

/// `"t1" OR "t2" …` from the first `max_terms` distinct word terms (each cut to
/// `max_term_chars` characters), or `None` when no term remains.
pub fn sanitize_query(query: &str, max_terms: usize, max_term_chars: usize) -> Option<String> {
    if max_term_chars == 0 {
        return None;
    }
    let mut terms: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut current_chars = 0usize;
    let flush = |term: &mut String, chars: &mut usize, terms: &mut Vec<String>| {
        if !term.is_empty() {
            if terms.len() < max_terms && !terms.iter().any(|t| t == term) {
                terms.push(std::mem::take(term));
            } else {
                term.clear();
            }
        }
        *chars = 0;
    };
    for c in query.chars() {
        if is_word_char(c) {
            if current_chars < max_term_chars {
                current.push(c);
            }
            current_chars += 1;
        } else {
            flush(&mut current, &mut current_chars, &mut terms);
            if terms.len() >= max_terms {
                break;
            }
        }
    }
    flush(&mut current, &mut current_chars, &mut terms);
    if terms.is_empty() {
        return None;
    }
    let quoted: Vec<String> = terms.iter().map(|t| format!("\"{t}\"")).collect();
    Some(quoted.join(" OR "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Option<String> {
        sanitize_query(s, DEFAULT_MAX_TERMS, DEFAULT_MAX_TERM_CHARS)
    }

    #[test]
    fn operators_become_quoted_words() {
        assert_eq!(
            q("cats AND NEAR(dogs*)").as_deref(),
            Some("\"cats\" OR \"AND\" OR \"NEAR\" OR \"dogs\"")
        );
        assert_eq!(
            q("content:\"x\" ^y").as_deref(),
            Some("\"content\" OR \"x\" OR \"y\"")
        );
    }

    #[test]
    fn nothing_left_is_none() {
        assert_eq!(q(""), None);
        assert_eq!(q("!!! ... \"\" *"), None);
    }

    #[test]
    fn caps_count_and_length_and_dedups() {
        assert_eq!(
            sanitize_query("a b a c d", 2, 8).as_deref(),
            Some("\"a\" OR \"b\"")
        );
        assert_eq!(
            sanitize_query("abcdefgh x", 3, 3).as_deref(),
            Some("\"abc\" OR \"x\"")
        );
        assert_eq!(sanitize_query("word", 0, 3), None);
        assert_eq!(sanitize_query("word", 3, 0), None);
    }

    #[test]
    fn defaults_match_the_python_signature() {
        // bindings.rs spells these as literals so Python's signature shows them.
        assert_eq!((DEFAULT_MAX_TERMS, DEFAULT_MAX_TERM_CHARS), (16, 64));
        assert_eq!(crate::filename::DEFAULT_MAX_STEM_BYTES, 120);
    }

    #[test]
    fn unicode_terms_survive() {
        assert_eq!(
            q("José 中文，ok").as_deref(),
            Some("\"José\" OR \"中文\" OR \"ok\"")
        );
    }
}
