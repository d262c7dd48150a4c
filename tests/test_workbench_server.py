"""The workbench's server: safe by default (loopback, its own Host and Origin only, no CORS, bodies
bounded by the input policy, no file but those given, a CSP without inline script), and its answers
the CLI's (a collection as check-cards --deck judges it; the edited collection written as migrate
writes it: only the edited cards' lines change).
"""

from __future__ import annotations

import http.client
import json
import re
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotc_rulesc.api import Rules
from kotc_rulesc.cli import main
from kotc_rulesc.reading.policy import MAX_LINE, MAX_YAML
from kotc_rulesc.workbench.app import Workbench
from kotc_rulesc.workbench.server import CSP, STATIC, is_loopback, make_server, serving

ROOT = Path(__file__).resolve().parent.parent
MIXED = ROOT / "examples" / "mixed-collection.yaml"
STATIC_DIR = ROOT / "kotc_rulesc" / "workbench" / "static"


@pytest.fixture(scope="module")
def server():
    with serving(make_server(Workbench(Rules()))) as s:
        yield s


def request(server, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            host: str | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    sent = {"Host": host if host is not None else f"127.0.0.1:{server.port}", **(headers or {})}
    if body is not None and "Content-Length" not in sent:
        sent["Content-Length"] = str(len(body))
    for name, value in sent.items():
        if value is not None:
            conn.putheader(name, value)
    conn.endheaders(body)
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data


def post_json(server, path: str, value, **headers) -> tuple[int, dict, bytes]:
    return request(server, "POST", path, json.dumps(value).encode(), {"Content-Type": "application/json", **headers})


def _cli_json(*args: str) -> dict:
    return json.loads(CliRunner().invoke(main, list(args)).stdout)


# --------------------------------------------------------------------------- safe by default


def test_the_page_and_every_answer_carry_a_csp_with_scripts_from_the_server_only(server):
    status, headers, page = request(server, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["content-security-policy"] == CSP
    policy = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert policy["script-src"] == "'self'" and policy["default-src"] == "'none'" and "unsafe" not in CSP
    assert policy["connect-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    for path in ["/static/workbench.js", "/api/editions", "/nothing"]:
        assert request(server, "GET", path)[1]["content-security-policy"] == CSP
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
    assert not [h for h in headers if h.startswith("access-control-")]


def test_the_page_has_no_inline_script_or_style_and_loads_nothing_from_elsewhere():
    page = (STATIC_DIR / "index.html").read_text()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="/static/' in attrs and not body.strip() for attrs, body in scripts)
    assert not re.search(r"\son[a-z]+=", page) and "style=" not in page and "<style" not in page
    for name in STATIC_DIR.iterdir():
        text = name.read_text()
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), f"{name.name} names another site"
        assert "innerHTML" not in text and "eval(" not in text and "new Function" not in text
    served = {name for name, _ in STATIC.values()}
    assert served == {p.name for p in STATIC_DIR.iterdir()}, "every static file is served, and only those"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost.evil.example:{port}",
                                  "", "127.0.0.1:{port}@evil.example"])
def test_a_request_for_another_host_is_refused_dns_rebinding(server, host):
    status, headers, body = request(server, "GET", "/api/editions", host=host.format(port=server.port))
    assert status == 403 and b"Host" in body
    assert request(server, "GET", "/", host=host.format(port=server.port))[0] == 403


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}"])
def test_the_servers_own_names_are_answered(server, host):
    assert request(server, "GET", "/", host=host.format(port=server.port))[0] == 200


def test_a_request_from_another_origin_is_refused_and_no_cors_is_granted(server):
    card = {"card": {"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."}}
    own = f"http://127.0.0.1:{server.port}"
    assert post_json(server, "/api/judge", card, Origin=own)[0] == 200
    for origin in ("http://evil.example", f"http://localhost:{server.port}", "null", f"https://127.0.0.1:{server.port}"):
        status, headers, _ = post_json(server, "/api/judge", card, Origin=origin)
        assert status == 403 and not [h for h in headers if h.startswith("access-control-")], origin
    assert post_json(server, "/api/judge", card, **{"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert request(server, "GET", "/api/editions", headers={"Sec-Fetch-Site": "same-site"})[0] == 403
    status, headers, _ = request(server, "OPTIONS", "/api/judge", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert status in (403, 405) and not [h for h in headers if h.startswith("access-control-")]


def test_a_post_is_json_or_a_files_bytes_never_a_kind_a_form_elsewhere_can_send(server):
    body = json.dumps({"card": {"name": "Insight"}}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        assert request(server, "POST", "/api/judge", body, {"Content-Type": kind})[0] == 415, kind
    assert request(server, "POST", "/api/collection?name=a.json", b'{"cards": []}', {"Content-Type": "text/plain"})[0] == 415


def test_request_bodies_are_bounded_by_the_input_policy(server):
    big = {"Content-Type": "application/json", "Content-Length": str(MAX_LINE + 1)}
    status, _, body = request(server, "POST", "/api/judge", b"", big)  # (refused before a byte of it is read)
    assert status == 413 and b"input policy" in body
    huge = {"Content-Type": "application/octet-stream", "Content-Length": str(MAX_YAML + 1)}
    assert request(server, "POST", "/api/collection?name=big.yaml", b"", huge)[0] == 413
    assert request(server, "POST", "/api/judge", b"{}", {"Content-Type": "application/json", "Transfer-Encoding": "chunked"})[0] == 411
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/api/judge")
    conn.putheader("Content-Type", "application/json")
    conn.endheaders()
    assert conn.getresponse().status == 411
    conn.close()
    for text in ('{"card": {"name": "a", "name": "b"}}', '{"card": ' + "[" * 70 + "]" * 70 + "}",
                 '{"card": {"sp": ' + "9" * 200 + "}}", '{"card": NaN}', "{"):
        status, _, body = request(server, "POST", "/api/judge", text.encode(), {"Content-Type": "application/json"})
        assert status == 400 and b"input policy" in body, text


@pytest.mark.parametrize("path", ["/static/../../pyproject.toml", "/static/%2e%2e/app.py", "/etc/passwd",
                                  "/static/", "/static/server.py", "/../README.md", "/api/file?path=/etc/passwd",
                                  "//etc/passwd"])
def test_the_server_reads_no_file_it_was_not_given(server, path):
    status, _, body = request(server, "GET", path)
    assert status == 404 and b"root:" not in body


def test_it_listens_on_the_loopback_interface_unless_told_otherwise(tmp_path):
    s = make_server(Workbench(Rules()))
    try:
        assert s.server_address[0] == "127.0.0.1" and is_loopback(s.server_address[0])
    finally:
        s.server_close()
    assert is_loopback("localhost") and is_loopback("::1") and not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    result = CliRunner().invoke(main, ["workbench", "--check", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("warning: listening on 0.0.0.0: anyone who can reach this machine")
    quiet = CliRunner().invoke(main, ["workbench", "--check"])
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout.startswith("ok: the workbench serves http://127.0.0.1:")
    # the card it judges (no Edition Indicator) in the 17th rulebook's word, as the page and check-cards say it
    assert quiet.stdout.rstrip().endswith("(the page, and a card judged: pruned)")


def test_a_port_in_use_is_a_usage_error():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        result = CliRunner().invoke(main, ["workbench", "--port", str(taken.getsockname()[1])])
    finally:
        taken.close()
    assert result.exit_code == 2 and "cannot listen on 127.0.0.1:" in result.stderr


# --------------------------------------------------------------------------- the answers are the CLI's


def test_a_judgement_is_the_clis(server):
    card = {"name": "Peek", "type": "spell", "edition": 15, "level": 3,
            "text": "See enemy's hand and target up to 1 card therein; sheathe the targets."}
    status, _, body = post_json(server, "/api/judge", {"card": card, "edition": 16})
    answer = json.loads(body)
    assert status == 200
    cli = CliRunner().invoke(main, ["cost", "-e", "16", "--name", "Peek", "--type", "spell", "--edition-indicator", "15",
                                    "--printed-level", "3", "--format", "json", "--text", card["text"]])
    assert answer["cost"] == json.loads(cli.stdout)
    assert answer["verdict"]["status"] == answer["cost"]["status"] == "banned" and answer["outcome"] == "pruned"
    assert answer["current"]["status"] == "banned" and answer["current"]["report"]["reasons"][0]["code"] == "cost-revised"
    assert answer["picture"].startswith("<svg") and "Peek" in answer["picture"]


def test_an_opened_collection_is_check_cards_deck(server):
    status, _, body = request(server, "POST", "/api/collection?name=mixed-collection.yaml&edition=17", MIXED.read_bytes(),
                              {"Content-Type": "application/octet-stream"})
    held = json.loads(body)
    assert status == 200 and held["format"] == "yaml" and len(held["cards"]) == 15
    assert held["check"] == _cli_json("check-cards", str(MIXED), "--deck", "--format", "json")
    again = json.loads(post_json(server, "/api/check", {"collection": held["id"], "edition": 12})[2])
    assert again == _cli_json("check-cards", str(MIXED), "--deck", "--format", "json", "-e", "12")


def test_a_collection_the_input_policy_refuses_is_said_where(server):
    status, _, body = request(server, "POST", "/api/collection?name=bad.yaml", b"cards:\n  - &a {name: x}\n  - *a\n",
                              {"Content-Type": "application/octet-stream"})
    error = json.loads(body)["error"]
    assert status == 422 and error["file"] == "bad.yaml" and error["line"] == 3 and "alias" in error["message"]
    status, _, body = request(server, "POST", "/api/collection?name=../../etc/x.json", b"\x00\x01",
                              {"Content-Type": "application/octet-stream"})
    assert status == 422 and json.loads(body)["error"]["file"] == "x.json"


def _open(server, name: str, data: bytes) -> dict:
    status, _, body = request(server, "POST", f"/api/collection?name={name}", data, {"Content-Type": "application/octet-stream"})
    assert status == 200, body
    return json.loads(body)


def _download(server, held: dict, edits: dict, edition=17) -> str:
    status, headers, body = post_json(server, "/api/download", {"collection": held["id"], "edits": edits, "edition": edition})
    assert status == 200 and headers["content-disposition"] == "attachment", body
    return body.decode("utf-8")


def test_the_edited_yaml_collection_keeps_its_comments_and_layout(server, tmp_path):
    original = MIXED.read_text()
    held = _open(server, "mixed-collection.yaml", MIXED.read_bytes())
    assert _download(server, held, {}) == original
    marshal = dict(held["cards"][4]["card"], name="Field General", sp=4)
    ghost = dict(held["cards"][3]["card"], text="When this card in your granary is destroyed (hex-play): Draw 2 cards.")
    written = _download(server, held, {"4": marshal, "3": ghost})
    changed = [(a, b) for a, b in zip(original.splitlines(), written.splitlines()) if a != b]
    assert len(original.splitlines()) == len(written.splitlines())
    assert changed == [
        ('    text: "When this card as a resource is destroyed (ghost-play, must pay resource cost): Draw 1 card."',
         '    text: "When this card in your granary is destroyed (hex-play): Draw 2 cards."'),
        ("  - name: Field Marshal", "  - name: Field General"),
        (f"    sp: {held['cards'][4]['card']['sp']}", "    sp: 4"),
    ]
    from kotc_rulesc.cards.collection import read_collection

    (tmp_path / "edited.yaml").write_text(written)
    assert [item.card for item in read_collection(str(tmp_path / "edited.yaml"))][3:5] == [ghost, marshal]


def test_a_cleared_field_becomes_null_and_a_legal_edit_drops_an_earlier_migrations_marker(server, tmp_path):
    migrated = tmp_path / "migrated.yaml"
    done = CliRunner().invoke(main, ["migrate", str(MIXED), "--to", "17", "-o", str(migrated)])
    assert done.exit_code == 1
    held = _open(server, "migrated.yaml", migrated.read_bytes())
    peek = held["cards"][8]["card"]
    assert peek["migration"]["status"] == "banned"
    renamed = dict(peek, name="Glance")  # still pruned: its marker stays as it is
    written = _download(server, held, {"8": renamed})
    assert "name: Glance" in written and written.count("migration:") == migrated.read_text().count("migration:")
    fixed = dict(peek, edition=17, level=6)  # re-issued by hand: legal, the marker goes
    written = _download(server, held, {"8": fixed})
    assert written.count("migration:") == migrated.read_text().count("migration:") - 1
    berserker = {k: v for k, v in held["cards"][0]["card"].items() if k != "offense"}
    written = _download(server, held, {"0": berserker})
    assert "    offense:" in written.splitlines()  # (YAML's null, as ruamel.yaml writes it: no space after the colon)
    from kotc_rulesc.cards.collection import read_collection

    (tmp_path / "cleared.yaml").write_text(written)
    assert next(read_collection(str(tmp_path / "cleared.yaml"))).card == dict(held["cards"][0]["card"], offense=None)


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_an_edited_json_or_jsonl_collection_changes_only_the_edited_cards(server, fmt):
    cards = [{"name": "Insight", "type": "spell", "edition": 17, "text": "Draw 1 card."},
             {"name": "Peek", "type": "spell", "edition": 17, "level": 4, "text": "Draw 2 cards."}]
    if fmt == "json":
        text = '{\n  "set": "mine",\n  "cards": [\n    ' + ",\n    ".join(json.dumps(c) for c in cards) + "\n  ]\n}\n"
    else:
        text = "\n".join(json.dumps(c, separators=(",", ":")) for c in cards) + "\n\n"
    held = _open(server, f"mine.{fmt}", text.encode())
    written = _download(server, held, {"1": dict(cards[1], level=5)})
    old, new = text.splitlines(), written.splitlines()
    assert [(a, b) for a, b in zip(old, new) if a != b] == [
        (a, a.replace('"level": 4', '"level": 5').replace('"level":4', '"level":5')) for a in old if "Peek" in a]
    assert len(old) == len(new)


@pytest.mark.parametrize("fmt", ["yaml", "json", "jsonl"])
def test_a_collections_byte_order_mark_is_kept_as_migrate_keeps_it(server, fmt):
    card = {"name": "Peek", "type": "spell", "edition": 17, "level": 4, "text": "Draw 2 cards."}
    text = {"yaml": "cards:\n  - " + json.dumps(card) + "\n", "json": json.dumps({"cards": [card]}) + "\n",
            "jsonl": json.dumps(card) + "\n"}[fmt]
    held = _open(server, f"mine.{fmt}", b"\xef\xbb\xbf" + text.encode())
    written = _download(server, held, {"0": dict(card, level=5)})
    assert written.startswith("\ufeff") and written.count("\ufeff") == 1
    assert written[1:].replace('"level": 5', '"level": 4') == text


def test_open_opens_the_workbench_in_the_browser(monkeypatch):
    import webbrowser

    from kotc_rulesc.workbench import server as module

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    monkeypatch.setattr(module.Server, "serve_forever", lambda self: (_ for _ in ()).throw(KeyboardInterrupt()))
    result = CliRunner().invoke(main, ["workbench", "--open"])
    assert result.exit_code == 130  # (stopped as by Ctrl+C, once the browser was asked to open it)
    (url,) = opened
    assert result.stdout.startswith(f"The workbench: {url}  (Ctrl+C stops it)") and url.startswith("http://127.0.0.1:")


def test_a_collection_given_is_read_under_the_input_policy_and_held_whole(tmp_path):
    big = tmp_path / "big.jsonl"
    with big.open("wb") as f:
        f.truncate(MAX_YAML + 1)
    result = CliRunner().invoke(main, ["workbench", str(big), "--check"])
    assert result.exit_code == 2 and "larger than 16 MiB, the limit for a collection the workbench holds" in result.stderr
    result = CliRunner().invoke(main, ["workbench", str(tmp_path), "--check"])
    assert result.exit_code == 2 and "is a directory" in result.stderr
    given = Workbench(Rules(), str(MIXED)).given
    assert given.name == "mixed-collection.yaml" and len(given.cards) == 15
