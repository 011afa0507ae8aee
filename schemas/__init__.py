"""Generated JSON Schemas (the top-level schemas/ folder, shipped in the wheel)."""
