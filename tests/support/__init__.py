"""What the tests share: the rules loaded once, the game's documents, the docs pages, the build
helpers and the browser (each module's docstring says what it gives)."""
