//! Wallet seed phrases found by their words (the gate's `seed-phrase` rule; Python's
//! `shelldon.core.gate.seed_words` is the one home of the rule and documents it).
//!
//! Here, not in Python, because the list of 2,048 words as a Python frozenset cost core about
//! 0.25 MB for as long as it runs (docs/performance.md); here the list is the extension's own
//! read-only bytes, and a turn's scan allocates only its spans.
//!
//! A word is a run of ASCII letters (Python's `[A-Za-z]+`), listed when its lower case is in the
//! list; what may stand between two words of one phrase is Python's
//! `[\s,;]*(?:\d{1,2}[.):]?[\s,;]*)?`, matched whole, with Python's `\s` and `\d` (str patterns).

use std::sync::OnceLock;

use regex_automata::meta::Regex;

/// The list as shipped beside the rules (with its licence header, `#` lines).
const LIST: &str = include_str!("../../python/shelldon/core/gate/gate_rules/bip39_english.txt");

/// At least this many listed words in a row, at least half of them different, make a phrase.
pub const MIN_WORDS: usize = 12;

fn listed() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<&'static str> = LIST
            .lines()
            .filter(|line| !line.starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// The words of the list, sorted (what the tests check the list by).
pub fn seed_words() -> Vec<&'static str> {
    listed().to_vec()
}

fn is_listed(word: &str) -> bool {
    // Words are 3 to 8 letters; a longer run cannot be one, and lower-casing stays on the stack.
    if word.len() > 8 {
        return false;
    }
    let mut buf = [0u8; 8];
    for (slot, b) in buf.iter_mut().zip(word.bytes()) {
        *slot = b.to_ascii_lowercase();
    }
    let lower = std::str::from_utf8(&buf[..word.len()]).unwrap_or("");
    listed().binary_search(&lower).is_ok()
}

/// Python's `\s` for str patterns (Unicode White_Space plus U+001C..U+001F, which `str.isspace`
/// counts and Unicode does not), or a comma or semicolon.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c) || c == ',' || c == ';'
}

/// Python's `\d` for str patterns: a decimal digit (category Nd). Beyond ASCII the `regex`
/// crate's `\d` decides; it is built only the first time such a digit stands between two words
/// (a Unicode class built on every text cost ~440 KiB).
fn is_digit(c: char) -> bool {
    if c.is_ascii() || !c.is_numeric() {
        return c.is_ascii_digit();
    }
    static DIGIT: OnceLock<Option<Regex>> = OnceLock::new();
    let regex = DIGIT.get_or_init(|| Regex::new(r"\A\d\z").ok());
    let mut buf = [0u8; 4];
    regex
        .as_ref()
        .is_some_and(|r| r.is_match(c.encode_utf8(&mut buf) as &str))
}

/// Whether `gap` is wholly `[\s,;]*(?:\d{1,2}[.):]?[\s,;]*)?`. The classes are disjoint, so a
/// greedy left-to-right read decides it.
fn is_gap(gap: &str) -> bool {
    let mut chars = gap.chars().peekable();
    while chars.next_if(|&c| is_separator(c)).is_some() {}
    if chars.peek().is_none() {
        return true;
    }
    let mut digits = 0;
    while chars.next_if(|&c| is_digit(c)).is_some() {
        digits += 1;
    }
    if !(1..=2).contains(&digits) {
        return false;
    }
    chars.next_if(|&c| matches!(c, '.' | ')' | ':'));
    while chars.next_if(|&c| is_separator(c)).is_some() {}
    chars.peek().is_none()
}

/// Spans, in characters (as Python indexes a str), of runs of `MIN_WORDS` or more listed words.
pub fn seed_phrase_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    // The current run: (byte start, byte end, char start, char end) of each word.
    let mut run: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut chars = 0usize;
    let mut word_start: Option<(usize, usize)> = None;
    let mut visit = |start: usize, end: usize, cstart: usize, cend: usize, run: &mut Vec<_>| {
        let ok = is_listed(&text[start..end]);
        if ok {
            let joined = match run.last() {
                None => true,
                Some(&(_, last_end, _, _)) => is_gap(&text[last_end..start]),
            };
            if joined {
                run.push((start, end, cstart, cend));
                return;
            }
        }
        close(text, run, &mut spans);
        run.clear();
        if ok {
            run.push((start, end, cstart, cend));
        }
    };
    for (at, c) in text.char_indices() {
        if c.is_ascii_alphabetic() {
            if word_start.is_none() {
                word_start = Some((at, chars));
            }
        } else if let Some((start, cstart)) = word_start.take() {
            visit(start, at, cstart, chars, &mut run);
        }
        chars += 1;
    }
    if let Some((start, cstart)) = word_start.take() {
        visit(start, text.len(), cstart, chars, &mut run);
    }
    close(text, &run, &mut spans);
    spans
}

fn close(text: &str, run: &[(usize, usize, usize, usize)], spans: &mut Vec<(usize, usize)>) {
    if run.len() < MIN_WORDS {
        return;
    }
    let mut distinct: Vec<String> = run
        .iter()
        .map(|&(s, e, _, _)| text[s..e].to_ascii_lowercase())
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() * 2 >= MIN_WORDS {
        spans.push((run[0].2, run[run.len() - 1].3));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHRASE: &str =
        "legal winner thank year wave sausage worth useful legal winner thank yellow";

    #[test]
    fn the_list_is_bip39() {
        let words = seed_words();
        assert_eq!(words.len(), 2048);
        assert!(words.iter().all(|w| (3..=8).contains(&w.len())));
        assert!(is_listed("Sausage") && is_listed("zoo") && !is_listed("the"));
    }

    #[test]
    fn a_phrase_is_one_span_in_characters() {
        let text = format!("ключ: {PHRASE}!");
        assert_eq!(seed_phrase_spans(&text), vec![(6, 6 + PHRASE.len())]);
        let numbered: Vec<String> = PHRASE
            .split(' ')
            .enumerate()
            .map(|(i, w)| format!("{}) {w}", i + 1))
            .collect();
        assert_eq!(seed_phrase_spans(&numbered.join("\t")).len(), 1);
    }

    #[test]
    fn prose_and_short_runs_are_not_phrases() {
        let eleven: Vec<&str> = PHRASE.split(' ').take(11).collect();
        assert!(seed_phrase_spans(&eleven.join(" ")).is_empty());
        assert!(seed_phrase_spans(&"word ".repeat(40)).is_empty());
        let broken = PHRASE.replace("sausage", "the");
        assert!(seed_phrase_spans(&broken).is_empty());
        // A gap Python's pattern refuses: three digits, or a dash.
        assert!(seed_phrase_spans(&PHRASE.replacen(' ', " 123 ", 1)).is_empty());
        assert!(seed_phrase_spans(&PHRASE.replacen(' ', " - ", 1)).is_empty());
    }
}
