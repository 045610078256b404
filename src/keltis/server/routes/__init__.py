"""The HTTP API and the live WebSocket's address, one router per area: ``health``, ``info``
(games, guided first games, translations), ``matches`` (the lobby, and play over HTTP),
``records`` (records and replays of finished matches), ``live`` (the WebSocket) and
``client`` (the browser client's files). :func:`keltis.server.app.create_app` assembles
them; what they do to matches, they ask of the match service (:mod:`keltis.server.master`).
"""
