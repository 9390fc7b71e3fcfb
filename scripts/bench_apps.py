"""The measuring half of scripts/bench-apps (run it through that script)."""

import base64
import hashlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa

GAMES = int(os.environ.get("BENCH_APPS_GAMES", "40"))
ROUNDS = int(os.environ.get("BENCH_APPS_ROUNDS", "3"))
OUT = Path(os.environ.get("BENCH_OUT", "target/bench"))
ROADIE = os.environ["BENCH_ROADIE"]
TICKS = os.sysconf("SC_CLK_TCK")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait_for(url: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    sys.exit(f"{url} did not answer")


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="roadie-bench-apps-"))
    ed_key = ed25519.Ed25519PrivateKey.generate()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ed_x = ed_key.public_key().public_bytes_raw()
    n = rsa_key.public_key().public_numbers().n
    api_key = "rk_" + b64(secrets.token_bytes(32))
    (work / "apps.toml").write_text(
        '[[apps]]\nid = "bench"\nname = "Bench"\n'
        f'api_keys = ["sha256:{hashlib.sha256(api_key.encode()).hexdigest()}"]\n'
        'algorithms = ["EdDSA", "RS256"]\njwks_file = "bench.jwks.json"\n'
    )
    (work / "bench.jwks.json").write_text(json.dumps({"keys": [
        {"kty": "OKP", "crv": "Ed25519", "x": b64(ed_x), "kid": "ed"},
        {"kty": "RSA", "n": b64(n.to_bytes((n.bit_length() + 7) // 8, "big")), "e": "AQAB", "kid": "rs"},
    ]}))
    redis_port, roadie_port = free_port(), free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    env = dict(os.environ, ROADIE_ADDR=f"127.0.0.1:{roadie_port}", ROADIE_REDIS_URL=f"redis://127.0.0.1:{redis_port}",
               ROADIE_APPS=str(work / "apps.toml"), ROADIE_JWT_SECRET=secrets.token_hex(32),
               ROADIE_CREATE_RATE="0", ROADIE_TOKEN_RATE="0", RUST_LOG="warn")
    roadie = subprocess.Popen([ROADIE], env=env, stderr=open(work / "roadie.log", "w"))
    base = f"http://127.0.0.1:{roadie_port}"
    try:
        wait_for(base + "/healthz")
        results = run(base, roadie.pid, api_key, ed_key, rsa_key)
    finally:
        roadie.terminate()
        redis.terminate()
    write(results)


def player_token(kind: str, player: str, ed_key, rsa_key) -> str:
    claims = {"iss": "bench", "sub": player, "aud": "roadie", "exp": int(time.time()) + 3600}
    if kind == "EdDSA player token":
        return jwt.encode(claims, ed_key, algorithm="EdDSA", headers={"kid": "ed"})
    return jwt.encode(claims, rsa_key, algorithm="RS256", headers={"kid": "rs"})


def run(base: str, pid: int, api_key: str, ed_key, rsa_key) -> dict:
    kinds = ["seat token", "EdDSA player token", "RS256 player token"]
    totals = {kind: {"posts": 0, "cpu_s": 0.0} for kind in kinds}
    client = httpx.Client(base_url=base, timeout=30)
    key = {"Authorization": f"Bearer {api_key}"}
    game_number = 0
    for round_ in range(ROUNDS):
        for kind in kinds:
            # Set up outside the measured span: games, and each seat's credential.
            games = []
            for _ in range(GAMES):
                game_number += 1
                players = [f"p{game_number}-{s}" for s in range(3)]
                body = {"ruleset": "shrewd-producer", "seed": game_number,
                        "seats": [{"player": p} for p in players]}
                created = client.post("/v1/games", json=body, headers=key).json()
                if kind == "seat token":
                    creds = [s["token"] for s in created["seats"]]
                else:
                    creds = [player_token(kind, p, ed_key, rsa_key) for p in players]
                to_act = client.get(f"/v1/games/{created['id']}", headers=key).json()["to_act"]
                games.append({"id": created["id"], "creds": creds, "to_act": to_act})
            posts = 0
            before = cpu_seconds(pid)
            live = games
            while live:
                still = []
                for game in live:
                    if not game["to_act"]:
                        continue
                    auth = {"Authorization": f"Bearer {game['creds'][game['to_act'][0]]}"}
                    listed = client.get(f"/v1/games/{game['id']}/actions", headers=auth)
                    assert listed.status_code == 200, listed.text
                    action = listed.json()["actions"][0]
                    posted = client.post(f"/v1/games/{game['id']}/actions", json={"action": action},
                                         headers=dict(auth, Prefer="return=minimal"))
                    assert posted.status_code == 200, posted.text
                    posts += 1
                    game["to_act"] = posted.json()["to_act"]
                    if posted.json()["status"] == "active":
                        still.append(game)
                live = still
            spent = cpu_seconds(pid) - before
            totals[kind]["posts"] += posts
            totals[kind]["cpu_s"] += spent
            print(f"round {round_ + 1}, {kind}: {posts} posts, {spent * 1e6 / posts:.0f} us of roadie CPU each",
                  flush=True)
    return totals


def write(totals: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    base = totals["seat token"]["cpu_s"] / totals["seat token"]["posts"]
    lines = [
        "| credential | posts | roadie CPU per post (with its listing) | against a seat token |",
        "| --- | --- | --- | --- |",
    ]
    for kind, t in totals.items():
        per = t["cpu_s"] / t["posts"]
        lines.append(f"| {kind} | {t['posts']} | {per * 1e6:.0f} us | {per / base:.2f}x |")
    (OUT / "apps.md").write_text("\n".join(lines) + "\n")
    (OUT / "apps.json").write_text(json.dumps(totals, indent=2))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
