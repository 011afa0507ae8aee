"""The `bones` command line: argument parsing and formatting over the engine."""
