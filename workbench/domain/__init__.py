"""Pure, typed domain code: game definitions, cards, decks, validation, effects, engines.

Nothing here touches files or imports Flask.
"""
