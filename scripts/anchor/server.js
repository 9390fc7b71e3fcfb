// The anchor of Roadie's creation ratio: boardgame.io 0.50.2 hosting one game, `shrewd-producer`,
// whose setup deals what Roadie's Shrewd Producer setup deals (engine/src/games/shrewd_producer/
// setup.rs and rules/draft.rs): a random starting lead, the Raise Money, the shuffled artist pile,
// one shuffled Lv.1 song per seat clockwise from the lead, and the Scout Money (less six cards at
// 3 players) shuffled, 2 drawn by each seat, then a pair each to keep one of. Only the first draft
// choice is a move (`keep`); the rest of the rules are not here.
//
// Run with NODE_ENV=production (boardgame.io checks every state for serializability otherwise).
// PORT (default 8000) on 127.0.0.1 only. Create with:
//   curl -X POST -H 'Content-Type: application/json' -d '{"numPlayers":4}' \
//     http://127.0.0.1:$PORT/games/shrewd-producer/create
'use strict';

const path = require('path');
const fs = require('fs');
const { Server, Origins } = require('boardgame.io/server');
const { INVALID_MOVE } = require('boardgame.io/core');

// A copy of the shared component data, read once at startup.
const components = JSON.parse(fs.readFileSync(path.join(__dirname, 'components.json'), 'utf8'));

const SCOUT_CARDS = components.scout_money.flatMap(({ suit, value, count }) =>
  Array.from({ length: count }, () => ({ suit, value })));
const ARTIST_IDS = components.artists.map((a) => a.id);
const LEVEL_ONE = components.songs.filter((s) => s.level === 1).map((s) => s.id);
const OPEN_SONGS = components.songs.filter((s) => s.level > 1).map((s) => s.id);
const RAISE = components.raise_money;
const FIRST_DRAW = 2;

// Scout Money for a game: all 24 cards, or 18 with one of each listed card removed at 3 players.
function scoutDeck(numPlayers) {
  const deck = SCOUT_CARDS.map((card) => ({ ...card }));
  const removed = [];
  if (numPlayers === 3) {
    for (const gone of components.scout_money_removed_3p) {
      const at = deck.findIndex((c) => c.suit === gone.suit && c.value === gone.value);
      removed.push(deck.splice(at, 1)[0]);
    }
  }
  return { deck, removed };
}

function setup({ ctx, random }) {
  const n = ctx.numPlayers;
  const lead = random.Die(n) - 1;
  const seats = Array.from({ length: n }, (_, k) => String((lead + k) % n));
  const each = n === 3 ? RAISE.deal_3p : RAISE.deal_4p;
  const supply = n === 3 ? RAISE.leftover_3p_to_discard : RAISE.count - RAISE.deal_4p * 4;
  const players = {};
  for (let p = 0; p < n; p++) {
    players[String(p)] = { bills: each, hand: [], pair: null, passing: null, songs: [], artists: [], debts: 0 };
  }

  const artistDeck = random.Shuffle(ARTIST_IDS);
  const levelOne = random.Shuffle(LEVEL_ONE);
  for (const seat of seats) players[seat].songs.push(levelOne.pop());

  const { deck, removed } = scoutDeck(n);
  const scout = random.Shuffle(deck);
  for (const seat of seats) {
    for (let i = 0; i < FIRST_DRAW; i++) players[seat].hand.push(scout.pop());
  }
  for (const seat of seats) players[seat].pair = [scout.pop(), scout.pop()];

  return {
    stage: 'draft',
    round: 0,
    lead,
    players,
    scoutDeck: scout,
    scoutDiscard: [],
    scoutRemoved: removed,
    supply,
    artistDeck,
    revealed: [],
    artistDiscard: [],
    openSongs: [...OPEN_SONGS],
    removedSongs: levelOne,
  };
}

const ShrewdProducer = {
  name: 'shrewd-producer',
  minPlayers: 3,
  maxPlayers: 4,
  setup,
  turn: {
    order: {
      first: ({ G }) => G.lead,
      next: ({ ctx }) => (ctx.playOrderPos + 1) % ctx.numPlayers,
    },
  },
  moves: {
    // Keep one card of the drawn pair (0 or 1); the other is set aside to pass left.
    keep: ({ G, playerID, events }, which) => {
      const player = G.players[playerID];
      if (!player.pair || (which !== 0 && which !== 1)) return INVALID_MOVE;
      player.hand.push(player.pair[which]);
      player.passing = player.pair[1 - which];
      player.pair = null;
      events.endTurn();
    },
  },
};

module.exports = { ShrewdProducer };

if (require.main === module) {
  const port = Number.parseInt(process.env.PORT || '8000', 10);
  const server = Server({ games: [ShrewdProducer], origins: [Origins.LOCALHOST] });
  // `run` hands `port` to Koa's `app.listen`, that is Node's `server.listen`, which also takes
  // `{ port, host }`: that keeps the anchor on loopback.
  server.run({ port: { port, host: '127.0.0.1' } }).then(({ appServer }) => {
    const address = appServer.address();
    console.log(`anchor: boardgame.io ${require('boardgame.io/package.json').version} on ${address.address}:${address.port}`);
  });
}
