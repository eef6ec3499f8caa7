//! Wallet seed phrases found by their words (the gate's `seed-phrase` rule; Python's
//! `shelldon.core.gate.seed_words` is the one home of the rule and documents it).
//!
//! Here, not in Python, because the list of 2,048 words as a Python frozenset cost core about
//! 0.25 MB for as long as it runs (docs/performance.md); here the list is the extension's own
//! read-only bytes, and a turn's scan allocates only its spans.
//!
//! A word is a run of ASCII letters (Python's `[A-Za-z]+`), listed when its lower case is in the
//! list, or when it has four to ten letters and its first four name a listed word (BIP-39 makes
//! the first four letters of each word unique, and wallets read no more: "sausagee", "saus").
//! What may stand between two words of one phrase is up to `MAX_GAP` characters with no letter
//! and no run of three or more digits: spaces, commas, a numbering ("1. ", "(2) "), a table's
//! pipes, quotes, dashes or slashes ("legal-winner", `["legal", "winner"]`).

use std::sync::OnceLock;

use regex_automata::meta::Regex;

/// The list as shipped beside the rules (with its licence header, `#` lines).
const LIST: &str = include_str!("../../python/shelldon/core/gate/gate_rules/bip39_english.txt");

/// At least this many listed words in a row, three in four of them different, make a phrase.
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

/// The longest run of letters read as a (misspelt or cut) listed word by its first four.
const MAX_WORD: usize = 10;
/// The most characters that may part two words of one phrase.
const MAX_GAP: usize = 16;

/// How a run of letters reads as a listed word.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listed {
    /// Not one.
    No,
    /// The word itself, or its first four letters alone (how wallets abbreviate).
    Word,
    /// Five to ten letters whose first four name a word and that are not the word: a typo (or a
    /// plural: prose has those, so a phrase may hold only one).
    Misspelt,
}

fn listed_as(word: &str) -> Listed {
    // Words are 3 to 8 letters (up to MAX_WORD with a typo); lower-casing stays on the stack.
    if word.len() > MAX_WORD {
        return Listed::No;
    }
    let mut buf = [0u8; MAX_WORD];
    for (slot, b) in buf.iter_mut().zip(word.bytes()) {
        *slot = b.to_ascii_lowercase();
    }
    let lower = std::str::from_utf8(&buf[..word.len()]).unwrap_or("");
    let words = listed();
    if lower.len() < 4 {
        return if words.binary_search(&lower).is_ok() {
            Listed::Word
        } else {
            Listed::No
        };
    }
    // The first four letters name at most one listed word (BIP-39's own guarantee), so one
    // search finds the word itself, its four letters alone, or the word a typo misspells.
    let prefix = &lower[..4];
    let at = words.partition_point(|w| *w < prefix);
    match words.get(at) {
        Some(w) if *w == lower => Listed::Word,
        Some(w) if w.starts_with(prefix) && lower.len() == 4 => Listed::Word,
        // A plural or another ending on the word ("diets", "waved") is prose, not a typo.
        Some(w) if w.starts_with(prefix) && !inflected(lower, w) => Listed::Misspelt,
        _ => Listed::No,
    }
}

/// Endings English adds to a word: `token` is `word` with one of them.
const ENDINGS: [&str; 9] = ["s", "es", "d", "ed", "ing", "er", "ers", "ly", "y"];

fn inflected(token: &str, word: &str) -> bool {
    token
        .strip_prefix(word)
        .is_some_and(|ending| ENDINGS.contains(&ending))
}

#[cfg(test)]
fn is_listed(word: &str) -> bool {
    listed_as(word) != Listed::No
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

/// Whether `gap` may part two words of one phrase: at most `MAX_GAP` characters, none a letter
/// (of any script), and no run of more than two digits (a numbering, not a figure).
fn is_gap(gap: &str) -> bool {
    let mut digits = 0;
    for (count, c) in gap.chars().enumerate() {
        if count >= MAX_GAP || c.is_alphabetic() {
            return false;
        }
        if is_digit(c) {
            digits += 1;
            if digits > 2 {
                return false;
            }
        } else {
            digits = 0;
        }
    }
    true
}

/// One word of a run: byte start, byte end, char start, char end, misspelt.
type Word = (usize, usize, usize, usize, bool);

/// Spans, in characters (as Python indexes a str), of runs of `MIN_WORDS` or more listed words,
/// at most one of them misspelt (a second misspelt word drops the run's words up to the first).
pub fn seed_phrase_spans(text: &str) -> Vec<(usize, usize)> {
    scan(text, MIN_WORDS, true)
}

/// Spans of runs of `min_words` or more listed words read as a phrase's are (same words, same
/// gaps), without the test of their repeats: the parts of a phrase cut across writes, which
/// `gate.pieces` glues.
pub fn seed_word_runs(text: &str, min_words: usize) -> Vec<(usize, usize)> {
    scan(text, min_words.max(1), false)
}

fn scan(text: &str, min_words: usize, phrase: bool) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let close = |text: &str, run: &[Word], spans: &mut Vec<(usize, usize)>| {
        if !phrase {
            if run.len() >= min_words {
                spans.push((run[0].2, run[run.len() - 1].3));
            }
        } else {
            close_phrase(text, run, spans);
        }
    };
    let mut run: Vec<Word> = Vec::new();
    let mut chars = 0usize;
    let mut word_start: Option<(usize, usize)> = None;
    let mut visit = |start: usize, end: usize, cstart: usize, cend: usize, run: &mut Vec<Word>| {
        let kind = listed_as(&text[start..end]);
        if kind != Listed::No {
            let misspelt = kind == Listed::Misspelt;
            let joined = match run.last() {
                None => true,
                Some(&(_, last_end, _, _, _)) => is_gap(&text[last_end..start]),
            };
            if joined {
                if misspelt {
                    if let Some(first) = run.iter().position(|w| w.4) {
                        close(text, run, &mut spans);
                        run.drain(..=first);
                    }
                }
                run.push((start, end, cstart, cend, misspelt));
                return;
            }
            close(text, run, &mut spans);
            run.clear();
            run.push((start, end, cstart, cend, misspelt));
            return;
        }
        close(text, run, &mut spans);
        run.clear();
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

/// A run is a phrase where some `MIN_WORDS` words in a row are three in four different: a
/// wallet's words rarely repeat (the BIP-39 test vector repeats three of twelve), and prose that
/// runs listed words repeats its own ("they exercise more, they travel more, they laugh more").
/// The span runs from the first such window to the end of the last.
fn close_phrase(text: &str, run: &[Word], spans: &mut Vec<(usize, usize)>) {
    if run.len() < MIN_WORDS {
        return;
    }
    let words: Vec<String> = run
        .iter()
        .map(|&(s, e, _, _, _)| text[s..e].to_ascii_lowercase())
        .collect();
    let mut first: Option<usize> = None;
    let mut last = 0;
    for start in 0..=words.len() - MIN_WORDS {
        let mut window: Vec<&String> = words[start..start + MIN_WORDS].iter().collect();
        window.sort_unstable();
        window.dedup();
        if window.len() * 4 >= MIN_WORDS * 3 {
            first.get_or_insert(start);
            last = start + MIN_WORDS - 1;
        }
    }
    if let Some(first) = first {
        spans.push((run[first].2, run[last].3));
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

    /// `listed_as` as it read before the speed pass: the word searched for, then its prefix.
    fn listed_as_searching_twice(word: &str) -> Listed {
        if word.len() > MAX_WORD {
            return Listed::No;
        }
        let lower = word.to_ascii_lowercase();
        let words = listed();
        if words.binary_search(&lower.as_str()).is_ok() {
            return Listed::Word;
        }
        if lower.len() < 4 {
            return Listed::No;
        }
        let prefix = &lower[..4];
        let at = words.partition_point(|w| *w < prefix);
        match words.get(at) {
            Some(w) if w.starts_with(prefix) && lower.len() == 4 => Listed::Word,
            Some(w) if w.starts_with(prefix) && !inflected(&lower, w) => Listed::Misspelt,
            _ => Listed::No,
        }
    }

    #[test]
    fn one_search_reads_every_word_as_two_did() {
        // BIP-39's guarantee the one search rests on: four letters name at most one word.
        let words = seed_words();
        let mut prefixes: Vec<&str> = words
            .iter()
            .filter(|w| w.len() >= 4)
            .map(|w| &w[..4])
            .collect();
        let count = prefixes.len();
        prefixes.dedup();
        assert_eq!(prefixes.len(), count);
        let mut tokens: Vec<String> = Vec::new();
        for w in &words {
            for cut in 1..=w.len() {
                tokens.push(w[..cut].to_string());
            }
            for ending in [
                "s", "es", "d", "ed", "ing", "er", "ly", "y", "x", "xx", "zzz",
            ] {
                tokens.push(format!("{w}{ending}"));
            }
            tokens.push(w.to_ascii_uppercase());
            tokens.push(format!("{}q{}", &w[..w.len() - 1], &w[w.len() - 1..]));
        }
        tokens.extend(["the", "a", "is", "abcdefghijkl", "zzzz", "Aban"].map(String::from));
        for token in &tokens {
            assert!(
                listed_as(token) == listed_as_searching_twice(token),
                "{token}"
            );
        }
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
        // A gap that parts two phrases: three digits, a letter, or a long stretch of symbols.
        assert!(seed_phrase_spans(&PHRASE.replacen(' ', " 123 ", 1)).is_empty());
        assert!(seed_phrase_spans(&PHRASE.replacen(' ', " é ", 1)).is_empty());
        assert!(seed_phrase_spans(&PHRASE.replacen(' ', &" -".repeat(9), 1)).is_empty());
        // Three letters are read whole: "yel" is no word, though "yellow" is.
        assert!(seed_phrase_spans(&PHRASE.replace("yellow", "yel")).is_empty());
    }

    #[test]
    fn a_phrase_in_a_table_a_list_or_cut_to_four_letters_is_one() {
        let words: Vec<&str> = PHRASE.split(' ').collect();
        let table: Vec<String> = words
            .iter()
            .enumerate()
            .map(|(i, w)| format!("| {} | {w} |", i + 1))
            .collect();
        assert_eq!(seed_phrase_spans(&table.join("\n")).len(), 1);
        assert_eq!(seed_phrase_spans(&words.join("-")).len(), 1);
        let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
        assert_eq!(
            seed_phrase_spans(&format!("[{}]", quoted.join(", "))).len(),
            1
        );
        let cut: Vec<&str> = words.iter().map(|w| &w[..w.len().min(4)]).collect();
        assert_eq!(seed_phrase_spans(&cut.join(" ")).len(), 1);
        assert_eq!(
            seed_phrase_spans(&PHRASE.replace("sausage", "sausagee")).len(),
            1
        );
        // Two misspelt words: prose has plurals ("emotions", "diets"), a phrase one typo.
        let two = PHRASE
            .replace("sausage", "sausagee")
            .replace("useful", "usefull");
        assert!(seed_phrase_spans(&two).is_empty());
        // A plural is prose ("waves"), and a phrase said twice is still one.
        assert!(seed_phrase_spans(&PHRASE.replace("wave", "waves")).is_empty());
        assert_eq!(seed_phrase_spans(&format!("{PHRASE} {PHRASE}")).len(), 1);
        let repeats = "they exercise more they travel more they laugh more they have more";
        assert!(seed_phrase_spans(repeats).is_empty());
        // Its parts, for gluing across writes: runs of a few listed words, repeats or not.
        let part = "words: legal winner thank year wave sausage";
        assert_eq!(seed_word_runs(part, 4), vec![(7, part.len())]);
        assert_eq!(seed_word_runs(repeats, 4).len(), 1);
    }
}
