"""What `shelldon status` says: the rendering, the model link, the clock.

- `text`: status as text, for the terminal, `/status` in any chat and the CLI.
- `links`: a provider that did not answer, told to the owner once.
- `clock_watch`: whether the clock can be trusted.
"""
