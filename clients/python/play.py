"""Plays one full game of every ruleset through the generated Python client alone.

Usage: play.py BASE_URL PACKAGE_DIR [SEED]

PACKAGE_DIR holds the `roadie_client` package that openapi-python-client generated from
openapi/openapi.json. For each ruleset that `GET /v1/rulesets` lists: create a game with its
fewest seats and a fixed seed, then until it is over: read who acts (as a spectator), list that
seat's actions, post one of them (chosen by a seeded generator); finally check the finished game:
status, outcome, the revealed seed against its commitment, and the event log.

Every answer is parsed by the client's models, and each parsed model must write back exactly the
JSON the server sent (so no variant parses as another's), with a class named for the ruleset.
"""

import hashlib
import json
import random
import sys

MAX_STEPS = 20_000


def fail(message):
    raise SystemExit(f"play.py: {message}")


def parsed(response, model, what):
    """The response's parsed body, after checking that it is a `model` (a class, or the prefix
    of the names of a ruleset's classes) that writes back exactly what the server sent."""
    if response.status_code.value // 100 != 2:
        fail(f"{what}: {response.status_code.value} {response.content[:500]!r}")
    body = response.parsed
    name = type(body).__name__
    if isinstance(model, str):
        if not name.startswith(model) or not hasattr(body, "to_dict"):
            fail(f"{what}: parsed as {name}, not a class of {model}")
    elif not isinstance(body, model):
        fail(f"{what}: parsed as {name}, not {model.__name__}")
    sent = json.loads(response.content)
    if body.to_dict() != sent:
        fail(f"{what}: the client's model does not write back what was sent:\n{json.dumps(sent)[:2000]}\n{json.dumps(body.to_dict())[:2000]}")
    return body


def class_prefix(ruleset_title):
    return "".join(ch for ch in ruleset_title.title() if ch.isalnum())


def check_variant(value, prefix, what):
    """A ruleset's action, event or view must parse as one of that ruleset's classes."""
    name = type(value).__name__
    if not name.startswith(prefix):
        fail(f"{what} parsed as {name}, a class of another ruleset")


def request(models, prefix, name, **fields):
    """The request model `name`, or its ruleset's own (`<Ruleset><name>`) where the document has
    one per ruleset."""
    model = getattr(models, prefix + name, None) or getattr(models, name)
    return model.from_dict(fields)


def play(base_url, ruleset, seed, client_module):
    from roadie_client import AuthenticatedClient, Client
    from roadie_client.api.games import create_game, get_game, list_actions, list_events, post_action
    from roadie_client import models

    slug, title, seats = ruleset.slug, ruleset.title, ruleset.seats.min_
    prefix = class_prefix(title)
    spectator = Client(base_url=base_url, raise_on_unexpected_status=True)
    created = parsed(
        create_game.sync_detailed(client=spectator, body=request(models, prefix, "CreateGame", ruleset=slug, seats=seats, seed=seed)),
        prefix,
        f"create {slug}",
    )
    seat_clients = [AuthenticatedClient(base_url=base_url, token=s.token, raise_on_unexpected_status=True) for s in created.seats]
    chooser = random.Random(seed)
    steps = 0
    while True:
        game = parsed(get_game.sync_detailed(created.id, client=spectator), prefix, f"{slug} game")
        check_variant(game.view, prefix, f"{slug}'s spectator view")
        if game.status.value == "finished":
            break
        if steps >= MAX_STEPS:
            fail(f"{slug}: not over after {MAX_STEPS} actions")
        if not game.to_act:
            fail(f"{slug}: active, but nobody may act")
        seat = game.to_act[0]
        listed = parsed(list_actions.sync_detailed(created.id, client=seat_clients[seat]), prefix, f"{slug} actions")
        if not listed.actions:
            fail(f"{slug}: seat {seat} is to act but may do nothing")
        for action in listed.actions:
            check_variant(action, prefix, f"{slug}'s action {action.to_dict()}")
        action = chooser.choice(listed.actions)
        result = parsed(
            post_action.sync_detailed(created.id, client=seat_clients[seat], body=models.PostAction(action=action)),
            prefix,
            f"{slug} post {action.to_dict()}",
        )
        for event in result.events:
            check_variant(event.body, prefix, f"{slug}'s event {event.body.to_dict()}")
        steps += 1

    if not game.outcome:
        fail(f"{slug}: finished without an outcome")
    if not isinstance(game.seed, int) or game.seed != seed or not game.seed_salt:
        fail(f"{slug}: the finished game reveals seed {game.seed!r}, not {seed}")
    commitment = hashlib.sha256(f"{game.seed_salt}:{game.seed}".encode()).hexdigest()
    if commitment != created.seed_commitment or commitment != game.seed_commitment:
        fail(f"{slug}: the revealed seed does not match its commitment")
    events, after = [], 0
    while True:
        log = parsed(list_events.sync_detailed(created.id, client=spectator, after=after), prefix, f"{slug} events")
        if not log.finished:
            fail(f"{slug}: the log of a finished game says it is not")
        events.extend(log.events)
        if log.next_after == after:
            break
        after = log.next_after
    for event in events:
        check_variant(event.body, prefix, f"{slug}'s logged event {event.body.to_dict()}")
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        fail(f"{slug}: the finished game's log has gaps")
    print(f"{slug}: {seats} seats, seed {seed}: over after {steps} actions, {len(events)} events, version {game.version}")


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    base_url, package_dir = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    sys.path.insert(0, package_dir)
    import roadie_client
    from roadie_client import Client
    from roadie_client.api.rulesets import list_rulesets
    from roadie_client.models import RulesetList

    rulesets = parsed(list_rulesets.sync_detailed(client=Client(base_url=base_url)), RulesetList, "rulesets").rulesets
    if not rulesets:
        fail("no ruleset is listed")
    for ruleset in rulesets:
        play(base_url, ruleset, seed, roadie_client)
    print(f"{len(rulesets)} rulesets played to the end through the generated client")


if __name__ == "__main__":
    main()
