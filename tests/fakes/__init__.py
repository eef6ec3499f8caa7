"""Test doubles that are real servers (a fake LLM provider on 127.0.0.1, ...)."""
