"""The card workbench (``kotc-rulesc workbench``): a local page to design, check and migrate cards, on
:mod:`kotc_rulesc.api` — ``server`` (HTTP, safe by default), ``app`` (the routes), ``collection``,
``picture`` (a card's SVG) and ``static/`` (the page: no framework, no build step)."""
