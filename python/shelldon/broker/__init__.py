"""The broker: egress to LLM providers, credentials, and the one vault read path."""
