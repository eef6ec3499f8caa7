"""What a `shelldon doctor` check is: a function of the DoctorContext that yields CheckResults.

The checks themselves live with what they look at: the configuration and the providers in
`shelldon.cli.doctor_cmd`, the running processes in `shelldon.cli.procs_doctor`, the card (users,
modes, units) in `shelldon.appliance.doctor_checks`. `doctor_cmd` runs them all, in that order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from shelldon.contracts.config import ShelldonConfig
from shelldon.paths import DataRoot

Status = Literal["ok", "warn", "fail", "skip"]


@dataclass(frozen=True)
class CheckResult:
    status: Status
    name: str
    detail: str


@dataclass
class DoctorContext:
    root: DataRoot
    network: bool = True
    timeout: float = 15.0
    secrets: list[str] = field(default_factory=list)  # every key read, scrubbed from the report
    # How keys are read; None = the broker's vault read (tests inject their own).
    read_secret: Callable[[str], str | None] | None = None
    # Filled by check_config for the checks after it.
    config: ShelldonConfig | None = None
    config_ok: bool = False


Check = Callable[[DoctorContext], Iterable[CheckResult]]


def recording_reader(ctx: DoctorContext) -> Callable[[str], str | None]:
    """The vault (or the test's reader) for a check that calls a provider: each value read is
    also kept in `ctx.secrets`, so the report is scrubbed of it."""
    if ctx.read_secret is not None:
        source = ctx.read_secret
    else:
        from shelldon.broker.vault import surface_vault

        def source(key: str) -> str | None:
            value = surface_vault(ctx.root, key)
            return value if isinstance(value, str) else None

    def read(key: str) -> str | None:
        value = source(key)
        if isinstance(value, str) and value:
            ctx.secrets.append(value)
            return value
        return None

    return read
