//! Token-set similarity for the gate's near-duplicate check, and the features that veto
//! "duplicate": a swapped negation, number or proper noun makes two texts two facts
//! ("Mia's cat is called Oscar" / "Tom's cat is called Oscar").
//!
//! Tokens: maximal runs of alphanumeric characters (an apostrophe inside a word is kept, so
//! "don't" is one token), lower-cased, a possessive "'s" dropped, "n't" read as "not", and a
//! plural "s" trimmed from words longer than three letters. Similarity is the Dice coefficient of
//! the two sets of content tokens (stop words removed; if that leaves nothing, all tokens).
//!
//! pyo3-free; `bindings.rs` exposes `similarity_batch`.

use std::collections::BTreeSet;

/// Function words that say little about which fact a sentence states, in token form ("this" is
/// "thi" once its plural "s" is trimmed): `shelldon.core.words.SIMILARITY_STOPWORDS`, kept equal
/// to it by tests/core/test_words.py. Packed by hand: rustfmt would give each word a line.
#[rustfmt::skip]
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "anything", "are",
    "as", "at", "be", "been", "before", "being", "but", "by", "can", "could", "d", "did", "do",
    "doe", "done", "ever", "for", "from", "had", "has", "have", "having", "he", "her", "here",
    "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "ll", "m", "may",
    "me", "might", "mine", "more", "most", "must", "my", "myself", "of", "on", "or", "other",
    "our", "own", "re", "s", "same", "shall", "she", "should", "so", "some", "something",
    "such", "t", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "thi", "those", "to", "too", "us", "ve", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "whose", "why", "will", "with", "would", "yes",
    "you", "your", "yourself",
];

/// Words that flip a statement. Their count's parity differing between two texts vetoes "duplicate".
/// `shelldon.core.words.NEGATIONS`.
const NEGATIONS: &[&str] = &[
    "cannot", "neither", "never", "no", "nobody", "none", "nor", "not", "nothing", "nowhere",
    "without",
];

/// Number words treated like digits for the number veto. `shelldon.core.words.NUMBER_WORDS`.
const NUMBER_WORDS: &[&str] = &[
    "eight", "eleven", "fifty", "first", "five", "forty", "four", "hundred", "million", "nine",
    "once", "one", "second", "seven", "six", "ten", "third", "thirty", "thousand", "three",
    "twelve", "twenty", "twice", "two", "zero",
];

/// Membership in one of the sorted word lists above.
fn is_in(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

/// Why two similar texts are still two facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Veto {
    None,
    Negation,
    Number,
    ProperNoun,
}

impl Veto {
    pub fn code(self) -> &'static str {
        match self {
            Veto::None => "",
            Veto::Negation => "negation",
            Veto::Number => "number",
            Veto::ProperNoun => "proper_noun",
        }
    }

    /// The veto a `code()` names; None for any other text.
    pub fn from_code(code: &str) -> Option<Veto> {
        [Veto::None, Veto::Negation, Veto::Number, Veto::ProperNoun]
            .into_iter()
            .find(|veto| veto.code() == code)
    }
}

/// A text's tokens and the features the veto compares, computed once per text.
#[derive(Debug, Clone)]
pub struct Profile {
    tokens: BTreeSet<String>,
    content: BTreeSet<String>,
    negations: usize,
    numbers: BTreeSet<String>,
    proper_nouns: BTreeSet<String>,
}

/// Split into raw words: alphanumeric runs, with an apostrophe kept between two letters.
fn raw_words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        let inner_apostrophe = (ch == '\'' || ch == '\u{2019}')
            && !current.is_empty()
            && chars.get(i + 1).is_some_and(|c| c.is_alphabetic());
        if ch.is_alphanumeric() {
            current.push(ch);
        } else if inner_apostrophe {
            current.push('\'');
        } else if !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The normalised token for one raw word (lower-cased, possessive dropped, plural trimmed).
fn normalise_word(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower.ends_with("n't") {
        return "not".to_string();
    }
    let base = lower.strip_suffix("'s").unwrap_or(&lower);
    let base = match base.find('\'') {
        // "i'm", "we're": keep the part before the apostrophe.
        Some(pos) => &base[..pos],
        None => base,
    };
    let trimmed = if base.chars().count() > 3
        && base.ends_with('s')
        && !base.ends_with("ss")
        && !base.chars().all(|c| c.is_numeric())
    {
        &base[..base.len() - 1]
    } else {
        base
    };
    trimmed.to_string()
}

fn is_number_token(token: &str) -> bool {
    token.chars().any(|c| c.is_ascii_digit()) || is_in(NUMBER_WORDS, token)
}

impl Profile {
    pub fn new(text: &str) -> Profile {
        let mut tokens = BTreeSet::new();
        let mut negations = 0usize;
        let mut numbers = BTreeSet::new();
        let mut capitalised = Vec::new();
        for word in raw_words(text) {
            let token = normalise_word(&word);
            if token.is_empty() {
                continue;
            }
            if is_in(NEGATIONS, token.as_str()) {
                negations += 1;
            }
            if is_number_token(&token) {
                numbers.insert(token.clone());
            }
            if word.chars().next().is_some_and(|c| c.is_uppercase()) {
                capitalised.push(token.clone());
            }
            tokens.insert(token);
        }
        let proper_nouns: BTreeSet<String> = capitalised
            .into_iter()
            .filter(|t| {
                !is_in(STOP_WORDS, t.as_str())
                    && !is_in(NEGATIONS, t.as_str())
                    && !is_number_token(t)
            })
            .collect();
        let content: BTreeSet<String> = tokens
            .iter()
            .filter(|t| !is_in(STOP_WORDS, t.as_str()))
            .cloned()
            .collect();
        Profile {
            tokens,
            content,
            negations,
            numbers,
            proper_nouns,
        }
    }

    fn comparable(&self) -> &BTreeSet<String> {
        if self.content.is_empty() {
            &self.tokens
        } else {
            &self.content
        }
    }
}

/// Dice coefficient of the two content-token sets, in [0, 1]. Two empty texts score 0.
pub fn similarity(a: &Profile, b: &Profile) -> f64 {
    let (sa, sb) = if a.content.is_empty() || b.content.is_empty() {
        (&a.tokens, &b.tokens)
    } else {
        (a.comparable(), b.comparable())
    };
    let total = sa.len() + sb.len();
    if total == 0 {
        return 0.0;
    }
    let shared = sa.intersection(sb).count();
    (2 * shared) as f64 / total as f64
}

/// The first feature (negation, then number, then proper noun) that makes `a` and `b` two facts.
/// A swap means each side has a value the other lacks; adding a detail is not a swap.
pub fn veto(a: &Profile, b: &Profile) -> Veto {
    if a.negations % 2 != b.negations % 2 {
        return Veto::Negation;
    }
    let swapped = |x: &BTreeSet<String>,
                   y: &BTreeSet<String>,
                   y_all: &BTreeSet<String>,
                   x_all: &BTreeSet<String>| {
        x.iter().any(|t| !y_all.contains(t)) && y.iter().any(|t| !x_all.contains(t))
    };
    if swapped(&a.numbers, &b.numbers, &b.tokens, &a.tokens) {
        return Veto::Number;
    }
    if swapped(&a.proper_nouns, &b.proper_nouns, &b.tokens, &a.tokens) {
        return Veto::ProperNoun;
    }
    Veto::None
}

/// How `a` compares with `b`: similarity, veto, and the number of content tokens only `a` has
/// ("added") and only `b` has ("dropped") - a candidate that adds and drops nothing is more detailed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    pub score: f64,
    pub veto: Veto,
    pub added: usize,
    pub dropped: usize,
}

pub fn compare(a: &Profile, b: &Profile) -> Comparison {
    let (sa, sb) = (a.comparable(), b.comparable());
    Comparison {
        score: similarity(a, b),
        veto: veto(a, b),
        added: sa.difference(sb).count(),
        dropped: sb.difference(sa).count(),
    }
}

/// Compare one candidate with many texts, in order.
pub fn similarity_batch(candidate: &str, others: &[&str]) -> Vec<Comparison> {
    let cand = Profile::new(candidate);
    others
        .iter()
        .map(|other| compare(&cand, &Profile::new(other)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str) -> (f64, Veto) {
        let c = similarity_batch(a, &[b])[0];
        (c.score, c.veto)
    }

    #[test]
    fn added_and_dropped_count_content_tokens() {
        let c = similarity_batch("Mia has a black cat", &["Mia has a cat"])[0];
        assert_eq!((c.added, c.dropped), (1, 0));
    }

    #[test]
    fn veto_codes_round_trip() {
        for veto in [Veto::None, Veto::Negation, Veto::Number, Veto::ProperNoun] {
            assert_eq!(Veto::from_code(veto.code()), Some(veto));
        }
        assert_eq!(Veto::from_code("maybe"), None);
    }

    #[test]
    fn word_lists_are_sorted_for_binary_search() {
        for list in [STOP_WORDS, NEGATIONS, NUMBER_WORDS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn identical_texts_score_one() {
        let (score, veto) = pair(
            "The owner's cat is called Oscar.",
            "the owner's cat is called oscar",
        );
        assert!((score - 1.0).abs() < 1e-12);
        assert_eq!(veto, Veto::None);
    }

    #[test]
    fn swapped_proper_noun_vetoes() {
        let (score, veto) = pair("Mia's cat is called Oscar", "Tom's cat is called Oscar");
        assert!(score > 0.5);
        assert_eq!(veto, Veto::ProperNoun);
    }

    #[test]
    fn swapped_number_vetoes_but_added_number_does_not() {
        assert_eq!(pair("Mia has 2 cats", "Mia has 3 cats").1, Veto::Number);
        assert_eq!(pair("Mia has cats", "Mia has 3 cats").1, Veto::None);
    }

    #[test]
    fn negation_vetoes() {
        assert_eq!(
            pair("The owner likes coffee", "The owner doesn't like coffee").1,
            Veto::Negation
        );
        assert_eq!(
            pair("never call after 9", "do not call after 9").1,
            Veto::None
        );
    }

    #[test]
    fn unrelated_texts_score_low() {
        let (score, _) = pair("The owner plays the violin", "Rain is expected on Tuesday");
        assert!(score < 0.2);
    }

    #[test]
    fn empty_texts_score_zero() {
        assert_eq!(pair("", "").0, 0.0);
        assert_eq!(pair("...", "word").0, 0.0);
    }
}
