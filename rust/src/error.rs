//! The crate's one error type. Every fallible function returns `Result<T, Error>`;
//! `bindings.rs` holds the single conversion into Python exceptions.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// An operating-system failure; becomes `OSError` with the errno kept.
    Io(std::io::Error),
    /// Input the caller should not have passed (empty stem, bad rule); becomes `ValueError`.
    Invalid(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "{e}"),
            Error::Invalid(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_keep_their_errno() {
        let err: Error = std::io::Error::from_raw_os_error(2).into();
        match err {
            Error::Io(e) => assert_eq!(e.raw_os_error(), Some(2)),
            Error::Invalid(_) => panic!("expected Io"),
        }
    }

    #[test]
    fn invalid_displays_its_message() {
        assert_eq!(
            Error::Invalid("empty stem".into()).to_string(),
            "empty stem"
        );
    }
}
