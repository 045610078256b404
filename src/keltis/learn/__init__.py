"""keltis.learn: learned judgement for the search — self-play data, training, the network.

The pipeline (``python -m keltis.learn``; docs/bots.md, "The learned level"):

1. ``selfplay``: bots play seeded games; every sampled position is kept from each seat's own
   view with the game's result (:mod:`keltis.learn.selfplay`);
2. ``train``: a small network learns the prior (the moves chosen) and the value (the result)
   with torch, with checkpoints, resumption and curves (:mod:`keltis.learn.train`; torch only
   here);
3. the trained weights, a small ``.npz``, are evaluated with numpy inside the search
   (:mod:`keltis.learn.net`, :mod:`keltis.learn.search`): the level *expert* plays with the
   shipped ones.
"""
