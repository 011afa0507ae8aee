"""Built-in variant files (the top-level variants/ folder, shipped in the wheel)."""
