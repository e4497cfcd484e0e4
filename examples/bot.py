"""A complete Ulti bot over the bot API (docs/bot-api.md): it accepts every invitation and plays
random legal actions. Usage: python bot.py https://ulti.example ulti_YOURTOKEN [MATCHES]
"""
import json
import os
import random
import sys
import threading

try:
    import httpx  # pip install httpx
except ImportError:  # the Ulti project's own environment ships httpx's successor, with the same API
    import httpx2 as httpx

SERVER, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2]
MATCHES = int(sys.argv[3]) if len(sys.argv) > 3 else sys.maxsize  # stop after this many matches
finished = threading.Semaphore(0)


def client():
    return httpx.Client(base_url=SERVER, headers={"Authorization": f"Bearer {TOKEN}"},
                        timeout=httpx.Timeout(30, read=None))


def give_up(error):
    """The token no longer works (revoked, or its owner changed the password): one line, and stop."""
    print(f"bot.py: the server refused the token ({error['code']}): {error['message']}", file=sys.stderr, flush=True)
    os._exit(1)  # every thread stops with it


def lines(api, path, **params):
    """The JSON objects of an NDJSON stream; empty lines are keep-alives; an error line ends the bot."""
    with api.stream("GET", path, params=params) as response:
        if response.status_code != 200:
            give_up(json.loads(response.read())["error"])
        for message in (json.loads(line) for line in response.iter_lines() if line):
            if message.get("type") == "error":  # the stream's last line: its token was revoked
                give_up(message)
            yield message


def choose(deal):
    """A random legal action, read from the view's choices (docs/protocol/views.md §10.4 and §11)."""
    c = deal["choices"]
    if c["cards"]:
        return {"action": "play", "card": random.choice(c["cards"])}
    if c["kontra"]:  # offered with no card to play: the kontra chain after trick 1 waits for an answer
        return {"action": "kontra", "parts": []}
    if c["trumps"]:
        return {"action": "trump", "suit": random.choice(c["trumps"])}
    if c["may_pass"]:
        return {"action": "pass"}
    discard = random.sample(deal["hands"][str(deal["seat"])], 2) if c["must_discard"] else None
    return {"action": "bid", "bid": c["bids"][0], **({"discard": discard} if discard else {})}


def play(table):
    api, seq = client(), None
    while True:
        try:
            for msg in lines(api, f"/api/bot/tables/{table}/stream", **({} if seq is None else {"since": seq})):
                seq, state, deal = msg["seq"], msg["state"], msg["state"]["deal"]
                print(table, seq, json.dumps(msg.get("event")), flush=True)
                if state["match"] and state["match"]["winner"] is not None:
                    return finished.release()
                if deal and deal["phase"] != "done" and deal["to_move"] == deal["seat"] and deal["choices"]:
                    act = {"id": f"{state['deal_index']}-{len(deal['log'])}", "action": choose(deal)}
                    answer = api.post(f"/api/bot/tables/{table}/act", json=act)  # one id: done once
                    if answer.status_code == 401:
                        give_up(answer.json()["error"])
                    if answer.status_code != 200:
                        print(table, "refused:", answer.json()["error"]["message"], flush=True)
        except httpx.TransportError:
            pass  # the stream dropped: open it again after `seq`, so nothing is missed or repeated


def follow_events():
    playing = set()
    for event in lines(client(), "/api/stream/event"):
        table = event.get("table")
        if event["type"] == "invited":
            join = {"seat": event["seat"], "invite": event["invite"]}
            if client().post(f"/api/bot/tables/{table}/join", json=join).status_code != 200:
                continue
        if event["type"] in ("invited", "match_started") and table not in playing:
            playing.add(table)
            threading.Thread(target=play, args=(table,), daemon=True).start()


threading.Thread(target=follow_events, daemon=True).start()
for _ in range(MATCHES):
    finished.acquire()
