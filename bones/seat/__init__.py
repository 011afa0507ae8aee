"""What one seat sees: its observation of a hand, the worlds consistent with
it, the fixed action space and the encodings the learning adapters read, and
the explicit chance events (the deal, each draw).

Bots, the terminal, the web page and the adapters all see a hand through
this package, so no front end shows a seat more than its observation holds.
"""
