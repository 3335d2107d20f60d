"""Breakpoints from the agent's request to the adapter's: specs, checks, the registry that keeps them in step,
their moves across edits, tracepoints' messages, and watches."""
