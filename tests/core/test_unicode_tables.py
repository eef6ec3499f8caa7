"""rust/src/unicode_tables.rs is what scripts/gen_unicode_tables.py makes under its pinned Unicode
version (15.1.0, Python 3.13), whatever Python runs the suite (docs/storage.md, "Unicode")."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path

import pytest

from shelldon import _native
from support.unicode import FIXTURES, PYTHON_IS_OLDER, SAME_VERSION, native_assigns, python_assigns

REPO = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("gen", REPO / "scripts" / "gen_unicode_tables.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def test_the_tables_are_the_pinned_version() -> None:
    # NFC's crate is held to the same version by a cargo test (filename.rs).
    assert _native.UNICODE_VERSION == _generator().EXPECTED_UNICODE == "15.1.0"
    assert (FIXTURES / f"unicode-assigned-{_native.UNICODE_VERSION}.txt").is_file()


@pytest.mark.skipif(
    not SAME_VERSION,
    reason=f"the tables are made under Unicode {_native.UNICODE_VERSION} (Python 3.13); this "
    f"Python's is {unicodedata.unidata_version}: the differential tests compare every character "
    "both assign instead",
)
def test_checked_in_tables_are_regenerated_identically() -> None:
    gen = _generator()
    checked_in = (REPO / "rust" / "src" / "unicode_tables.rs").read_text()
    assert gen.render() == checked_in, (
        "run: python3 scripts/gen_unicode_tables.py > rust/src/unicode_tables.rs"
    )
    assigned = FIXTURES / f"unicode-assigned-{_native.UNICODE_VERSION}.txt"
    assert gen.render_assigned() == assigned.read_text()


def test_the_assigned_list_agrees_with_this_python() -> None:
    """Same version: the lists are equal; an older Python: everything it assigns the tables'
    version assigns too (Unicode never unassigns); a newer one: the reverse."""
    disagree = [
        cp
        for cp in range(0x110000)
        if not 0xD800 <= cp <= 0xDFFF and native_assigns(cp) != python_assigns(cp)
    ]
    if SAME_VERSION:
        assert not disagree
    elif PYTHON_IS_OLDER:
        assert all(native_assigns(cp) for cp in disagree)
    else:
        assert all(python_assigns(cp) for cp in disagree)
    # A wrong list would show here: the versions between 14.0 and 16.0 each add thousands.
    assert len(disagree) < 10_000
