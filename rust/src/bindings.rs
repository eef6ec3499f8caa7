//! The Python surface of `shelldon._native`: thin wrappers that take `str`/`bytes`/lists,
//! call the pyo3-free modules and return plain values. The one `Error -> PyErr` conversion lives here.

use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::error::Error;
use crate::scanner::{self, RuleSpec};
use crate::{append, atomic, fts, ranker, similarity, stem};

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

/// One entry for the ranker: (id, title tokens, tag tokens, body tokens, paths, trust 0/1/2,
/// confidence 0..1, updated as epoch seconds, stale).
type RankEntryTuple = (
    String,
    Vec<String>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
    u8,
    f64,
    f64,
    bool,
);

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
    fn new(entries: Vec<RankEntryTuple>) -> PyResult<Self> {
        let entries = entries
            .into_iter()
            .map(
                |(id, title, tags, body, paths, trust, confidence, updated, stale)| {
                    ranker::RankEntry {
                        id,
                        title,
                        tags,
                        body,
                        paths,
                        trust,
                        confidence,
                        updated,
                        stale,
                    }
                },
            )
            .collect();
        Ok(PyRanker {
            inner: ranker::Ranker::new(entries)?,
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

// Lone surrogates cannot cross into Rust as UTF-8; lossily they become U+FFFD, which is no more
// a word character than the surrogate was, so results still match the Python references.
fn text_of(s: &Bound<'_, PyString>) -> String {
    s.to_string_lossy().into_owned()
}

// --- atomic.rs / append.rs: durable writes (fsync is milliseconds, so the GIL is released) ---

/// Replace `path` with `data` atomically and durably (temp, fsync, rename, fsync dir), at `mode`.
#[pyfunction]
#[pyo3(signature = (path, data, mode = 0o644))]
fn atomic_write(py: Python<'_>, path: PathBuf, data: &[u8], mode: u32) -> PyResult<()> {
    // bytes are immutable, so the borrowed buffer stays valid while the GIL is released.
    py.detach(|| atomic::atomic_write(&path, data, mode))
        .map_err(PyErr::from)
}

/// Append `data` to `path` with one fsync; create it at `mode` if absent. Returns the new size.
#[pyfunction]
#[pyo3(signature = (path, data, mode = 0o644))]
fn durable_append(py: Python<'_>, path: PathBuf, data: &[u8], mode: u32) -> PyResult<u64> {
    py.detach(|| append::durable_append(&path, data, mode))
        .map_err(PyErr::from)
}

/// fsync the directory `path`, so a rename or unlink inside it is durable (ENOTDIR otherwise).
#[pyfunction]
fn fsync_dir(py: Python<'_>, path: PathBuf) -> PyResult<()> {
    py.detach(|| atomic::sync_dir(&path)).map_err(PyErr::from)
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

// --- stem.rs ---

/// The path-safe filename stem of `name`; ValueError when nothing usable remains.
#[pyfunction]
#[pyo3(signature = (name, max_bytes = 120))]
fn safe_stem(name: &Bound<'_, PyString>, max_bytes: usize) -> PyResult<String> {
    Ok(stem::safe_stem(&text_of(name), max_bytes)?)
}

// ---- gate: scanner ----------------------------------------------------------------------

/// A rule as Python passes it: (id, pattern, prefilter literals, entropy floor, skip placeholders).
type RuleTuple = (String, String, Vec<String>, f64, bool);

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
    fn new(rules: Vec<RuleTuple>, placeholders: Vec<String>) -> PyResult<Self> {
        let specs: Vec<RuleSpec> = rules
            .into_iter()
            .map(
                |(id, pattern, prefilter, min_entropy, skip_placeholders)| RuleSpec {
                    id,
                    pattern,
                    prefilter,
                    min_entropy,
                    skip_placeholders,
                },
            )
            .collect();
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

// ---- gate: similarity -------------------------------------------------------------------

/// Compare `candidate` with each of `others`: (Dice similarity of content tokens, veto code,
/// content tokens only the candidate has, content tokens only the other has). The veto code is
/// "", "negation", "number" or "proper_noun".
#[pyfunction]
fn similarity_batch(
    candidate: &Bound<'_, PyString>,
    others: Vec<Bound<'_, PyString>>,
) -> Vec<(f64, &'static str, usize, usize)> {
    let others: Vec<String> = others.iter().map(text_of).collect();
    let refs: Vec<&str> = others.iter().map(String::as_str).collect();
    similarity::similarity_batch(&text_of(candidate), &refs)
        .into_iter()
        .map(|c| (c.score, c.veto.code(), c.added, c.dropped))
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyRanker>()?;
    m.add("UNICODE_VERSION", crate::unicode_tables::UNICODE_VERSION)?;
    m.add("TEMP_MARKER", atomic::TEMP_MARKER)?;
    m.add_function(wrap_pyfunction!(atomic_write, m)?)?;
    m.add_function(wrap_pyfunction!(durable_append, m)?)?;
    m.add_function(wrap_pyfunction!(fsync_dir, m)?)?;
    m.add_function(wrap_pyfunction!(fts_query, m)?)?;
    m.add_function(wrap_pyfunction!(safe_stem, m)?)?;
    m.add_class::<Scanner>()?;
    m.add_function(wrap_pyfunction!(shannon_entropy, m)?)?;
    m.add_function(wrap_pyfunction!(similarity_batch, m)?)?;
    Ok(())
}
