"""Core's side of Telegram: what a forwarded update becomes, and the state kept for it.

- `chat`: a forwarded update becomes a turn, an owner command or a pairing step.
- `state`: the paired chat, the pairing code, the last recorded update, the outbox (history.db).

The poller itself runs in the broker process (`transport.telegram`); core never reaches the network.
"""
