"""shelldon: a pocket AI pet that remembers and learns, safely.

Workers propose, core writes. See docs/architecture.md for the map.
"""

__version__ = "0.1.0"
