"""The program's life under the debugger: the link to its adapter, its start, its run, its child processes, its
tests, and its end."""
