"""The one reader of the game's documents (the Card Building Guides and Rulebooks), used by
``import-edition`` and by the tests that check ``rules/`` against them; it imports nothing of the
rules' model: what is read is the documents' own words."""
