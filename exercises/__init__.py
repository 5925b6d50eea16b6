"""Your exercises. One module per notebook: ``exNN_<topic>.py`` goes with ``notebooks/NN_*.ipynb``.

Every function here raises ``NotImplementedError`` until you write it. Grade yourself with
``memcourse grade NN`` (or the last cell of the notebook). Reference answers are in
``solutions/``; try first, peek later.
"""
