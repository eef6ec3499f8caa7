"""rust/src/unicode_tables.rs is what scripts/gen_unicode_tables.py makes from this Python."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path

from shelldon import _native

REPO = Path(__file__).resolve().parents[2]


def test_python_and_native_agree_on_the_unicode_version() -> None:
    assert unicodedata.unidata_version == _native.UNICODE_VERSION == "14.0.0"


def test_checked_in_tables_are_regenerated_identically() -> None:
    spec = importlib.util.spec_from_file_location("gen", REPO / "scripts" / "gen_unicode_tables.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    checked_in = (REPO / "rust" / "src" / "unicode_tables.rs").read_text()
    assert gen.render() == checked_in, (
        "run: python scripts/gen_unicode_tables.py > rust/src/unicode_tables.rs"
    )
