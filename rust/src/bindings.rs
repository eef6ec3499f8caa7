//! The Python surface of `shelldon._native`: thin wrappers that take `str`/`bytes`/lists,
//! call the pyo3-free modules and return plain values. The one `Error -> PyErr` conversion lives here.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::error::Error;
use crate::ranker;

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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyRanker>()?;
    Ok(())
}
