#!/usr/bin/env python3
"""Recomputes every shuffle and roll of a finished Roadie game from its revealed seed.

Written from the "Randomness" section of docs/integrating.md alone: ChaCha8 keyed by
`seed_from_u64`, the bounded-integer sampler, the shuffle, and the order in which each game draws. It reads the
finished game, its ruleset's component catalogue and its public event log over HTTP, replays
each random outcome in log order and compares it with the sealed event that reports it.

    python3 scripts/seeds/recompute.py --url http://127.0.0.1:8080 --game <id>

Prints one JSON line (`{"ruleset", "seed", "shuffles", "rolls", "draws"}`, and for Show Business
`"bag_refills"` and `"draws_after_refill"`, the bag draws checked after the bag was refilled from
the used pool) and exits 0 when every outcome matches; prints the first mismatch and exits 1 otherwise. `--seed` replaces the revealed
seed (a wrong one must fail). Standard library only.
"""

import argparse
import json
import sys
import urllib.request

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF


# ---- ChaCha8 (D. J. Bernstein's ChaCha with 8 rounds, 64-bit block counter) ----


def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK32


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl(s[b] ^ s[c], 7)


def chacha8_block(key_words, counter):
    """One 16-word block: constants, 8 key words, counter (low, high), stream 0 (two words)."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += key_words
    state += [counter & MASK32, (counter >> 32) & MASK32, 0, 0]
    work = list(state)
    for _ in range(4):  # 8 rounds = 4 double rounds
        _quarter(work, 0, 4, 8, 12)
        _quarter(work, 1, 5, 9, 13)
        _quarter(work, 2, 6, 10, 14)
        _quarter(work, 3, 7, 11, 15)
        _quarter(work, 0, 5, 10, 15)
        _quarter(work, 1, 6, 11, 12)
        _quarter(work, 2, 7, 8, 13)
        _quarter(work, 3, 4, 9, 14)
    return [(w + s) & MASK32 for w, s in zip(work, state)]


def key_from_u64(seed):
    """`seed_from_u64`: eight PCG32 outputs, each a little-endian key word."""
    words = []
    state = seed & MASK64
    for _ in range(8):
        state = (state * 6364136223846793005 + 11634580027462260723) & MASK64
        xorshifted = (((state >> 18) ^ state) >> 27) & MASK32
        rot = state >> 59
        words.append(((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & MASK32)
    return words


class GameRng:
    """The game's generator: a stream of 32-bit words, block after block."""

    def __init__(self, seed):
        self.key = key_from_u64(seed)
        self.counter = 0
        self.buffer = []

    def next_u32(self):
        if not self.buffer:
            self.buffer = chacha8_block(self.key, self.counter)
            self.counter += 1
        return self.buffer.pop(0)

    def below(self, n):
        """A uniform integer in [0, n), n >= 1: the widening multiply (Canon's method)."""
        product = self.next_u32() * n
        high, low = product >> 32, product & MASK32
        if low > ((-n) & MASK32):
            extra = (self.next_u32() * n) >> 32
            if low + extra > MASK32:
                high += 1
        return high

    def roll(self, sides):
        return 1 + self.below(sides)

    def shuffle(self, items):
        """Forward Fisher-Yates: position i swaps with a uniform index in [0, i], the indices
        taken from chunks that pack several of them into one bounded integer."""
        if len(items) <= 1:
            return
        remaining, chunk, n = 1, 0, 0
        for i in range(len(items)):
            bound = n + 1
            if remaining == 0:
                product, count = bound, 1
                while product * (bound + count) <= MASK32:
                    product *= bound + count
                    count += 1
                chunk = self.below(product)
                remaining = count
            remaining -= 1
            if remaining == 0:
                index = chunk
            else:
                index = chunk % bound
                chunk //= bound
            n = bound
            items[i], items[index] = items[index], items[i]


# ---- Reading the game ----


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def event_log(base, game):
    events, after = [], 0
    while True:
        page = get(f"{base}/v1/games/{game}/events?after={after}&limit=5000")
        events.extend(page["events"])
        if page["next_after"] == after:
            return events
        after = page["next_after"]


class Mismatch(Exception):
    pass


class Replay:
    def __init__(self, seed, seats, catalogue):
        self.rng = GameRng(seed)
        self.seats = seats
        self.position = {}
        for entries in catalogue["components"].values():
            for i, entry in enumerate(entries):
                self.position.setdefault(str(entry["id"]), i)
        self.counts = {"shuffles": 0, "rolls": 0, "draws": 0}

    def expect(self, what, computed, reported):
        if computed != reported:
            raise Mismatch(f"{what}: recomputed {computed!r}, the log says {reported!r}")

    def shuffled(self, what, order):
        """Every shuffle starts from its cards in catalogue order; the log lists the result top
        first, the top being the end of the shuffled list."""
        cards = sorted(order, key=lambda card: self.position[card])
        self.rng.shuffle(cards)
        self.expect(what, list(reversed(cards)), order)
        self.counts["shuffles"] += 1

    def rolled(self, what, sides, value):
        self.expect(what, self.rng.roll(sides), value)
        self.counts["rolls"] += 1

    def drawn(self, what, n, index):
        self.expect(what, self.rng.below(n), index)
        self.counts["draws"] += 1


def shrewd_producer(replay, body):
    kind = body["type"]
    if kind == "lead_drawn":
        replay.drawn("starting lead", replay.seats, body["seat"])
    elif kind in ("scout_money_shuffled", "artists_shuffled", "songs_shuffled"):
        replay.shuffled(kind, body["order"])


def rock_the_world(replay, body):
    kind = body["type"]
    if kind == "first_seat" and body["drawn"]:
        replay.drawn("first seat", replay.seats, body["seat"])
    elif kind == "deck_shuffled":
        replay.shuffled(kind, body["order"])
    elif kind == "die_rolled":
        replay.rolled(f"die roll ({body['purpose']})", 6, body["value"])


class ShowBusinessBag:
    """The concert token bag and the used pool, followed through the log.

    The bag starts with every concert token in catalogue order; a draw takes the token at the
    drawn index and moves the bag's last token into its place. A token reaches the used pool
    when it is discarded (`token_discarded`), taken off the map by a DJ (`token_off_map`) or
    turned off an artist (`style_changed`, the `discarded` tokens in order), and with its
    artist's tokens, in the order they were placed, when the artist leaves a band (`dismissed`,
    `artist_left`) or the band goes bankrupt (`bankrupt`: the band's artists in band order, a
    band being its starting artists, then each artist recruited or exchanged in, appended). An
    empty bag is refilled (`reshuffled` of the bag) with the used pool in the order its tokens
    reached it.
    """

    def __init__(self, tokens):
        self.tokens = list(tokens)
        self.used = []
        self.bands = {}
        self.on_artist = {}
        self.refills = 0
        self.draws_after_refill = 0

    def follow(self, body):
        """Applies a public event to the bag, the used pool and the bands."""
        kind = body["type"]
        if kind == "starting_band":
            self.bands[body["seat"]] = [a["artist"] for a in body["artists"]]
        elif kind == "recruited":
            self.bands.setdefault(body["seat"], []).append(body["artist"])
        elif kind == "artists_exchanged":
            attacker, target = self.bands[body["attacker"]], self.bands[body["target"]]
            target.remove(body["take"])
            attacker.remove(body["give"])
            attacker.append(body["take"])
            target.append(body["give"])
        elif kind == "token_on_artist":
            self.on_artist.setdefault(body["artist"], []).append(body["token"])
        elif kind in ("token_discarded", "token_off_map"):
            self.used.append(body["token"])
        elif kind == "style_changed":
            for token in body["discarded"]:
                self.on_artist[body["artist"]].remove(token)
                self.used.append(token)
        elif kind in ("dismissed", "artist_left"):
            self.bands[body["seat"]].remove(body["artist"])
            self.used.extend(self.on_artist.pop(body["artist"], []))
        elif kind == "bankrupt":
            for artist in self.bands.pop(body["seat"], []):
                self.used.extend(self.on_artist.pop(artist, []))
        elif kind == "reshuffled" and body["pile"] == "bag":
            if len(self.used) != body["size"]:
                raise Mismatch(f"bag refill: the used pool holds {len(self.used)} tokens, the log says {body['size']}")
            self.tokens, self.used = self.used, []
            self.refills += 1


def show_business(replay, body, bag):
    kind = body["type"]
    if kind == "shuffled":
        replay.shuffled(f"{body['pile']} pile", body["order"])
    elif kind == "rolled":
        replay.rolled(f"{body['die']} die", 6, body["face"])
    elif kind == "random_first":
        index = body["among"].index(body["seat"])
        replay.drawn("first player", len(body["among"]), index)
    elif kind == "bag_draw":
        replay.drawn("bag draw", body["of"], body["index"])
        replay.expect("bag size", len(bag.tokens), body["of"])
        i = body["index"]
        replay.expect("drawn token", bag.tokens[i], body["token"])
        bag.tokens[i] = bag.tokens[-1]
        bag.tokens.pop()
        if bag.refills:
            bag.draws_after_refill += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--seed", type=int, help="use this seed instead of the revealed one")
    args = parser.parse_args()
    base = args.url.rstrip("/")

    game = get(f"{base}/v1/games/{args.game}")
    if game.get("status") != "finished" or "seed" not in game:
        print("the game is not finished: its seed is not revealed yet", file=sys.stderr)
        return 2
    seed = game["seed"] if args.seed is None else args.seed
    ruleset = game["ruleset"]
    catalogue = get(f"{base}/v1/rulesets/{ruleset}/components")
    replay = Replay(seed, game["seats"], catalogue)
    bag = ShowBusinessBag(entry["id"] for entry in catalogue["components"].get("concert_tokens", []))
    games = {
        "shrewd-producer": lambda body: shrewd_producer(replay, body),
        "rock-the-world": lambda body: rock_the_world(replay, body),
        "show-business": lambda body: show_business(replay, body, bag),
    }
    if ruleset not in games:
        print(f"no recomputation is written for {ruleset}", file=sys.stderr)
        return 2
    try:
        for event in event_log(base, args.game):
            # A random outcome is reported once with the audience `nobody` (sealed until the end);
            # a public copy of the same body (a die roll everyone sees) is not a second draw.
            if event["audience"]["to"] == "nobody":
                games[ruleset](event["body"])
            elif event["audience"]["to"] == "everyone" and ruleset == "show-business":
                bag.follow(event["body"])
    except Mismatch as mismatch:
        print(f"event mismatch: {mismatch}", file=sys.stderr)
        return 1
    summary = {"ruleset": ruleset, "seed": seed, **replay.counts}
    if ruleset == "show-business":
        summary["bag_refills"] = bag.refills
        summary["draws_after_refill"] = bag.draws_after_refill
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
