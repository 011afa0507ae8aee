"""`bones serve`: the table in a browser, on the same engine, saves and bots.

The pieces:

* :mod:`bones.web.variants` - variants by built-in name or uploaded text
  (whose ``extends:`` may name only built-ins), validation as `bones validate`
  reports it;
* :mod:`bones.web.tokens` - seat and host keys: unguessable, kept only as hashes;
* :mod:`bones.web.games` - live games over :class:`bones.games.game.GameSession`
  and their save files, bots answering off the request loop;
* :mod:`bones.web.view` - a game as one seat may see it;
* :mod:`bones.web.sims` - simulations in the background, with progress and cancel;
* :mod:`bones.web.api` - reading a request: the JSON body, its fields, seats
  and bots, and the one-line JSON errors;
* :mod:`bones.web.server` - the state behind the routes: configuration, games
  and their bots, simulations, workers, the host key;
* :mod:`bones.web.routes` - one function per endpoint of the JSON API and the
  static page in ``static/``;
* :mod:`bones.web.app` - the Starlette application: the guards (Host, Origin,
  JSON bodies, size caps) around the routes.

Everything here needs the ``web`` extra: ``pip install 'bones[web]'``.
"""
