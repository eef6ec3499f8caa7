"""LLM-free core: the history store, curated memory, the gate, the scheduler. The sole writer.

core never imports broker/, worker/ or any HTTP/LLM code (tests/test_layering.py enforces it).
"""
