//! The Python surface of `shelldon._native`: thin wrappers that take `str`/`bytes`/lists and the
//! named records below, call the pyo3-free modules and return plain values or records. The one
//! `Error -> PyErr` conversion lives here.
//!
//! Records that cross the boundary are frozen classes wrapping the crate's own structs (`RankEntry`,
//! `RuleSpec`, `Comparison`), built with keyword arguments, so neither side counts tuple positions.
//! Results made in bulk on every turn stay tuples (`Ranker.rank`'s `(index, score, relevance)`,
//! 200 a turn; `Scanner.scan`'s `(rule id, start, end)`): a tuple costs a fraction of an object.

use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyString;

use crate::error::Error;
use crate::{
    append, atomic, credential, filename, fts, lexical, passages, ranker, sandbox, scanner,
    seedphrase, similarity, words,
};

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        match err {
            Error::Io(e) => match e.raw_os_error() {
                // OSError(errno, strerror) so Python sees .errno and the right subclass.
                Some(code) => PyOSError::new_err((code, e.to_string())),
                None => PyOSError::new_err(e.to_string()),
            },
            Error::Invalid(msg) => PyValueError::new_err(msg),
        }
    }
}

/// `Name(field=repr(value), ...)`, as a dataclass shows itself, read through the getters.
fn record_repr(record: &Bound<'_, PyAny>, fields: &[&str]) -> PyResult<String> {
    let mut parts = Vec::with_capacity(fields.len());
    for field in fields {
        parts.push(format!("{field}={}", record.getattr(*field)?.repr()?));
    }
    Ok(format!(
        "{}({})",
        record.get_type().name()?,
        parts.join(", ")
    ))
}

// ---- ranker.rs ------------------------------------------------------------------------------

/// One curated entry as the ranker sees it: tokens of title, tags and body, the file paths it
/// depends on, trust (the provenance's rank: 0 owner, 1 observed, 2 inferred), confidence 0..1,
/// updated (epoch seconds), stale, unverified. `Ranker` checks the values. The tokens stay the caller's `str`
/// objects (borrowed, not copied): a turn builds 200 of these.
#[pyclass(name = "RankEntry", module = "shelldon._native", frozen, eq)]
#[derive(PartialEq)]
struct PyRankEntry(ranker::RankEntry<PyBackedStr>);

#[pymethods]
impl PyRankEntry {
    #[new]
    #[pyo3(signature = (*, id, title, tags, body, paths, trust, confidence, updated, stale, unverified=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        id: PyBackedStr,
        title: Vec<PyBackedStr>,
        tags: Vec<PyBackedStr>,
        body: Vec<PyBackedStr>,
        paths: Vec<PyBackedStr>,
        trust: u8,
        confidence: f64,
        updated: f64,
        stale: bool,
        unverified: bool,
    ) -> Self {
        PyRankEntry(ranker::RankEntry {
            id,
            title,
            tags,
            body,
            paths,
            trust,
            confidence,
            updated,
            stale,
            unverified,
        })
    }

    #[getter]
    fn id(&self) -> &PyBackedStr {
        &self.0.id
    }
    #[getter]
    fn title(&self) -> &[PyBackedStr] {
        &self.0.title
    }
    #[getter]
    fn tags(&self) -> &[PyBackedStr] {
        &self.0.tags
    }
    #[getter]
    fn body(&self) -> &[PyBackedStr] {
        &self.0.body
    }
    #[getter]
    fn paths(&self) -> &[PyBackedStr] {
        &self.0.paths
    }
    #[getter]
    fn trust(&self) -> u8 {
        self.0.trust
    }
    #[getter]
    fn confidence(&self) -> f64 {
        self.0.confidence
    }
    #[getter]
    fn updated(&self) -> f64 {
        self.0.updated
    }
    #[getter]
    fn stale(&self) -> bool {
        self.0.stale
    }
    #[getter]
    fn unverified(&self) -> bool {
        self.0.unverified
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        record_repr(
            slf.as_any(),
            &[
                "id",
                "title",
                "tags",
                "body",
                "paths",
                "trust",
                "confidence",
                "updated",
                "stale",
                "unverified",
            ],
        )
    }
}

/// Above this many entries a ranking is worth releasing the GIL for (~20 us).
const RANK_DETACH_THRESHOLD: usize = 64;

/// `Ranker(entries)`: built once over curated entries; `rank` orders them against a turn.
#[pyclass(name = "Ranker", module = "shelldon._native", frozen)]
struct PyRanker {
    inner: ranker::Ranker,
}

#[pymethods]
impl PyRanker {
    #[new]
    fn new(entries: Vec<Bound<'_, PyRankEntry>>) -> PyResult<Self> {
        Ok(PyRanker {
            inner: ranker::Ranker::new(entries.iter().map(|entry| &entry.get().0))?,
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// [(index, score, relevance)], best first, ties by id; at most `limit`.
    #[pyo3(signature = (query, paths, now, limit))]
    fn rank(
        &self,
        py: Python<'_>,
        query: Vec<String>,
        paths: Vec<String>,
        now: f64,
        limit: usize,
    ) -> PyResult<Vec<ranker::Ranked>> {
        let run = || self.inner.rank(&query, &paths, now, limit);
        let ranked = if self.inner.len() > RANK_DETACH_THRESHOLD {
            py.detach(run)
        } else {
            run()
        };
        Ok(ranked?)
    }
}

// --- passages.rs: history recall's passage scoring ---------------------------------------------

/// `PassageScorer(terms=, weights=, k1=, b=, avg_len=, previous_weight=, next_weight=,
/// date_boost=)`: one search's candidate rows, added with their query terms' counts, then ranked.
#[pyclass(name = "PassageScorer", module = "shelldon._native")]
struct PyPassageScorer {
    inner: passages::PassageScorer,
}

#[pymethods]
impl PyPassageScorer {
    #[new]
    #[pyo3(signature = (*, terms, weights, k1, b, avg_len, previous_weight, next_weight, date_boost))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        terms: Vec<String>,
        weights: Vec<f64>,
        k1: f64,
        b: f64,
        avg_len: f64,
        previous_weight: f64,
        next_weight: f64,
        date_boost: f64,
    ) -> PyResult<Self> {
        let params = passages::Params {
            k1,
            b,
            avg_len,
            previous_weight,
            next_weight,
            date_boost,
        };
        Ok(PyPassageScorer {
            inner: passages::PassageScorer::new(terms, weights, params)?,
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __contains__(&self, id: i64) -> bool {
        self.inner.contains(id)
    }

    /// Rows `(id, words)` and the query terms' counts in them `(id, term, count)`.
    fn add(
        &mut self,
        rows: Vec<(i64, usize)>,
        counts: Vec<(i64, PyBackedStr, u32)>,
    ) -> PyResult<()> {
        let counts: Vec<(i64, &str, u32)> =
            counts.iter().map(|(id, t, n)| (*id, &**t, *n)).collect();
        Ok(self.inner.add(&rows, &counts)?)
    }

    /// The `n` ids whose own words score best, best first.
    fn best(&self, n: usize) -> Vec<i64> {
        self.inner.best(n)
    }

    /// The `n` best passages' ids, best first, scoring above 0; `dated` rows are boosted.
    #[pyo3(signature = (n, dated=Vec::new()))]
    fn rank(&self, n: usize, dated: Vec<i64>) -> Vec<i64> {
        self.inner.rank(&dated, n)
    }
}

/// The distinct words of the ASCII `texts` (as sqlite's unicode61 splits ASCII, lower-cased)
/// that begin with one of `prefixes`, sorted.
#[pyfunction]
fn candidate_words(texts: Vec<PyBackedStr>, prefixes: Vec<String>) -> Vec<String> {
    let texts: Vec<&str> = texts.iter().map(|t| &**t).collect();
    passages::candidate_words(&texts, &prefixes)
}

/// (row id, term, occurrences) of the words `terms` maps to a query term, in the ASCII rows.
#[pyfunction]
fn count_terms(
    rows: Vec<(i64, PyBackedStr)>,
    prefixes: Vec<String>,
    terms: std::collections::HashMap<String, String>,
) -> Vec<(i64, String, u32)> {
    let rows: Vec<(i64, &str)> = rows.iter().map(|(id, t)| (*id, &**t)).collect();
    passages::count_terms(&rows, &prefixes, &terms)
}

// --- words.rs: curated memory's words -------------------------------------------------------

/// `Tokenizer(stopwords)`: the Snowball English stemmer and the stop words, built once
/// (`shelldon.core.words` holds the one instance).
#[pyclass(name = "Tokenizer", module = "shelldon._native", frozen)]
struct PyTokenizer {
    inner: words::Tokenizer,
}

#[pymethods]
impl PyTokenizer {
    #[new]
    fn new(stopwords: Vec<String>) -> Self {
        PyTokenizer {
            inner: words::Tokenizer::new(stopwords),
        }
    }

    /// Snowball English for a word of letters; any other word as it is.
    fn stem(&self, word: &Bound<'_, PyString>) -> String {
        self.inner.stem(&text_of(word))
    }

    /// The non-stop words of already folded `text`, stemmed, in order, repeats kept.
    fn tokens(&self, text: &Bound<'_, PyString>) -> Vec<String> {
        self.inner.tokens(&text_of(text))
    }
}

// Lone surrogates cannot cross into Rust as UTF-8; lossily they become U+FFFD, which is no more
// a word character than the surrogate was, so results still match the Python references.
fn text_of(s: &Bound<'_, PyString>) -> String {
    s.to_string_lossy().into_owned()
}

// --- atomic.rs / append.rs: durable writes (fsync is milliseconds, so the GIL is released) ---

/// Replace `path` with `data` atomically (temp, rename) at `mode`; `durable`: the temp file fsynced
/// before the rename and the directory after it. Without, the caller syncs the filesystem later.
#[pyfunction]
#[pyo3(signature = (path, data, mode = 0o644, durable = true))]
fn atomic_write(
    py: Python<'_>,
    path: PathBuf,
    data: &[u8],
    mode: u32,
    durable: bool,
) -> PyResult<()> {
    // bytes are immutable, so the borrowed buffer stays valid while the GIL is released.
    py.detach(|| atomic::atomic_write(&path, data, mode, durable))
        .map_err(PyErr::from)
}

/// Append the record `data` (ending with a newline) to `path`, fsynced when `durable`; create it
/// at `mode` if absent. A partial write is cut back; a torn tail gets a newline first. Returns the
/// new size.
#[pyfunction]
#[pyo3(signature = (path, data, mode = 0o644, durable = true))]
fn durable_append(
    py: Python<'_>,
    path: PathBuf,
    data: &[u8],
    mode: u32,
    durable: bool,
) -> PyResult<u64> {
    py.detach(|| append::durable_append(&path, data, mode, durable))
        .map_err(PyErr::from)
}

/// syncfs(2) the filesystem holding `path`: every write made so far on it is durable.
#[pyfunction]
fn sync_filesystem(py: Python<'_>, path: PathBuf) -> PyResult<()> {
    py.detach(|| atomic::sync_filesystem(&path))
        .map_err(PyErr::from)
}

/// fsync the directory `path`, so a rename or unlink inside it is durable (ENOTDIR otherwise).
#[pyfunction]
fn fsync_dir(py: Python<'_>, path: PathBuf) -> PyResult<()> {
    py.detach(|| atomic::sync_dir(&path)).map_err(PyErr::from)
}

// --- the allocator ---

/// Give the C heap's free pages back to the kernel (glibc's `malloc_trim(0)`, every arena):
/// True when some were. A thread's arena keeps what a turn freed until then (~1.7 MB of core's
/// RSS at rest, docs/performance.md). False where the C library has no such call.
/// Let every thread of the process allocate from at most `count` malloc arenas (glibc's
/// M_ARENA_MAX; by default each thread that allocates may get its own, up to eight per core, and
/// each keeps what its turns freed). Called before the process starts its threads. False where
/// the C library has no such setting.
#[pyfunction]
fn limit_malloc_arenas(count: i32) -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only sets the allocator's own parameter.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, count) == 1 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = count;
        false
    }
}

#[pyfunction]
fn trim_heap(py: Python<'_>) -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: malloc_trim takes the allocator's own locks; it touches no Rust-owned memory.
        py.detach(|| unsafe { libc::malloc_trim(0) } == 1)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = py;
        false
    }
}

// --- fts.rs ---

/// An FTS5 MATCH expression of quoted, OR-ed word terms, or None when no term remains.
#[pyfunction]
// Literal defaults (pyo3 shows constants as `...`); fts.rs tests they equal the DEFAULT_* values.
#[pyo3(signature = (query, max_terms = 16, max_term_chars = 64))]
fn fts_query(
    query: &Bound<'_, PyString>,
    max_terms: usize,
    max_term_chars: usize,
) -> Option<String> {
    fts::sanitize_query(&text_of(query), max_terms, max_term_chars)
}

// --- filename.rs ---

/// The path-safe filename stem of `name` (the `<stem>` of `<stem>.md`); ValueError when nothing
/// usable remains.
#[pyfunction]
#[pyo3(signature = (name, max_bytes = 120))]
fn filename_stem(name: &Bound<'_, PyString>, max_bytes: usize) -> PyResult<String> {
    Ok(filename::filename_stem(&text_of(name), max_bytes)?)
}

// ---- gate: scanner ----------------------------------------------------------------------

/// One scanner rule: id, regex pattern, prefilter literals (one must occur for the rule to run;
/// none: it always runs), the span's minimum Shannon entropy (0: no floor), whether spans that
/// look like placeholders are dropped.
#[pyclass(name = "RuleSpec", module = "shelldon._native", frozen, eq)]
#[derive(PartialEq)]
struct PyRuleSpec(scanner::RuleSpec);

#[pymethods]
impl PyRuleSpec {
    #[new]
    #[pyo3(signature = (*, id, pattern, prefilter, min_entropy, skip_placeholders))]
    fn new(
        id: String,
        pattern: String,
        prefilter: Vec<String>,
        min_entropy: f64,
        skip_placeholders: bool,
    ) -> Self {
        PyRuleSpec(scanner::RuleSpec {
            id,
            pattern,
            prefilter,
            min_entropy,
            skip_placeholders,
        })
    }

    #[getter]
    fn id(&self) -> &str {
        &self.0.id
    }
    #[getter]
    fn pattern(&self) -> &str {
        &self.0.pattern
    }
    #[getter]
    fn prefilter(&self) -> &[String] {
        &self.0.prefilter
    }
    #[getter]
    fn min_entropy(&self) -> f64 {
        self.0.min_entropy
    }
    #[getter]
    fn skip_placeholders(&self) -> bool {
        self.0.skip_placeholders
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        record_repr(
            slf.as_any(),
            &[
                "id",
                "pattern",
                "prefilter",
                "min_entropy",
                "skip_placeholders",
            ],
        )
    }
}

/// The gate's compiled rule set. Build once; `scan` returns (rule id, start, end) in characters.
#[pyclass(module = "shelldon._native", frozen)]
struct Scanner {
    inner: scanner::Scanner,
}

impl Scanner {
    fn hits_as_tuples(&self, text: &str) -> Vec<(String, usize, usize)> {
        let hits = self.inner.scan(text);
        let mut offsets = Vec::with_capacity(hits.len() * 2);
        for hit in &hits {
            offsets.push(hit.start);
            offsets.push(hit.end);
        }
        let chars = scanner::byte_to_char_offsets(text, &offsets);
        hits.iter()
            .enumerate()
            .map(|(i, hit)| {
                (
                    self.inner.rule_id(hit.rule).to_string(),
                    chars[2 * i],
                    chars[2 * i + 1],
                )
            })
            .collect()
    }
}

#[pymethods]
impl Scanner {
    #[new]
    #[pyo3(signature = (rules, placeholders))]
    fn new(rules: Vec<Bound<'_, PyRuleSpec>>, placeholders: Vec<String>) -> PyResult<Self> {
        let specs: Vec<scanner::RuleSpec> = rules.iter().map(|rule| rule.get().0.clone()).collect();
        Ok(Scanner {
            inner: scanner::Scanner::new(&specs, &placeholders)?,
        })
    }

    /// Every finding in `text`: (rule id, start, end) as character offsets, sorted by position.
    fn scan(&self, text: &Bound<'_, PyString>) -> Vec<(String, usize, usize)> {
        self.hits_as_tuples(&text_of(text))
    }

    /// `scan` for many texts at once, without the GIL.
    fn scan_batch(
        &self,
        py: Python<'_>,
        texts: Vec<Bound<'_, PyString>>,
    ) -> Vec<Vec<(String, usize, usize)>> {
        let texts: Vec<String> = texts.iter().map(text_of).collect();
        py.detach(|| texts.iter().map(|t| self.hits_as_tuples(t)).collect())
    }

    /// The ids of the rules that fire on `text`, each once, in rule order.
    fn rules_hit(&self, text: &Bound<'_, PyString>) -> Vec<String> {
        self.inner
            .rules_hit(&text_of(text))
            .into_iter()
            .map(|i| self.inner.rule_id(i).to_string())
            .collect()
    }

    /// True when `value` matches one of the placeholder patterns.
    fn is_placeholder(&self, value: &str) -> bool {
        self.inner.is_placeholder(value)
    }

    /// Drop the regexes' search caches: the same matches after, the next scan makes them again
    /// (core does it at rest, after each turn: docs/performance.md, "Memory at rest").
    fn release_caches(&self) {
        self.inner.release_caches()
    }

    /// Bytes the regexes' search caches hold now (0 after `release_caches`, before a scan).
    fn cache_bytes(&self) -> usize {
        self.inner.cache_bytes()
    }

    /// Drop the rules' compiled automata with their caches: the same matches after, each rule
    /// compiles again on the next text that needs it (core's rest: docs/performance.md).
    fn release_compiled(&self) {
        self.inner.release_compiled()
    }

    /// How many rules hold a compiled automaton now.
    fn compiled_rules(&self) -> usize {
        self.inner.compiled_rules()
    }

    fn rule_ids(&self) -> Vec<String> {
        self.inner.rule_ids()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// Shannon entropy of `text` in bits per character.
#[pyfunction]
fn shannon_entropy(text: &str) -> f64 {
    scanner::shannon_entropy(text)
}

/// Spans (in characters) of wallet seed phrases in `text`: runs of 12 or more BIP-39 words
/// (seedphrase.rs; `shelldon.core.gate.seed_words` documents the rule).
#[pyfunction]
fn seed_phrase_spans(text: &str) -> Vec<(usize, usize)> {
    seedphrase::seed_phrase_spans(text)
}

/// Spans (in characters) of runs of `min_words` or more BIP-39 words read as a phrase's are,
/// whatever their repeats: the parts of a phrase cut across writes (seedphrase.rs).
#[pyfunction]
fn seed_word_runs(text: &str, min_words: usize) -> Vec<(usize, usize)> {
    seedphrase::seed_word_runs(text, min_words)
}

/// The BIP-39 English words the seed-phrase rule reads, sorted.
#[pyfunction]
fn seed_words() -> Vec<&'static str> {
    seedphrase::seed_words()
}

// ---- gate: the learned lexical model (lexical.rs) -------------------------------------------

/// The distinct hashed n-gram buckets of `text` under `2**bits` buckets, sorted: what the
/// training script fits weights on, so training and scoring share one feature function.
#[pyfunction]
#[pyo3(signature = (text, bits))]
fn lexical_features(text: &Bound<'_, PyString>, bits: u32) -> PyResult<Vec<u32>> {
    if !(8..=24).contains(&bits) {
        return Err(PyValueError::new_err("bits must be within 8..=24"));
    }
    Ok(lexical::features(&text_of(text), bits))
}

/// A linear model over hashed n-grams, read from its weights file's bytes.
#[pyclass(name = "LexicalModel", module = "shelldon._native", frozen)]
struct PyLexicalModel(lexical::LinearModel);

#[pymethods]
impl PyLexicalModel {
    #[new]
    fn new(data: &[u8]) -> PyResult<Self> {
        Ok(PyLexicalModel(lexical::LinearModel::from_bytes(data)?))
    }

    /// (probability, [(n-gram, weight), ...]): the `top` n-grams that raised the score most.
    #[pyo3(signature = (text, top=3))]
    fn score(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        top: usize,
    ) -> (f64, Vec<(String, f32)>) {
        let text = text_of(text);
        let scored = py.detach(|| self.0.score(&text, top));
        (scored.probability, scored.strongest)
    }

    #[getter]
    fn bits(&self) -> u32 {
        self.0.bits()
    }
}

// ---- gate: the learned credential model (credential.rs) --------------------------------------

/// Every credential candidate of `text`: (start, end, features), offsets in characters, the
/// features by name (what the training script hashes, so training and scoring share them).
#[pyfunction]
fn credential_candidates(
    py: Python<'_>,
    text: &Bound<'_, PyString>,
) -> Vec<(usize, usize, Vec<String>)> {
    let text = text_of(text);
    py.detach(|| {
        credential::candidates(&text)
            .into_iter()
            .map(|c| (c.start, c.end, c.features))
            .collect()
    })
}

/// A finding as Python sees it: (start, end, probability, [(feature, weight), ...]).
type CredentialFinding = (usize, usize, f64, Vec<(String, f32)>);

/// A linear model over credential candidates' hashed features, read from its weights file's
/// bytes; values matching one of `placeholders` (regexes) are never reported.
#[pyclass(name = "CredentialModel", module = "shelldon._native", frozen)]
struct PyCredentialModel(credential::CredentialModel);

#[pymethods]
impl PyCredentialModel {
    #[new]
    #[pyo3(signature = (data, placeholders=Vec::new()))]
    fn new(data: &[u8], placeholders: Vec<String>) -> PyResult<Self> {
        Ok(PyCredentialModel(credential::CredentialModel::from_bytes(
            data,
            &placeholders,
        )?))
    }

    /// [(start, end, probability, [(feature, weight), ...]), ...]: each candidate scoring at
    /// least `threshold`, offsets in characters, with the `top` shown features that raised it.
    #[pyo3(signature = (text, threshold, top=3))]
    fn scan(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        threshold: f64,
        top: usize,
    ) -> Vec<CredentialFinding> {
        let text = text_of(text);
        py.detach(|| {
            self.0
                .scan(&text, threshold, top)
                .into_iter()
                .map(|f| (f.start, f.end, f.probability, f.strongest))
                .collect()
        })
    }

    /// The probability of one candidate's features (names, as `credential_candidates` gives).
    fn probability(&self, features: Vec<String>) -> f64 {
        self.0.probability(&features)
    }

    /// Drop the placeholders' compiled regex (core's rest); the next scan compiles it again.
    fn release_compiled(&self) {
        self.0.release_compiled()
    }

    #[getter]
    fn bits(&self) -> u32 {
        self.0.bits()
    }
}

// ---- gate: similarity -------------------------------------------------------------------

/// How a candidate compares with one other text: score (Dice similarity of content tokens),
/// veto ("", "negation", "number" or "proper_noun"), added (content tokens only the candidate
/// has), dropped (content tokens only the other has).
#[pyclass(name = "Comparison", module = "shelldon._native", frozen, eq)]
#[derive(PartialEq)]
struct PyComparison(similarity::Comparison);

#[pymethods]
impl PyComparison {
    #[new]
    #[pyo3(signature = (*, score, veto, added, dropped))]
    fn new(score: f64, veto: &str, added: usize, dropped: usize) -> PyResult<Self> {
        let veto = similarity::Veto::from_code(veto)
            .ok_or_else(|| Error::Invalid(format!("unknown veto {veto:?}")))?;
        Ok(PyComparison(similarity::Comparison {
            score,
            veto,
            added,
            dropped,
        }))
    }

    #[getter]
    fn score(&self) -> f64 {
        self.0.score
    }
    #[getter]
    fn veto(&self) -> &'static str {
        self.0.veto.code()
    }
    #[getter]
    fn added(&self) -> usize {
        self.0.added
    }
    #[getter]
    fn dropped(&self) -> usize {
        self.0.dropped
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        record_repr(slf.as_any(), &["score", "veto", "added", "dropped"])
    }
}

/// Compare `candidate` with each of `others`, in order.
#[pyfunction]
fn similarity_batch(
    candidate: &Bound<'_, PyString>,
    others: Vec<Bound<'_, PyString>>,
) -> Vec<PyComparison> {
    let others: Vec<String> = others.iter().map(text_of).collect();
    let refs: Vec<&str> = others.iter().map(String::as_str).collect();
    similarity::similarity_batch(&text_of(candidate), &refs)
        .into_iter()
        .map(PyComparison)
        .collect()
}

// ---- sandbox.rs -----------------------------------------------------------------------------

/// The worker's seccomp filter for this machine's ABI, as `struct sock_filter` bytes: each listed
/// call answers `errno` (EPERM in the product; tests pass another to tell the filter's refusal
/// from the kernel's own).
#[pyfunction]
#[pyo3(signature = (errno = 1))]
fn worker_filter(errno: u32) -> PyResult<Vec<u8>> {
    let prog = sandbox::build(sandbox::Arch::native()?, errno)?;
    Ok(sandbox::to_bytes(&prog))
}

/// The calls the filter lists for this machine's ABI: (name, number, rule), rule one of
/// "refuse", "unless-unix", "new-namespace", "unsupported".
#[pyfunction]
fn filtered_calls() -> PyResult<Vec<(&'static str, u32, &'static str)>> {
    Ok(sandbox::listed_for(sandbox::Arch::native()?)
        .into_iter()
        .map(|(name, nr, rule)| (name, nr, rule.name()))
        .collect())
}

/// prctl(option, arg2, 0, 0, 0) for the drop's and the sandbox's integer-only options (see
/// sandbox::PLAIN_PRCTL); OSError with the errno when it fails, ValueError for another option.
#[pyfunction]
#[pyo3(signature = (option, arg2 = 0))]
fn prctl(option: i32, arg2: u64) -> PyResult<i32> {
    Ok(sandbox::prctl_plain(option, arg2)?)
}

/// Make every call the filter lists, each with arguments that would do nothing were it let
/// through: (name, rule, result, errno). For the isolation probe, inside a confined worker.
#[pyfunction]
fn try_filtered_calls(py: Python<'_>) -> PyResult<Vec<(&'static str, &'static str, i64, i32)>> {
    let arch = sandbox::Arch::native()?;
    Ok(py.detach(|| sandbox::try_listed(arch)))
}

/// Install `program` (from `worker_filter`) on the calling thread; needs no_new_privs. Irrevocable.
#[pyfunction]
fn install_filter(program: &[u8]) -> PyResult<()> {
    sandbox::install(program)?;
    Ok(())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyRankEntry>()?;
    m.add_class::<PyRanker>()?;
    m.add_class::<PyTokenizer>()?;
    m.add_class::<PyPassageScorer>()?;
    m.add_function(wrap_pyfunction!(candidate_words, m)?)?;
    m.add_function(wrap_pyfunction!(count_terms, m)?)?;
    m.add("UNICODE_VERSION", crate::unicode_tables::UNICODE_VERSION)?;
    m.add("TEMP_MARKER", atomic::TEMP_MARKER)?;
    m.add_function(wrap_pyfunction!(atomic_write, m)?)?;
    m.add_function(wrap_pyfunction!(durable_append, m)?)?;
    m.add_function(wrap_pyfunction!(fsync_dir, m)?)?;
    m.add_function(wrap_pyfunction!(sync_filesystem, m)?)?;
    m.add_function(wrap_pyfunction!(trim_heap, m)?)?;
    m.add_function(wrap_pyfunction!(limit_malloc_arenas, m)?)?;
    m.add_function(wrap_pyfunction!(prctl, m)?)?;
    m.add_function(wrap_pyfunction!(try_filtered_calls, m)?)?;
    m.add_function(wrap_pyfunction!(fts_query, m)?)?;
    m.add_function(wrap_pyfunction!(filename_stem, m)?)?;
    m.add_class::<PyRuleSpec>()?;
    m.add_class::<Scanner>()?;
    m.add_function(wrap_pyfunction!(shannon_entropy, m)?)?;
    m.add_function(wrap_pyfunction!(seed_phrase_spans, m)?)?;
    m.add_function(wrap_pyfunction!(seed_word_runs, m)?)?;
    m.add_function(wrap_pyfunction!(seed_words, m)?)?;
    m.add_function(wrap_pyfunction!(lexical_features, m)?)?;
    m.add_class::<PyLexicalModel>()?;
    m.add_function(wrap_pyfunction!(credential_candidates, m)?)?;
    m.add_class::<PyCredentialModel>()?;
    m.add_class::<PyComparison>()?;
    m.add_function(wrap_pyfunction!(similarity_batch, m)?)?;
    m.add_function(wrap_pyfunction!(worker_filter, m)?)?;
    m.add_function(wrap_pyfunction!(filtered_calls, m)?)?;
    m.add_function(wrap_pyfunction!(install_filter, m)?)?;
    Ok(())
}
