"""``workbench``: design, check and migrate cards in the browser, on a local web server."""

from __future__ import annotations

import sys

import click

from .rules_arg import RULES_OPTION, exit_with_problems


@click.command()
@click.argument("collection", required=False, metavar="[COLLECTION]",
                type=click.Path(exists=False, dir_okay=False, path_type=str))
@click.option("--host", default=None, metavar="ADDRESS",
              help="The address to listen on (default: 127.0.0.1, this machine only). Another address lets "
                   "other machines use the workbench: it says so when it starts.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default="a free port",
              help="The port to listen on.")
@click.option("--open", "open_", is_flag=True, help="Open the workbench in a web browser once it listens.")
@click.option("--check", is_flag=True,
              help="Start, fetch the page and judge a card over HTTP, and stop: whether the workbench works here.")
@RULES_OPTION
def workbench(collection: str | None, host: str | None, port: int, open_: bool, check: bool, rules_dir: str | None) -> None:
    """Start the card workbench: a page in your browser to design, check and
    migrate cards, and to check a collection or a deck.

    As you type a card — its type and stats as the edition names them, its
    name, Edition Indicator, printed level (cost up to the 10th) and one box
    per ability — the page shows its level with the breakdown per ability,
    sub-ability and component, its Ultra Points, the verdict with every reason
    and its document, what `migrate` makes of it in the current edition, and a
    picture of the card (an SVG to download). A text the edition does not
    have shows the nearest components: choose one to put it in place. The
    palette lists the edition's components by kind, searchable; choosing one
    inserts it at the cursor. A collection (YAML, JSON or JSONL: drop it on
    the page, open it, or name it here) is listed card by card with the
    verdicts of check-cards, and as a deck; click a card to edit it, and
    download the collection with your edits (a YAML file keeps its comments
    and layout). Every number is the CLI's: the page computes none.

    The server listens on 127.0.0.1 (this machine only) at a free port, and
    prints the address; Ctrl+C stops it. It answers only requests to its own
    address from its own page, reads no file but COLLECTION and those you give
    the page, writes none, and works offline.

    Exit status: 0 when --check found the workbench working, 1 for problems in
    the rules (--rules), 2 for usage errors, a port it cannot listen on, or a
    COLLECTION that cannot be read (the input policy); 130 when stopped with
    Ctrl+C, 143 with SIGTERM.

    \b
    Examples:
      kotc-rulesc workbench --open
      kotc-rulesc workbench examples/mixed-collection.yaml --open
      kotc-rulesc workbench --port 8017
      kotc-rulesc workbench --host 0.0.0.0 --port 8017
      kotc-rulesc workbench --check
    """
    from ..api import Rules
    from ..errors import ProblemsFound
    from ..reading.policy import InputError
    from ..workbench.app import Workbench
    from ..workbench.server import is_loopback, make_server

    host = host or "127.0.0.1"
    try:
        rules = Rules(rules_dir)
    except ProblemsFound as exc:
        exit_with_problems(exc.problems)
    try:
        bench = Workbench(rules, collection)
    except OSError as exc:
        _fail(f"cannot read {collection}: {exc.strerror or exc}")
    except InputError as exc:
        _fail(str(exc.located(collection)))
    try:
        server = make_server(bench, host, port)
    except OSError as exc:
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
              + (" (leave --port out for a free one)" if port else ""))
    if not is_loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach this machine on port {server.port} can use "
                   "the workbench (it reads no file but those given, and writes none)", err=True)
    try:
        if check:
            _check(server)
            return
        click.echo(f"The workbench: {server.url}  (Ctrl+C stops it)")
        if open_:
            import webbrowser

            if not webbrowser.open(server.url):
                click.echo(f"warning: no web browser could be opened; open {server.url}", err=True)
        server.serve_forever()
    finally:
        server.server_close()


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _check(server) -> None:
    """Serve on a thread, fetch the page and judge a card as the page does, and stop."""
    import json
    import urllib.request

    from ..workbench.server import serving

    fetch = urllib.request.build_opener(urllib.request.ProxyHandler({})).open  # (whatever the proxy settings)
    url = server.url
    card = {"name": "Insight", "type": "spell", "text": "Draw 1 card."}
    judge = urllib.request.Request(url + "api/judge", json.dumps({"card": card}).encode(), {"Content-Type": "application/json"})
    try:
        with serving(server):
            with fetch(url, timeout=30) as answer:
                page = answer.read()
            with fetch(judge, timeout=30) as answer:
                judged = json.loads(answer.read())
                verdict = judged["verdict"]
    except OSError as exc:
        _fail(f"the workbench at {url} does not answer: {exc}")
    if b"workbench.js" not in page or "status" not in verdict or "outcome" not in judged:
        _fail(f"the workbench at {url} answers, but not as it should")
    # (the outcome in the rulebook's words, as the page shows it: "pruned" in the 17th, not the status "banned")
    click.echo(f"ok: the workbench serves {url} (the page, and a card judged: {judged['outcome']})")


COMMANDS = [workbench]
