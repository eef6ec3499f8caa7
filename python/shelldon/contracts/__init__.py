"""The closed contracts between processes: memory-ops, learning-ops, brain requests.

Frozen, tagged msgspec structs with forbid_unknown_fields: a typo'd op name or an unknown field
is a decode error, never a silent mistake.
"""

from shelldon.contracts.ops import (
    COLLECTION_NAMES,
    CaptureLearning,
    LearningOp,
    LogEpisode,
    MemoryOp,
    Merge,
    Op,
    OpDecodeError,
    Remember,
    ResolveLearning,
    RewriteAbout,
    RewriteSummary,
    decode_op,
    decode_ops,
    encode_op,
    op_name,
)

__all__ = [
    "COLLECTION_NAMES",
    "CaptureLearning",
    "LearningOp",
    "LogEpisode",
    "MemoryOp",
    "Merge",
    "Op",
    "OpDecodeError",
    "Remember",
    "ResolveLearning",
    "RewriteAbout",
    "RewriteSummary",
    "decode_op",
    "decode_ops",
    "encode_op",
    "op_name",
]
