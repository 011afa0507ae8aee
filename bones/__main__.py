"""``python -m bones``: the command line."""

from bones.cli.app import main

main()
