// Plays one full game of every ruleset Roadie lists through the client openapi-generator's
// `typescript-axios` generator made from openapi/openapi.json (generated into ./roadie by
// clients/generate), as an integrator would use it: no cast anywhere, compiled with tsc --strict.
//
// Usage: node dist/axios/play.js BASE_URL [SEED]. For each ruleset: create a game with its fewest
// seats and the seed; until it is over, read who acts (as a spectator), list that seat's actions
// and post one of them, exactly as listed (chosen by a seeded generator); then check the finished
// game (outcome, the revealed seed against its commitment) and its whole event log. Prints one
// line per ruleset (`<slug>: ...`); any refusal or mismatch ends it with status 1.

import { isAxiosError } from "axios";
import { Configuration, GamesApi, RulesetsApi } from "./roadie";
import type { CreateGame, GameState, LegalActions } from "./roadie";
import { Chooser, MAX_STEPS, args, checkSequence, commitment, fail } from "../common";

/** The rulesets this program knows how to create a game of: the document's `CreateGame` union. */
type Ruleset = CreateGame["ruleset"];
const RULESETS: Record<Ruleset, true> = { "rock-the-world": true, "shrewd-producer": true, "show-business": true };

function known(slug: string): slug is Ruleset {
  return Object.hasOwn(RULESETS, slug);
}

const { base, seed } = args();

/** The games API as a spectator, or as the seat whose token is given. */
function games(token?: string): GamesApi {
  return new GamesApi(new Configuration({ basePath: base, accessToken: token }));
}

async function play(slug: Ruleset, seats: number): Promise<void> {
  const spectator = games();
  const body: CreateGame = { ruleset: slug, seats, seed };
  const { data: created } = await spectator.createGame(body);
  if (created.ruleset !== slug) fail(`created a ${created.ruleset} game, not ${slug}`);
  const id = created.id;
  const seatGames = created.seats.map((s) => games(s.token));
  const chooser = new Chooser(seed);
  let game: GameState = (await spectator.getGame(id)).data;
  let steps = 0;
  while (game.status !== "finished") {
    if (steps >= MAX_STEPS) fail(`${slug}: not over after ${MAX_STEPS} actions`);
    const seat = game.to_act[0];
    const mine = seat === undefined ? undefined : seatGames[seat];
    if (seat === undefined || mine === undefined) fail(`${slug}: active, but nobody may act`);
    const legal: LegalActions = (await mine.listActions(id)).data;
    if (legal.ruleset !== slug || legal.seat !== seat) fail(`${slug}: seat ${seat} was listed ${legal.ruleset}'s seat ${legal.seat}`);
    if (legal.actions.length === 0) fail(`${slug}: seat ${seat} is to act but may do nothing`);
    const action = legal.actions[chooser.below(legal.actions.length)];
    const { data: result } = await mine.postAction(id, { action });
    if (result.ruleset !== slug || result.version <= legal.version) fail(`${slug}: the post answered ${result.ruleset} version ${result.version}`);
    steps += 1;
    game = (await spectator.getGame(id)).data;
  }
  if (!game.outcome) fail(`${slug}: finished without an outcome`);
  if (game.seed !== seed || !game.seed_salt) fail(`${slug}: the finished game reveals seed ${game.seed}, not ${seed}`);
  const revealed = commitment(game.seed_salt, seed);
  if (revealed !== created.seed_commitment || revealed !== game.seed_commitment) fail(`${slug}: the revealed seed does not match its commitment`);
  const seqs: number[] = [];
  for (let after = 0; ; ) {
    const { data: log } = await spectator.listEvents(id, after);
    if (log.ruleset !== slug || !log.finished) fail(`${slug}: the log of a finished game says ${log.ruleset}, finished ${log.finished}`);
    seqs.push(...log.events.map((e) => e.seq));
    if (log.next_after === after) break;
    after = log.next_after;
  }
  checkSequence(slug, seqs);
  console.log(`${slug}: ${seats} seats, seed ${seed}: over after ${steps} actions, ${seqs.length} events, version ${game.version}`);
}

async function main(): Promise<void> {
  const { rulesets } = (await new RulesetsApi(new Configuration({ basePath: base })).listRulesets()).data;
  if (rulesets.length === 0) fail("no ruleset is listed");
  for (const ruleset of rulesets) {
    if (!known(ruleset.slug)) fail(`${ruleset.slug} is not a ruleset of the document this client was generated from`);
    await play(ruleset.slug, ruleset.seats.min);
  }
  console.log(`${rulesets.length} rulesets played to the end through the typescript-axios client`);
}

main().catch((e: unknown) => {
  if (isAxiosError(e) && e.response) fail(`${e.response.status} ${e.config?.url}: ${JSON.stringify(e.response.data)}`);
  fail(String(e instanceof Error ? e.stack : e));
});
