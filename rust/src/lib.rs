//! shelldon's native core. The logic modules are pyo3-free and tested with `cargo test`;
//! `bindings.rs` is the one file that knows about Python.

pub mod append;
pub mod atomic;
pub mod credential;
pub mod error;
pub mod filename;
pub mod fts;
pub mod lexical;
pub mod passages;
pub mod ranker;
pub mod sandbox;
pub mod scanner;
pub mod seedphrase;
pub mod similarity;
pub mod unicode;
mod unicode_tables;
pub mod words;

mod bindings;
