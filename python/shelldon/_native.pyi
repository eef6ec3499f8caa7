# Hand-written stub for the Rust module; `just lint` checks it with mypy.stubtest.
# Keep one section per Rust module, in the order of rust/src/bindings.rs.

from typing import final

__version__: str

# ranker.rs: curated entries ranked against a turn.
@final
class Ranker:
    def __new__(
        cls,
        entries: list[
            tuple[str, list[str], list[str], list[str], list[str], int, float, float, bool]
        ],
    ) -> Ranker: ...
    def __len__(self) -> int: ...
    def rank(
        self, query: list[str], paths: list[str], now: float, limit: int
    ) -> list[tuple[int, float, float]]: ...
