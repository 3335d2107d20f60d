"""Snapshots of program state and the differences between them (seeds 000 and 002)."""

from .model import Node, Snapshot

__all__ = ["Node", "Snapshot"]
