"""LLM-free core, the sole writer: history, curated memory, the gate, and what runs the turns.

Laid out by domain, lowest first (each package imports only those below it; tests/test_layering.py
holds the order and docs/architecture.md shows it): the leaves (`words`, `outcome`, `status`),
`gate`, `storage`, `memory` (+ `vault`, `runner`), `retrieval` (how a fact reaches the prompt),
`history`, `stores` and `upkeep`, `telegram`, `proactive`, `learning`, `dream`, `turn`, then the
process: `commands` (its one dispatcher of owner commands) and `server`.

core never imports broker/, worker/ or any HTTP/LLM code; each package's face is a docstring.
"""
