"""``python -m bones``: the command line."""

from bones.cli.entry import main

main()
