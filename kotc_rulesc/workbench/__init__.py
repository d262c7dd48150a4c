"""The card workbench (``kotc-rulesc workbench``): a page in the browser to design, check and migrate
cards and to check a collection or a deck, served by a local web server on :mod:`kotc_rulesc.api`.

* :mod:`~kotc_rulesc.workbench.server` — the HTTP server (the standard library's), safe by default;
* :mod:`~kotc_rulesc.workbench.app` — what the page asks and the answers, the API's JSON;
* :mod:`~kotc_rulesc.workbench.collection` — collections given to the page: read as ``check-cards``
  reads them, written back with the page's edits as ``migrate`` writes;
* :mod:`~kotc_rulesc.workbench.picture` — a card's picture, an SVG in the rulebooks' layout;
* ``static/`` — the page: HTML, CSS and JavaScript modules, no framework and no build step.
"""
