"""The closed contracts between processes: memory-ops, learning-ops, brain requests.

Frozen, tagged msgspec structs with forbid_unknown_fields: a typo'd op name or an unknown field
is a decode error, never a silent mistake. Import each from its module (`contracts.ops`,
`contracts.wire`, `contracts.brain`, ...); the package re-exports nothing, so importing one
contract module does not load the others.
"""
