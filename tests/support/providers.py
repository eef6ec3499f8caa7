"""HTTP providers pointed at the fake (tests/fakes/fake_provider.py), in-process or for the pet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from fakes.fake_provider import FAKE_KEY, FakeProvider
from shelldon.broker.providers import make_provider
from shelldon.broker.providers.base import Provider
from shelldon.contracts.config import ProviderConfig
from support.pet import start_pet


def http_provider(fake: FakeProvider, kind: str, **overrides: object) -> Provider:
    """A provider of `kind` at the fake, keyed with FAKE_KEY, no retries, 5 s."""
    base: dict[str, Any] = {
        "name": f"fake-{kind}",
        "kind": kind,
        "base_url": fake.openai_base_url,
        "model": "fake-model",
        "key": "fake_key",
        "timeout": 5.0,
        "retries": 0,
    }
    base.update(overrides)
    return make_provider(msgspec.convert(base, ProviderConfig), lambda name: FAKE_KEY)


def configure_pet(home: Path, fake: FakeProvider, **settings: str | float) -> None:
    """shelldon.toml: the fake (keyed by the vault's llm_key), then the offline brain."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "shelldon.toml").write_text(
        fake.provider_table(key="llm_key", retries=0, **settings)
        + '\n[[provider]]\nname = "offline"\nkind = "offline"\n'
    )


def store_key(home: Path) -> None:
    """The owner's way: the pet up (offline brain), `shelldon vault set`, the pet down."""
    pet = start_pet()
    try:
        stored = pet.cli("vault", "set", "llm_key", stdin=FAKE_KEY + "\n")
        assert stored.returncode == 0, stored.stderr
    finally:
        pet.stop()
