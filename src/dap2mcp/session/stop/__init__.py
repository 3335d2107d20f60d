"""A stop and what it shows: why the program stopped, its frames, values and threads as an agent reads them,
the changes to them made by the agent, and the snapshots recorded at each stop."""
