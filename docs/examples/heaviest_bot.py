#!/usr/bin/env python3
"""A complete bones command bot in plain Python (protocol 1): it plays the
legal move that lays the most pips, or draws or passes when it must."""
import json
import sys


def pips(move):
    tile = move.split("@")[0]
    if "-" not in tile:
        return -1  # draw or pass
    a, b = tile.split("-")
    return int(a) + int(b)


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["protocol"] != 1:
                sys.exit(f"protocol {message['protocol']} is not supported")
        elif kind == "move":
            best = max(message["legal"], key=pips)
            print(best, flush=True)
        elif kind == "match_end":
            pass  # hand_end and match_end need no answer


if __name__ == "__main__":
    main()
