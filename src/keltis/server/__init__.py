"""The game server (``keltis serve``): matches over HTTP and WebSocket, stored in a database.

The server is a thin adapter over :class:`keltis.match.Match`: the database is the
authority (one row per match and ply, committed before anyone hears of the action), every
process keeps only a cache of the matches its clients watch, and PostgreSQL's LISTEN/NOTIFY
tells the other processes what changed. See docs/server.md ("Inside the server" says which
module does what).

Needs the ``server`` extra: ``pip install 'keltis[server]'``.
"""
