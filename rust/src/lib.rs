//! shelldon's native core. The logic modules are pyo3-free and tested with `cargo test`;
//! `bindings.rs` is the one file that knows about Python.

pub mod error;
pub mod ranker;

mod bindings;
