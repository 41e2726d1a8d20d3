"""Loading a game: the generic content layer every game gets without Python.

`spec` holds the game.yaml sections (options, data schemas, generated lists, variants,
icon sets, needs); each other module applies one of them.
"""
