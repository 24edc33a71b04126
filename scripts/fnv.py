"""The digest the conformance recordings use (`tests/it/conformance.rs` computes the same)."""

FNV_OFFSET = 0xCBF29CE484222325


def fnv1a64(data, h=FNV_OFFSET):
    """64-bit FNV-1a of the bytes `data`, continued from `h`."""
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h
