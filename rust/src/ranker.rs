//! Ranks curated memory entries against a turn: shared words (BM25 over title, tags and body)
//! plus shared file paths, times trust, recency, confidence and staleness. Built once over the
//! entries, then `rank` is called per query. Deterministic: ties break by entry id and no hash-map
//! order reaches the output (term statistics are looked up, never iterated into the result).
//!
//! Tokenising is the caller's job (Python's `shelldon.core.words.tokens`), so the product and the
//! pure-Python reference agree on what a word is.

use std::collections::HashMap;

use crate::error::{Error, Result};

/// BM25 saturation and length normalisation, the usual values.
pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;
/// A word in the title counts this many body words; a tag counts this many.
pub const TITLE_WEIGHT: f64 = 2.0;
pub const TAG_WEIGHT: f64 = 1.5;
/// Relevance added for each file path the turn and the entry share.
pub const PATH_BONUS: f64 = 2.0;
/// A floor so entries that share nothing still order by trust and recency.
pub const PRIOR: f64 = 0.05;
/// Trust by provenance, indexed by its rank (`shelldon.contracts.provenance.rank`: 0 owner,
/// 1 observed, 2 inferred; the order is written there). With the recency and confidence factors
/// kept in [0.85, 1] and [0.9, 1], the lowest owner factor (0.765) beats the highest observed (0.7)
/// and the lowest observed (0.5355) beats the highest inferred (0.5): equal relevance never lets an
/// inference outrank what the owner said.
pub const TRUST: [f64; 3] = [1.0, 0.7, 0.5];
pub const RECENCY_FLOOR: f64 = 0.85;
pub const RECENCY_HALF_LIFE_DAYS: f64 = 30.0;
pub const CONFIDENCE_FLOOR: f64 = 0.9;
/// An entry whose depended-on files changed since it was last confirmed "may be stale".
pub const STALE_FACTOR: f64 = 0.5;

const SECONDS_PER_DAY: f64 = 86_400.0;

/// One entry as the ranker sees it. `trust` is the provenance's rank: 0 owner, 1 observed,
/// 2 inferred. Text is any `S: AsRef<str>`, so a caller can lend strings it already holds instead
/// of copying each token.
#[derive(Debug, Clone, PartialEq)]
pub struct RankEntry<S = String> {
    pub id: S,
    pub title: Vec<S>,
    pub tags: Vec<S>,
    pub body: Vec<S>,
    pub paths: Vec<S>,
    pub trust: u8,
    pub confidence: f64,
    pub updated: f64,
    pub stale: bool,
}

#[derive(Debug)]
struct Indexed {
    id: String,
    /// (term id, weighted term frequency), sorted by term id; title and tags weighted.
    tf: Vec<(u32, f64)>,
    length: f64,
    /// Path ids, sorted.
    paths: Vec<u32>,
    trust: f64,
    confidence: f64,
    updated: f64,
    stale: bool,
}

/// One ranked entry: its index in the build order, the final score, the relevance part.
pub type Ranked = (usize, f64, f64);

/// Interns strings to dense ids so scoring compares integers, not strings.
#[derive(Debug, Default)]
struct Interner {
    ids: HashMap<String, u32>,
}

impl Interner {
    fn intern(&mut self, s: &str) -> Result<u32> {
        if let Some(&id) = self.ids.get(s) {
            return Ok(id);
        }
        let id = u32::try_from(self.ids.len())
            .map_err(|_| Error::Invalid("too many distinct terms".into()))?;
        self.ids.insert(s.to_owned(), id);
        Ok(id)
    }

    fn get(&self, s: &str) -> Option<u32> {
        self.ids.get(s).copied()
    }
}

#[derive(Debug)]
pub struct Ranker {
    entries: Vec<Indexed>,
    terms: Interner,
    paths: Interner,
    /// Document frequency by term id.
    doc_freq: Vec<u32>,
    avg_length: f64,
}

impl Ranker {
    /// Borrows the entries: the index holds interned term and path ids, so of an entry's text
    /// only its id is copied.
    pub fn new<'a, S: AsRef<str> + 'a>(
        entries: impl IntoIterator<Item = &'a RankEntry<S>>,
    ) -> Result<Self> {
        let entries = entries.into_iter();
        let mut indexed = Vec::with_capacity(entries.size_hint().0);
        let mut terms = Interner::default();
        let mut path_ids = Interner::default();
        let mut doc_freq: Vec<u32> = Vec::new();
        let mut total_length = 0.0;
        for entry in entries {
            if entry.trust > 2 {
                return Err(Error::Invalid(format!(
                    "entry {:?}: trust must be 0 (owner), 1 (observed) or 2 (inferred)",
                    entry.id.as_ref()
                )));
            }
            if !entry.confidence.is_finite() || !entry.updated.is_finite() {
                return Err(Error::Invalid(format!(
                    "entry {:?}: confidence and updated must be finite",
                    entry.id.as_ref()
                )));
            }
            let mut tf: Vec<(u32, f64)> = Vec::new();
            // Fields are added in a fixed order (title, tags, body); the weights are exact in
            // binary, so the sums equal the reference's whatever the order.
            for (tokens, weight) in [
                (&entry.title, TITLE_WEIGHT),
                (&entry.tags, TAG_WEIGHT),
                (&entry.body, 1.0),
            ] {
                for token in tokens {
                    tf.push((terms.intern(token.as_ref())?, weight));
                }
            }
            tf.sort_by_key(|&(id, _)| id);
            let mut merged: Vec<(u32, f64)> = Vec::with_capacity(tf.len());
            for (id, weight) in tf {
                match merged.last_mut() {
                    Some(last) if last.0 == id => last.1 += weight,
                    _ => merged.push((id, weight)),
                }
            }
            if doc_freq.len() < terms.ids.len() {
                doc_freq.resize(terms.ids.len(), 0);
            }
            for &(id, _) in &merged {
                doc_freq[id as usize] += 1;
            }
            let length = TITLE_WEIGHT * entry.title.len() as f64
                + TAG_WEIGHT * entry.tags.len() as f64
                + entry.body.len() as f64;
            total_length += length;
            let mut paths = entry
                .paths
                .iter()
                .map(|p| path_ids.intern(p.as_ref()))
                .collect::<Result<Vec<u32>>>()?;
            paths.sort_unstable();
            paths.dedup();
            indexed.push(Indexed {
                id: entry.id.as_ref().to_owned(),
                tf: merged,
                length,
                paths,
                trust: TRUST[usize::from(entry.trust)],
                confidence: entry.confidence.clamp(0.0, 1.0),
                updated: entry.updated,
                stale: entry.stale,
            });
        }
        let avg_length = if indexed.is_empty() {
            0.0
        } else {
            total_length / indexed.len() as f64
        };
        Ok(Ranker {
            entries: indexed,
            terms,
            paths: path_ids,
            doc_freq,
            avg_length,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn idf(&self, df: u32) -> f64 {
        let n = self.entries.len() as f64;
        let df = f64::from(df);
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Known query terms, unique, in first-seen order (so float sums run in one fixed order),
    /// each with its idf. A term no entry holds adds nothing to any score and is dropped.
    fn query_terms(&self, query: &[String]) -> Vec<(u32, f64)> {
        let mut out: Vec<(u32, f64)> = Vec::with_capacity(query.len());
        for term in query {
            if let Some(id) = self.terms.get(term) {
                if !out.iter().any(|&(seen, _)| seen == id) {
                    out.push((id, self.idf(self.doc_freq[id as usize])));
                }
            }
        }
        out
    }

    fn relevance(&self, entry: &Indexed, terms: &[(u32, f64)], paths: &[u32]) -> f64 {
        let mut score = 0.0;
        // Length normalisation damps entries longer than the average; a shorter one counts as
        // the average, so a title-only entry does not outrank a sentence that says more on a
        // single shared word (LoCoMo retrieval: 66/83 -> 68/84 and 82/90 -> 84/90 %, in
        // full / listed, docs/performance.md).
        let norm = if self.avg_length > 0.0 {
            1.0 - B + B * entry.length.max(self.avg_length) / self.avg_length
        } else {
            1.0
        };
        for &(term, idf) in terms {
            if let Ok(at) = entry.tf.binary_search_by_key(&term, |&(id, _)| id) {
                let tf = entry.tf[at].1;
                score += idf * (tf * (K1 + 1.0)) / (tf + K1 * norm);
            }
        }
        let shared = paths
            .iter()
            .filter(|p| entry.paths.binary_search(p).is_ok())
            .count();
        score + PATH_BONUS * shared as f64
    }

    fn weight(entry: &Indexed, now: f64) -> f64 {
        let age_days = ((now - entry.updated) / SECONDS_PER_DAY).max(0.0);
        let recency =
            RECENCY_FLOOR + (1.0 - RECENCY_FLOOR) * 0.5f64.powf(age_days / RECENCY_HALF_LIFE_DAYS);
        let confidence = CONFIDENCE_FLOOR + (1.0 - CONFIDENCE_FLOOR) * entry.confidence;
        let stale = if entry.stale { STALE_FACTOR } else { 1.0 };
        entry.trust * recency * confidence * stale
    }

    /// Every entry's (index, score, relevance), best first, ties by id; at most `limit` of them.
    pub fn rank(
        &self,
        query: &[String],
        query_paths: &[String],
        now: f64,
        limit: usize,
    ) -> Result<Vec<Ranked>> {
        if !now.is_finite() {
            return Err(Error::Invalid("now must be finite".into()));
        }
        let terms = self.query_terms(query);
        let mut paths: Vec<u32> = query_paths
            .iter()
            .filter_map(|p| self.paths.get(p))
            .collect();
        paths.sort_unstable();
        paths.dedup();
        let mut ranked: Vec<Ranked> = self
            .entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let relevance = self.relevance(entry, &terms, &paths);
                let score = (relevance + PRIOR) * Self::weight(entry, now);
                (index, score, relevance)
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| self.entries[a.0].id.cmp(&self.entries[b.0].id))
                .then_with(|| a.0.cmp(&b.0))
        });
        ranked.truncate(limit);
        Ok(ranked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    fn entry(id: &str, title: &str, body: &str, trust: u8) -> RankEntry {
        RankEntry {
            id: id.into(),
            title: words(title),
            tags: vec![],
            body: words(body),
            paths: vec![],
            trust,
            confidence: 1.0,
            updated: 0.0,
            stale: false,
        }
    }

    fn order(ranker: &Ranker, query: &str) -> Vec<String> {
        ranker
            .rank(&words(query), &[], 0.0, usize::MAX)
            .unwrap()
            .into_iter()
            .map(|(i, _, _)| ranker.entries[i].id.clone())
            .collect()
    }

    #[test]
    fn shared_words_rank_first() {
        let ranker = Ranker::new(&[
            entry("a", "tea", "owner drinks green tea", 2),
            entry("b", "cat", "the cat is called oscar", 2),
        ])
        .unwrap();
        assert_eq!(order(&ranker, "what is the cat called"), ["b", "a"]);
        assert_eq!(order(&ranker, "green tea"), ["a", "b"]);
    }

    #[test]
    fn owner_outranks_an_inference_of_equal_relevance() {
        let mut old_owner = entry("z-owner", "cat", "cat oscar", 0);
        old_owner.updated = -3650.0 * SECONDS_PER_DAY;
        old_owner.confidence = 0.0;
        let fresh_inferred = entry("a-inferred", "cat", "cat oscar", 2);
        let ranker = Ranker::new(&[fresh_inferred, old_owner]).unwrap();
        assert_eq!(order(&ranker, "cat"), ["z-owner", "a-inferred"]);
    }

    #[test]
    fn stale_entries_rank_lower() {
        let mut stale = entry("a", "build", "run make", 1);
        stale.stale = true;
        let ranker = Ranker::new(&[stale, entry("b", "build", "run make", 1)]).unwrap();
        assert_eq!(order(&ranker, "build"), ["b", "a"]);
    }

    #[test]
    fn ties_break_by_id_not_by_insertion_order() {
        let ranker = Ranker::new(&[
            entry("c", "x", "same", 1),
            entry("a", "x", "same", 1),
            entry("b", "x", "same", 1),
        ])
        .unwrap();
        assert_eq!(order(&ranker, "same"), ["a", "b", "c"]);
    }

    #[test]
    fn shared_paths_add_relevance() {
        let mut with_path = entry("b", "notes", "unrelated words", 2);
        with_path.paths = vec!["src/main.rs".into()];
        let ranker = Ranker::new(&[entry("a", "notes", "unrelated words", 2), with_path]).unwrap();
        let ranked = ranker
            .rank(&[], &["src/main.rs".into()], 0.0, usize::MAX)
            .unwrap();
        assert_eq!(ranked[0].0, 1);
        assert!((ranked[0].2 - PATH_BONUS).abs() < 1e-12);
    }

    #[test]
    fn a_word_in_every_entry_weighs_little() {
        // "ana" is in every entry, twice in the short ones; "jazz" in one long entry only.
        let mut entries: Vec<RankEntry> = (0..20)
            .map(|i| entry(&format!("e{i:02}"), "ana", &format!("ana note{i}"), 2))
            .collect();
        entries.push(entry(
            "z-jazz",
            "evenings",
            "ana spends long evenings listening to old jazz records at home",
            2,
        ));
        let ranker = Ranker::new(&entries).unwrap();
        assert_eq!(order(&ranker, "ana jazz")[0], "z-jazz");
    }

    #[test]
    fn a_short_entry_is_not_boosted_above_the_average() {
        let ranker = Ranker::new(&[
            entry("a-short", "ana", "ana", 2),
            entry("b-said", "ana", "ana works as a nurse in porto", 2),
            entry("c-other", "garden", &"tomatoes basil ".repeat(15), 2),
        ])
        .unwrap();
        let ranked = ranker.rank(&words("ana"), &[], 0.0, 2).unwrap();
        // Both are shorter than the average, so both score as the average: equal relevance.
        assert!((ranked[0].2 - ranked[1].2).abs() < 1e-12);
        let long = entry("c-long", "ana", &format!("ana {}", "words ".repeat(20)), 2);
        let ranker = Ranker::new(&[entry("a-short", "ana", "ana", 2), long]).unwrap();
        assert_eq!(order(&ranker, "ana"), ["a-short", "c-long"]); // longer than average: damped
    }

    #[test]
    fn limit_and_empty() {
        let empty = Ranker::new::<String>(&[]).unwrap();
        assert!(empty.rank(&words("x"), &[], 0.0, 4).unwrap().is_empty());
        let ranker = Ranker::new(&[entry("a", "x", "y", 0), entry("b", "x", "y", 0)]).unwrap();
        assert_eq!(ranker.rank(&words("x"), &[], 0.0, 1).unwrap().len(), 1);
    }

    #[test]
    fn bad_input_is_invalid_not_a_panic() {
        assert!(matches!(
            Ranker::new(&[entry("a", "x", "y", 3)]),
            Err(Error::Invalid(_))
        ));
        let mut nan = entry("a", "x", "y", 0);
        nan.updated = f64::NAN;
        assert!(matches!(Ranker::new(&[nan]), Err(Error::Invalid(_))));
        let ranker = Ranker::new(&[entry("a", "x", "y", 0)]).unwrap();
        assert!(ranker.rank(&[], &[], f64::INFINITY, 1).is_err());
    }
}
