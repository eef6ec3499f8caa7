//! Words as curated memory's ranker counts them: runs of word characters, stop words dropped,
//! each word stemmed with the Snowball English stemmer (Porter2), so "passionate" meets
//! "passion" and "stories" meets "story".
//!
//! Python's `shelldon.core.words` is the one home of the stop words and calls this for `stem` and
//! `tokens`, so Python and Rust never disagree on what a word is. Normalisation (NFKC, case
//! folding) stays in Python, where `str.casefold` is the definition; the text reaching here is
//! already folded.

use std::collections::HashSet;

use rust_stemmers::{Algorithm, Stemmer};

use crate::unicode::is_word_char;

/// Every run of word characters (Python's `\w`, from the generated tables) in `text`, in order.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
}

/// The stop words and the stemmer, built once.
pub struct Tokenizer {
    stemmer: Stemmer,
    stopwords: HashSet<String>,
}

impl std::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("stopwords", &self.stopwords.len())
            .finish()
    }
}

impl Tokenizer {
    pub fn new<S: AsRef<str>>(stopwords: impl IntoIterator<Item = S>) -> Self {
        Tokenizer {
            stemmer: Stemmer::create(Algorithm::English),
            stopwords: stopwords
                .into_iter()
                .map(|s| s.as_ref().to_owned())
                .collect(),
        }
    }

    /// Snowball English for a word of letters only; any other word ("2010s", "v2", "don't") is
    /// kept as it is: a stemmer for English words has nothing to say about it.
    pub fn stem(&self, word: &str) -> String {
        if word.is_empty() || word.chars().any(|c| !c.is_alphabetic() || c.is_numeric()) {
            return word.to_owned();
        }
        self.stemmer.stem(word).into_owned()
    }

    /// The words of already folded `text` that are not stop words, stemmed, in order, repeats
    /// kept: what the ranker counts.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        words(text)
            .filter(|w| !self.stopwords.contains(*w))
            .map(|w| self.stem(w))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenizer() -> Tokenizer {
        Tokenizer::new(["the", "is", "my", "a"])
    }

    #[test]
    fn a_words_other_forms_meet() {
        let t = tokenizer();
        for (a, b) in [
            ("passionate", "passion"),
            ("stories", "story"),
            ("camping", "camp"),
            ("camped", "camps"),
            ("liked", "likes"),
        ] {
            assert_eq!(t.stem(a), t.stem(b), "{a} / {b}");
        }
        assert_eq!(t.stem("glass"), "glass");
    }

    #[test]
    fn digits_and_underscores_are_kept_as_they_are() {
        let t = tokenizer();
        assert_eq!(t.stem("2010s"), "2010s");
        assert_eq!(t.stem("snake_cases"), "snake_cases");
        assert_eq!(t.stem("don't"), "don't");
        assert_eq!(t.stem(""), "");
    }

    #[test]
    fn tokens_drop_stop_words_and_split_on_non_word_characters() {
        let t = tokenizer();
        assert_eq!(
            t.tokens("my sister's passion is the café—painting!"),
            ["sister", "s", "passion", "café", "paint"]
        );
        assert!(t.tokens("  ...  ").is_empty());
    }
}
