"""`bones serve` as hostile input: a fixed corpus of attacks on its API.

``tests/corpus/web.json`` lists, for each attack, the request (its method,
path, body and whose key it carries: none, a seat's, the host's, a watch
link's) and the status and one-line error the server must answer with.
Each runs on a fresh game (Sniff, a person in seat 0 and a greedy bot), so
no attack's rate count or state leaks into the next.  In a path, ``{id}`` is
the game's id and ``{huge}`` five thousand digits.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")
pytest.importorskip("httpx", reason="the test extra is not installed")

from tests.test_web import host_headers, new_game, seat_headers  # noqa: E402

ROOT = Path(__file__).resolve().parent
CASES = json.loads((ROOT / "corpus" / "web.json").read_text(encoding="utf-8"))


def _headers(app, client, g: dict, key: str) -> dict[str, str]:
    headers = {"Origin": "http://localhost"}
    if key == "seat":
        return seat_headers(g["seats"][0]["key"])
    if key == "host":
        return host_headers(app)
    if key in ("watch", "revoked-watch"):
        r = client.post(f"/api/games/{g['id']}/watch", json={}, headers=host_headers(app))
        assert r.status_code == 201, r.text
        if key == "revoked-watch":
            assert client.request("DELETE", f"/api/games/{g['id']}/watch", json={},
                                  headers=host_headers(app)).status_code == 200
        return seat_headers(r.json()["key"])
    assert key == "none", key
    return headers


def test_every_attack_names_what_it_tries() -> None:
    assert len({c["attack"] for c in CASES}) == len(CASES)
    assert all(("error" in c) != ("error_starts" in c) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["attack"] for c in CASES])
def test_each_attack_gets_its_status_and_one_line(server, case: dict) -> None:
    app, client = server
    g = new_game(app, client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    path = case["path"].replace("{id}", g["id"]).replace("{huge}", "9" * 5000)
    r = client.request(case["method"], path, headers=_headers(app, client, g, case["key"]),
                       json=case.get("body") if case["method"] != "GET" else None)
    assert r.status_code == case["status"], r.text
    error = r.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    if "error" in case:
        assert error == case["error"]
    else:
        assert error.startswith(case["error_starts"]), error
