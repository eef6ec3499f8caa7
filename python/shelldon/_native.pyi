# Hand-written stub for the Rust module; `just lint` checks it with mypy.stubtest.
# Keep one section per Rust module, in the order of rust/src/bindings.rs.

__version__: str
