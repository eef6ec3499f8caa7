"""The Telegram transport as the broker process starts it: light until there is a bot token.

`shelldon broker` (cli.run_cmd, the broker process's entry, above transport/) asks
`broker_transports` for the transports to run and hands them to `broker.server.main`, which starts
them once its socket listens (broker/ never imports transport/). Most pets have no bot: until the
vault holds the token, this module only looks for it every few seconds; the Bot API client, TLS and
the poll loop (`shelldon.transport.telegram`, ~3 MB of RSS with TLS) are imported once it is there.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Protocol

from shelldon.broker.vault import surface_vault
from shelldon.contracts.config import TelegramConfig
from shelldon.core.vault import VaultError
from shelldon.paths import DataRoot

if TYPE_CHECKING:
    from shelldon.transport.telegram_voice import VoicePlan

log = logging.getLogger("shelldon.transport.telegram")

TOKEN_RECHECK_S = 10.0  # no token yet: look in the vault again after this long
STATE_NO_TOKEN = "telegram: off (no {key} in the vault: `shelldon vault set {key}`)"


class _Running(Protocol):
    def run(self) -> None: ...

    def stop(self) -> None: ...

    def status_lines(self) -> list[str]: ...


class TelegramTransport:
    """`start()` once the broker serves, `stop()` at shutdown, `status_lines()` for `shelldon
    status` (the broker's Pong)."""

    def __init__(
        self, root: DataRoot, config: TelegramConfig, voice: VoicePlan | None = None
    ) -> None:
        self.root = root
        self.config = config
        self.voice = voice
        self._stop = threading.Event()
        self._poller: _Running | None = None

    def start(self) -> None:
        threading.Thread(target=self._run, name="telegram-poll", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        if self._poller is not None:
            self._poller.stop()

    def status_lines(self) -> list[str]:
        if self._poller is None:
            return [STATE_NO_TOKEN.format(key=self.config.token_key)]
        return self._poller.status_lines()

    def _has_token(self) -> bool:
        try:
            return bool(surface_vault(self.root, self.config.token_key))
        except (OSError, VaultError) as exc:
            log.warning("telegram: cannot read the vault: %s", exc)
            return False

    def _run(self) -> None:
        while not self._has_token():
            if self._stop.wait(TOKEN_RECHECK_S):
                return
        from shelldon.transport.telegram import TelegramPoller

        self._poller = TelegramPoller(self.root, self.config, stop=self._stop, voice=self.voice)
        self._poller.run()


def broker_transports(root: DataRoot) -> list[TelegramTransport]:
    """The transports the broker process runs: Telegram unless `[telegram] enabled = false`. A
    broken shelldon.toml: none (the broker itself reports the file and exits)."""
    from shelldon.config import ConfigError, load_config

    try:
        config = load_config(root)
    except ConfigError:
        return []
    if not config.telegram.enabled:
        return []
    from shelldon.transport.telegram_voice import plan_of

    return [TelegramTransport(root, config.telegram, plan_of(config))]
