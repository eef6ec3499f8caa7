//! The Python surface of `shelldon._native`: thin wrappers that take `str`/`bytes`/lists,
//! call the pyo3-free modules and return plain values. The one `Error -> PyErr` conversion lives here.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::error::Error;

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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
