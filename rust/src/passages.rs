//! History recall's passage scoring (`shelldon.core.recall`, docs/recall.md): bm25 of each
//! candidate row over the query's terms, the best rows (whose neighbours join the pool), then
//! bm25F over a row and the lines around it, a row of the date the query names boosted.
//!
//! sqlite's tokenizer stays the one that says which terms a row holds (the caller passes the
//! counts), so the index and the ranking never disagree on a word. This module only does the
//! arithmetic, in the order the pure-Python reference did it (terms summed in sorted order), so
//! the two give the same floats and the same ranking (tests/core/test_recall_scoring.py).

use std::collections::{BTreeMap, HashMap};

use crate::error::{Error, Result};

/// The method's knobs, as `recall.Tuning` holds them, and the query's term weights (idf).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub k1: f64,
    pub b: f64,
    pub avg_len: f64,
    pub previous_weight: f64,
    pub next_weight: f64,
    pub date_boost: f64,
}

/// Rows as they are added, each with its query terms' normalised frequencies.
pub struct PassageScorer {
    index: HashMap<String, usize>,
    weights: Vec<f64>,
    params: Params,
    // row id -> (term index, normalised tf), by term index (= sorted term order).
    rows: BTreeMap<i64, Vec<(usize, f64)>>,
}

impl PassageScorer {
    /// `terms` and `weights` pair up (a term's idf); any order.
    pub fn new(terms: Vec<String>, weights: Vec<f64>, params: Params) -> Result<Self> {
        if terms.len() != weights.len() {
            return Err(Error::Invalid(format!(
                "{} terms but {} weights",
                terms.len(),
                weights.len()
            )));
        }
        if weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(Error::Invalid("a weight is negative or not finite".into()));
        }
        let p = &params;
        let knobs = [
            p.k1,
            p.b,
            p.avg_len,
            p.previous_weight,
            p.next_weight,
            p.date_boost,
        ];
        if knobs.iter().any(|x| !x.is_finite() || *x < 0.0) || p.k1 <= 0.0 || p.avg_len <= 0.0 {
            return Err(Error::Invalid(
                "k1 and avg_len must be positive, the others not negative".into(),
            ));
        }
        let mut paired: Vec<(String, f64)> = terms.into_iter().zip(weights).collect();
        paired.sort_by(|a, b| a.0.cmp(&b.0));
        paired.dedup_by(|a, b| a.0 == b.0);
        let index = paired
            .iter()
            .enumerate()
            .map(|(i, (t, _))| (t.clone(), i))
            .collect();
        Ok(PassageScorer {
            index,
            weights: paired.into_iter().map(|(_, w)| w).collect(),
            params,
            rows: BTreeMap::new(),
        })
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn contains(&self, id: i64) -> bool {
        self.rows.contains_key(&id)
    }

    /// Add rows (id, words in it) and how often each query term occurs in them (row id, term,
    /// count); a row with no count holds none of the terms.
    pub fn add(&mut self, rows: &[(i64, usize)], counts: &[(i64, &str, u32)]) -> Result<()> {
        let mut norms = HashMap::with_capacity(rows.len());
        for &(id, words) in rows {
            let length = words.max(1) as f64;
            let p = &self.params;
            norms.insert(id, 1.0 - p.b + p.b * length / p.avg_len);
            self.rows.entry(id).or_default();
        }
        for &(id, term, count) in counts {
            let norm = *norms
                .get(&id)
                .ok_or_else(|| Error::Invalid(format!("a count for row {id}, not added")))?;
            let &t = self
                .index
                .get(term)
                .ok_or_else(|| Error::Invalid(format!("{term:?} is not a query term")))?;
            let tf = self.rows.get_mut(&id).expect("added above");
            match tf.binary_search_by_key(&t, |&(i, _)| i) {
                Ok(at) => tf[at].1 += f64::from(count) / norm,
                Err(at) => tf.insert(at, (t, f64::from(count) / norm)),
            }
        }
        Ok(())
    }

    fn bm25(&self, tf: impl Iterator<Item = (usize, f64)>) -> f64 {
        let k1 = self.params.k1;
        let mut sum = 0.0;
        for (t, x) in tf {
            sum += self.weights[t] * x * (k1 + 1.0) / (k1 + x);
        }
        sum
    }

    /// The `n` rows whose own words score best, best first (ties: the newer row).
    pub fn best(&self, n: usize) -> Vec<i64> {
        let scored: Vec<(i64, f64)> = self
            .rows
            .iter()
            .map(|(&id, tf)| (id, self.bm25(tf.iter().copied())))
            .collect();
        ordered(scored, n, |_| true)
    }

    /// The `n` best passages, best first, only those scoring above 0: a row's words plus its
    /// neighbours' (the previous line's weighing `previous_weight`, the next's `next_weight`,
    /// presence only, the larger share when both hold a word). A row of `dated` counts as if it
    /// held the weakest query term, then is boosted by `1 + date_boost`.
    pub fn rank(&self, dated: &[i64], n: usize) -> Vec<i64> {
        let p = &self.params;
        let floor = self.weights.iter().copied().reduce(f64::min).unwrap_or(0.0);
        let terms = self.weights.len();
        let mut own: Vec<Option<f64>> = vec![None; terms];
        let mut lent: Vec<Option<f64>> = vec![None; terms];
        let mut scored = Vec::with_capacity(self.rows.len());
        for (&id, tf) in &self.rows {
            own.fill(None);
            lent.fill(None);
            for &(t, x) in tf {
                own[t] = Some(x);
            }
            let neighbours = [
                (id.checked_sub(1), p.previous_weight),
                (id.checked_add(1), p.next_weight),
            ];
            for (j, weight) in neighbours {
                let Some(theirs) = j.and_then(|j| self.rows.get(&j)) else {
                    continue;
                };
                for &(t, x) in theirs {
                    let share = weight * x.min(1.0);
                    lent[t] = Some(lent[t].unwrap_or(0.0).max(share));
                }
            }
            let merged = (0..terms).filter_map(|t| match (own[t], lent[t]) {
                (None, None) => None,
                (a, b) => Some((t, a.unwrap_or(0.0) + b.unwrap_or(0.0))),
            });
            scored.push((id, self.bm25(merged)));
        }
        if !dated.is_empty() {
            let mut dated = dated.to_vec();
            dated.sort_unstable();
            let boost = 1.0 + p.date_boost;
            for (id, score) in &mut scored {
                if dated.binary_search(id).is_ok() {
                    *score = (*score + floor) * boost;
                }
            }
        }
        ordered(scored, n, |score| score > 0.0)
    }
}

/// The words of ASCII `text` as sqlite's unicode61 tokenizer splits it (runs of ASCII letters
/// and digits), lower-cased, that begin with one of `prefixes`; None when `text` is not ASCII.
fn words_beginning<'t>(
    text: &'t str,
    prefixes: &'t [String],
) -> Option<impl Iterator<Item = String> + 't> {
    if !text.is_ascii() {
        return None;
    }
    let words = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(move |w| {
            !w.is_empty()
                && prefixes.iter().any(|p| {
                    w.len() >= p.len() && w.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes())
                })
        })
        .map(str::to_ascii_lowercase);
    Some(words)
}

/// The distinct words of the ASCII `texts` that begin with one of `prefixes`, lower-cased,
/// sorted: the only words whose stems the caller needs from sqlite.
pub fn candidate_words(texts: &[&str], prefixes: &[String]) -> Vec<String> {
    let mut words: Vec<String> = texts
        .iter()
        .filter_map(|text| words_beginning(text, prefixes))
        .flatten()
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// (row id, term, occurrences) in the ASCII rows of the words `terms` maps to a query term (a
/// word's stem, from sqlite); rows that are not ASCII are the caller's to count.
pub fn count_terms(
    rows: &[(i64, &str)],
    prefixes: &[String],
    terms: &HashMap<String, String>,
) -> Vec<(i64, String, u32)> {
    let mut out = Vec::new();
    for &(id, text) in rows {
        let Some(words) = words_beginning(text, prefixes) else {
            continue;
        };
        let mut held: BTreeMap<&str, u32> = BTreeMap::new();
        for word in words {
            if let Some(term) = terms.get(&word) {
                *held.entry(term.as_str()).or_default() += 1;
            }
        }
        out.extend(held.into_iter().map(|(t, n)| (id, t.to_string(), n)));
    }
    out
}

/// Ids by score, highest first, ties by the higher id; the first `n` that `keep` accepts.
fn ordered(mut scored: Vec<(i64, f64)>, n: usize, keep: impl Fn(f64) -> bool) -> Vec<i64> {
    scored.retain(|&(_, s)| keep(s));
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    scored.into_iter().take(n).map(|(id, _)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Params {
        Params {
            k1: 0.9,
            b: 0.3,
            avg_len: 10.0,
            previous_weight: 0.7,
            next_weight: 0.5,
            date_boost: 1.0,
        }
    }

    fn scorer() -> PassageScorer {
        let terms = vec!["ramen".to_string(), "noor".to_string()];
        PassageScorer::new(terms, vec![2.0, 1.0], params()).unwrap()
    }

    #[test]
    fn a_row_holding_the_rarer_word_ranks_first() {
        let mut s = scorer();
        s.add(
            &[(1, 10), (5, 10), (9, 10)],
            &[(1, "noor", 1), (5, "ramen", 1)],
        )
        .unwrap();
        assert_eq!(s.best(2), vec![5, 1]);
        assert_eq!(s.rank(&[], 10), vec![5, 1]); // row 9 holds nothing: left out
    }

    #[test]
    fn the_line_after_a_question_borrows_its_words() {
        let mut s = scorer();
        s.add(&[(1, 10), (2, 10)], &[(1, "ramen", 1)]).unwrap();
        // Row 2 holds nothing itself but follows row 1: it scores, below the row it borrows from.
        assert_eq!(s.rank(&[], 10), vec![1, 2]);
    }

    #[test]
    fn a_dated_row_scores_even_without_a_word() {
        let mut s = scorer();
        s.add(&[(1, 10), (7, 10)], &[(1, "noor", 1)]).unwrap();
        assert_eq!(s.rank(&[7], 10), vec![7, 1]);
    }

    #[test]
    fn ties_break_by_the_newer_row() {
        let mut s = scorer();
        s.add(&[(3, 10), (8, 10)], &[(3, "ramen", 1), (8, "ramen", 1)])
            .unwrap();
        assert_eq!(s.best(5), vec![8, 3]);
    }

    #[test]
    fn words_are_split_as_unicode61_splits_ascii_and_counted_by_stem() {
        let prefixes = vec!["rel".to_string()];
        let texts = ["Relations, related_RELATED x-rel", "caf\u{e9} relations"];
        assert_eq!(
            candidate_words(&texts, &prefixes),
            vec!["rel", "related", "relations"]
        );
        let terms: HashMap<String, String> = [("related", "relat"), ("relations", "relat")]
            .into_iter()
            .map(|(w, t)| (w.to_string(), t.to_string()))
            .collect();
        let rows = [(1, texts[0]), (2, texts[1])];
        assert_eq!(
            count_terms(&rows, &prefixes, &terms),
            vec![(1, "relat".to_string(), 3)]
        );
    }

    #[test]
    fn unknown_terms_rows_and_bad_knobs_are_refused() {
        let mut s = scorer();
        assert!(s.add(&[(1, 3)], &[(1, "tea", 1)]).is_err());
        assert!(s.add(&[(1, 3)], &[(2, "ramen", 1)]).is_err());
        let bad = Params {
            k1: 0.0,
            ..params()
        };
        assert!(PassageScorer::new(vec![], vec![], bad).is_err());
        assert!(PassageScorer::new(vec!["a".into()], vec![], params()).is_err());
    }
}
