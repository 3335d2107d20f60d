"""A paused program's memory: its bytes and the instructions in it."""
