//! The mirrored flow's local copy of a game, played through the ruleset's own types: picking an
//! action and applying it costs no JSON but the body that is posted. The registry's `AnyGame`
//! speaks JSON only, which made the generator serialize every seat's legal actions, parse them
//! back, and parse each action again to apply it, once per posted action.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use roadie_engine::{EachGame, Game, Seat, for_each_game};
use serde::Deserialize;

/// A game of some ruleset, kept by the generator beside the server's.
pub trait Mirror {
    /// The seats that may act now, ascending; empty once the game is over.
    fn to_act(&self) -> Vec<Seat>;

    /// True once the game is over.
    fn is_over(&self) -> bool;

    /// Picks one of `seat`'s legal actions at random (each as likely, in the order the rules list
    /// them) and appends its JSON to `out`; `false` when the seat has none. The pick is kept for
    /// [`Mirror::apply_picked`].
    fn pick(&mut self, seat: Seat, rng: &mut ChaCha8Rng, out: &mut Vec<u8>) -> Result<bool, String>;

    /// Plays the last pick for `seat`, through the rules' own checks.
    fn apply_picked(&mut self, seat: Seat) -> Result<(), String>;
}

/// Sets up the ruleset `slug` as the server does for the same options, seats and seed.
pub fn setup(
    slug: &str,
    options: Option<&serde_json::Value>,
    seats: usize,
    seed: u64,
) -> Result<Box<dyn Mirror>, String> {
    let mut setup = Setup {
        slug,
        options,
        seats,
        seed,
        made: None,
    };
    for_each_game(&mut setup);
    setup.made.unwrap_or_else(|| Err(format!("no ruleset {slug:?}")))
}

struct Setup<'a> {
    slug: &'a str,
    options: Option<&'a serde_json::Value>,
    seats: usize,
    seed: u64,
    made: Option<Result<Box<dyn Mirror>, String>>,
}

impl EachGame for Setup<'_> {
    fn visit<G: Game>(&mut self) {
        if self.made.is_some() || G::SLUG != self.slug {
            return;
        }
        let options = match self.options {
            None | Some(serde_json::Value::Null) => Ok(G::Options::default()),
            Some(value) => G::Options::deserialize(value).map_err(|e| format!("options: {e}")),
        };
        self.made = Some(options.and_then(|options| {
            let (game, _) = G::setup(options, self.seats, self.seed).map_err(|e| format!("{e:?}"))?;
            Ok(Box::new(Typed::<G> { game, picked: None }) as Box<dyn Mirror>)
        }));
    }
}

struct Typed<G: Game> {
    game: G,
    picked: Option<G::Action>,
}

impl<G: Game> Mirror for Typed<G> {
    fn to_act(&self) -> Vec<Seat> {
        self.game.to_act()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn pick(&mut self, seat: Seat, rng: &mut ChaCha8Rng, out: &mut Vec<u8>) -> Result<bool, String> {
        let mut legal = self.game.legal_actions(seat);
        if legal.is_empty() {
            return Ok(false);
        }
        let action = legal.swap_remove(rng.random_range(0..legal.len()));
        serde_json::to_writer(&mut *out, &action).map_err(|e| format!("an action as JSON: {e}"))?;
        self.picked = Some(action);
        Ok(true)
    }

    fn apply_picked(&mut self, seat: Seat) -> Result<(), String> {
        let action = self.picked.take().ok_or("no action was picked")?;
        self.game
            .apply(seat, &action)
            .map(drop)
            .map_err(|e| format!("{e:?}"))
    }
}
