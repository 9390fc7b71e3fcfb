"""Whole games of Roadie under Locust, one simulated user per seat.

    locust -f tests/locust/locustfile.py --host http://127.0.0.1:8080 \
        --headless -u 6 -r 6 -t 30s [--ruleset shrewd-producer --seats 3]

Each user plays one seat, as a client that knows no rules: when its seat is to act it lists the
seat's legal actions (`GET /v1/games/{id}/actions`) and posts one of them, chosen at random
(`POST /v1/games/{id}/actions`); otherwise it long-polls the game (`GET /v1/games/{id}?wait=S`
with `If-None-Match` and the revision it holds) until something changes. A user that finds no
unclaimed seat creates a game and leaves its other seats' tokens for the next users, so keep `-u`
a multiple of `--seats` (a seat nobody takes stalls its game). When its game ends, a user takes a
seat of another.

Any answer other than the expected `200`, `201` or `304` is a failure, but for one race: a
refusal of a listed action (`409` or `422`) when another seat of the same game wrote after the
list was read (a game where several seats act at once). The user checks that by reading the game,
and fails the post otherwise. Games finished show as the `GAME finished` row. Start the server with
`ROADIE_CREATE_RATE=0`: every game comes from this one address.
"""

import random
import time

from gevent.queue import Queue
from locust import HttpUser, constant, events, task


@events.init_command_line_parser.add_listener
def _arguments(parser):
    parser.add_argument("--ruleset", default="shrewd-producer", help="the ruleset to play")
    parser.add_argument("--seats", type=int, default=3, help="seats per game; keep -u a multiple of it")
    parser.add_argument("--wait-secs", type=int, default=10, help="long-poll bound while a seat waits (at most 30)")


# Seats of games created here that no user has taken yet: (game id, seat, token), or None for a
# seat of a game whose creation failed.
FREE_SEATS = Queue()
# Seats of games created or being created here that no user has claimed yet: a user claims one
# before it takes one from FREE_SEATS, so each claim gets a seat.
PROMISED = 0


def finished_game(environment, started):
    """Counts a finished game as a row of the statistics (`GAME finished`)."""
    environment.events.request.fire(
        request_type="GAME",
        name="finished",
        response_time=(time.monotonic() - started) * 1000,
        response_length=0,
        exception=None,
        context={},
    )


class Seat(HttpUser):
    """One player: takes a seat, plays it to the end of the game, then takes another."""

    wait_time = constant(0)

    def on_start(self):
        self.game, self.seat, self.revision, self.mine = None, None, None, False

    def take_seat(self):
        global PROMISED
        if PROMISED > 0:
            # A seat of a game created here and not yet claimed: claim it, and wait for it if
            # its game is still being created.
            PROMISED -= 1
            taken = FREE_SEATS.get()
        else:
            taken = self.create_game()
        if taken is None:
            return  # the creation failed, and was counted as a failure
        self.game, self.seat, token = taken
        self.auth = {"Authorization": f"Bearer {token}"}
        self.started = time.monotonic()
        self.revision, self.mine = None, False

    def create_game(self):
        """Creates a game, hands its other seats to the next users, and returns the first seat."""
        global PROMISED
        options = self.environment.parsed_options
        PROMISED += options.seats - 1
        with self.client.post(
            "/v1/games",
            json={"ruleset": options.ruleset, "seats": options.seats},
            name="/v1/games",
            catch_response=True,
        ) as response:
            if response.status_code != 201:
                response.failure(f"create: {response.status_code} {response.text[:300]}")
                for _ in range(options.seats - 1):
                    FREE_SEATS.put(None)
                return None
            created = response.json()
        for other in created["seats"][1:]:
            FREE_SEATS.put((created["id"], other["seat"], other["token"]))
        return created["id"], created["seats"][0]["seat"], created["seats"][0]["token"]

    @task
    def play(self):
        if self.game is None:
            self.take_seat()
        elif self.mine:
            self.act()
        else:
            self.wait_for_change()

    def learn(self, body):
        """Takes in a game or a post's answer: the revision, whether this seat is to act, the end."""
        self.revision = body["revision"]
        self.mine = self.seat in body["to_act"]
        if body["status"] == "finished":
            self.game = None

    def act(self):
        game = self.game
        listed = self.client.get(f"/v1/games/{game}/actions", headers=self.auth, name="/v1/games/[id]/actions")
        if listed.status_code != 200:
            return  # counted as a failure by Locust
        body = listed.json()
        if not body["actions"]:
            # The game moved on since this seat learned it was to act: read it afresh.
            self.mine, self.revision = False, None
            return
        action = random.choice(body["actions"])
        with self.client.post(
            f"/v1/games/{game}/actions",
            json={"action": action},
            headers=self.auth,
            name="/v1/games/[id]/actions",
            catch_response=True,
        ) as response:
            if response.status_code == 200:
                answer = response.json()
                self.learn(answer)
                if answer["status"] == "finished":
                    finished_game(self.environment, self.started)
            elif response.status_code in (409, 422) and self.moved_on(game, body["version"]):
                response.success()
                self.mine, self.revision = False, None
            else:
                response.failure(f"listed action refused: {response.status_code} {response.text[:300]}")

    def moved_on(self, game, version):
        """Whether the game was written after `version`, the version the refused action was listed at."""
        now = self.client.get(f"/v1/games/{game}", headers=self.auth, name="/v1/games/[id] (after a refusal)")
        return now.status_code == 200 and now.json()["version"] > version

    def wait_for_change(self):
        wait = self.environment.parsed_options.wait_secs
        headers = dict(self.auth)
        if self.revision is not None:
            headers["If-None-Match"] = f'"{self.revision}"'
        with self.client.get(
            f"/v1/games/{self.game}?wait={wait}",
            headers=headers,
            name="/v1/games/[id]?wait",
            catch_response=True,
        ) as response:
            if response.status_code == 304:
                response.success()
            elif response.status_code == 200:
                self.learn(response.json())
            else:
                response.failure(f"long poll: {response.status_code} {response.text[:300]}")
