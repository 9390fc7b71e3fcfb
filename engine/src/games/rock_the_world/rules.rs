//! Who acts, the legal actions and how each one plays out.

use super::actions::{Action, Token, Tokens, Variant};
use super::components::{
    BUS_REACH, BUY_LIMIT_CORNER, BUY_LIMIT_REGULAR, CardKind, CharacterId, DIE_SIDES, MONEY_UNIT, SPACES,
    TOKEN_PRICE, TRAIN_LINES, card_id, card_kind, city,
};
use super::events::{DealtItem, End, GameEvent, MoveBy, Payer, PlayCard, RollPurpose, TokenDestination};
use super::state::{RockTheWorld, Stage};
use crate::rng::GameRng;
use crate::{Event, Seat};

type Events = Vec<Event<GameEvent>>;

/// R20/R21: whether one `token` takes a cutout from `from` to `to`.
pub(super) fn reaches(token: Token, from: u8, to: u8) -> bool {
    if !(1..=SPACES).contains(&to) || to == from {
        return false;
    }
    match token {
        Token::Bus => {
            let ahead = (to + SPACES - from) % SPACES;
            ahead <= BUS_REACH || ahead >= SPACES - BUS_REACH
        }
        Token::Train => TRAIN_LINES
            .iter()
            .any(|line| line.contains(&from) && line.contains(&to)),
        Token::Plane => true,
    }
}

/// R16: the space `steps` clockwise from `from`; space 20 is followed by space 1.
fn clockwise(from: u8, steps: u8) -> u8 {
    (from - 1 + steps) % SPACES + 1
}

fn card_of(card: u8) -> PlayCard {
    PlayCard {
        id: card_id(card),
        kind: card_kind(card),
    }
}

/// The order of a deck (top last), as the sealed shuffle event reports it: top first.
pub(super) fn deck_order(deck: &[u8]) -> Vec<String> {
    deck.iter().rev().map(|&c| card_id(c)).collect()
}

/// Emits a die roll: public at once (R14) and sealed for the audit.
fn roll_die(rng: &mut GameRng, seat: Seat, purpose: RollPurpose, events: &mut Events) -> u8 {
    let value = rng.roll(DIE_SIDES);
    let body = GameEvent::DieRolled { seat, purpose, value };
    events.push(Event::sealed(body.clone()));
    events.push(Event::public(body));
    value
}

impl RockTheWorld {
    /// R2/R18: the purchase limit of the space the cutout stands on.
    fn buy_limit(&self, seat: Seat) -> u8 {
        match city(self.players[seat].space) {
            Some(c) if c.corner => BUY_LIMIT_CORNER,
            _ => BUY_LIMIT_REGULAR,
        }
    }

    fn can_buy(&self, seat: Seat, token: Token) -> Result<(), &'static str> {
        match self.step {
            Stage::Main { used: true, .. } => Err("tokens can only be bought before the first token is used"),
            Stage::Main { bought, .. } if bought >= self.buy_limit(seat) => {
                Err("the purchase limit of this space is reached for this turn")
            }
            Stage::Main { .. } if self.players[seat].cash < TOKEN_PRICE => Err("a token costs $100,000"),
            Stage::Main { .. } if self.supply.get(token) == 0 => {
                Err("none of that token is left in the supply")
            }
            Stage::Main { .. } => Ok(()),
            _ => Err("tokens are bought after the roll, before anything else is done"),
        }
    }

    /// R26: any player except the rocker may gig on an open space.
    fn can_gig(&self, seat: Seat) -> Result<(), &'static str> {
        if !matches!(self.step, Stage::Main { .. } | Stage::AfterClaim) {
            return Err("a gig is played after the roll");
        }
        if self.rocker == Some(seat) {
            return Err("the rocker earns nothing and never plays a gig");
        }
        if !self.is_open(self.players[seat].space) {
            return Err("a gig needs an open city: a corner, or a city whose character has been claimed");
        }
        Ok(())
    }

    /// R24/R30: the characters of seat `holder` that `seat` may add to a claim, if any.
    fn claimable_from(&self, seat: Seat, holder: Seat, character: CharacterId, extras_remain: bool) -> bool {
        if holder == seat || Some(holder) == self.rocker || self.players[holder].out {
            return false;
        }
        if self.players[holder].space != self.players[seat].space {
            return false;
        }
        if self.rocker == Some(seat) && !extras_remain {
            !self.is_extra(holder, character)
        } else {
            self.is_extra(holder, character)
        }
    }

    /// R24/R30: every legal `take` list, each in ascending id order.
    fn claim_options(&self, seat: Seat) -> Vec<Vec<CharacterId>> {
        let space = self.players[seat].space;
        let board = self.board_character(space);
        let is_rocker = self.rocker == Some(seat);
        if board.is_none() && !is_rocker {
            return Vec::new();
        }
        let extras_remain = is_rocker && self.outsider_extras_remain();
        let mut combos: Vec<Vec<CharacterId>> = vec![board.into_iter().collect()];
        for opponent in self.others_on(seat, space) {
            let choices: Vec<CharacterId> = self
                .band(opponent)
                .filter(|&c| self.claimable_from(seat, opponent, c, extras_remain))
                .collect();
            if choices.is_empty() {
                continue;
            }
            let mut next = Vec::with_capacity(combos.len() * (choices.len() + 1));
            for combo in &combos {
                next.push(combo.clone());
                for &c in &choices {
                    let mut with = combo.clone();
                    with.push(c);
                    next.push(with);
                }
            }
            combos = next;
        }
        combos.retain(|c| !c.is_empty());
        for combo in &mut combos {
            combo.sort_unstable();
        }
        combos.sort_unstable();
        combos
    }

    /// R24/R30: whether `take` is one of the listed claims, without listing them.
    fn check_claim(&self, seat: Seat, take: &[CharacterId]) -> Result<(), String> {
        let space = self.players[seat].space;
        let board = self.board_character(space);
        let is_rocker = self.rocker == Some(seat);
        if board.is_none() && !is_rocker {
            return Err("a claim is only possible where a character stands on the board".into());
        }
        if take.is_empty() {
            return Err("a claim names at least one character".into());
        }
        if take.windows(2).any(|w| w[0] >= w[1]) {
            return Err("list the characters once each, in ascending id order".into());
        }
        if let Some(b) = board
            && !take.contains(&b)
        {
            return Err(format!(
                "the claim must include {}, the character on this space",
                b.as_str()
            ));
        }
        let extras_remain = is_rocker && self.outsider_extras_remain();
        let mut from_seat = [false; 4];
        for &c in take.iter().filter(|&&c| Some(c) != board) {
            let Some(holder) = self.holders[c.index()] else {
                return Err(format!("{} is not on this space", c.as_str()));
            };
            if !self.claimable_from(seat, holder, c, extras_remain) {
                return Err(format!(
                    "{} is not eligible: only one character of an opponent on this space, never \
                     the rocker's, never a family character (for the rocker: extras first)",
                    c.as_str()
                ));
            }
            let Some(slot) = from_seat.get_mut(holder) else {
                return Err("no such seat".into());
            };
            if *slot {
                return Err("at most one character from each opponent".into());
            }
            *slot = true;
        }
        Ok(())
    }

    /// R15: only the active seat ever acts, and nobody once the game is over.
    pub(super) fn seats_to_act(&self) -> Vec<Seat> {
        match self.end() {
            Some(_) => Vec::new(),
            None => vec![self.active],
        }
    }

    /// Whether `seat` is in [`RockTheWorld::seats_to_act`].
    pub(super) fn is_to_act(&self, seat: Seat) -> bool {
        self.end().is_none() && seat == self.active
    }

    /// Every action `seat` may post now.
    pub(super) fn legal(&self, seat: Seat) -> Vec<Action> {
        match self.step {
            Stage::Roll => vec![Action::Roll],
            Stage::Main { .. } => {
                let mut out = Vec::new();
                for token in Token::ALL {
                    if self.can_buy(seat, token).is_ok() {
                        out.push(Action::Buy { token });
                    }
                }
                let from = self.players[seat].space;
                for token in Token::ALL {
                    if self.players[seat].tokens.get(token) > 0 {
                        for to in 1..=SPACES {
                            if reaches(token, from, to) {
                                out.push(Action::Use { token, to });
                            }
                        }
                    }
                }
                if self.rocker.is_none() {
                    out.push(Action::Declare);
                }
                out.extend(
                    self.claim_options(seat)
                        .into_iter()
                        .map(|take| Action::Claim { take }),
                );
                if self.can_gig(seat).is_ok() {
                    out.push(Action::Gig);
                }
                out.push(Action::EndTurn);
                out
            }
            Stage::AfterClaim => {
                let mut out = Vec::new();
                if self.can_gig(seat).is_ok() {
                    out.push(Action::Gig);
                }
                out.push(Action::EndTurn);
                out
            }
            Stage::Over { .. } => Vec::new(),
        }
    }

    /// Why `action` is not in [`RockTheWorld::legal`] for the active seat, or `Ok`.
    pub(super) fn check(&self, seat: Seat, action: &Action) -> Result<(), String> {
        let in_main = matches!(self.step, Stage::Main { .. });
        let illegal = |reason: &str| Err(reason.to_owned());
        match action {
            Action::Roll if self.step == Stage::Roll => Ok(()),
            Action::Roll => illegal("the die is rolled once, at the start of the turn"),
            _ if self.step == Stage::Roll => illegal("a turn begins with the roll"),
            Action::Buy { token } => self.can_buy(seat, *token).map_err(String::from),
            Action::Use { .. } | Action::Declare | Action::Claim { .. } if !in_main => {
                illegal("after the claim only a gig or the end of the turn remain")
            }
            Action::Use { token, to } => {
                if self.players[seat].tokens.get(*token) == 0 {
                    illegal("you hold no token of that type")
                } else if !reaches(*token, self.players[seat].space, *to) {
                    illegal(match token {
                        Token::Bus => "a bus goes 1 or 2 spaces either way",
                        Token::Train => "a train goes along one side's line, corners included",
                        Token::Plane => "a plane goes to any other space (1 to 20)",
                    })
                } else {
                    Ok(())
                }
            }
            Action::Declare if self.rocker.is_some() => {
                illegal("someone is already attempting to Rock the World")
            }
            Action::Declare => Ok(()),
            Action::Claim { take } => self.check_claim(seat, take),
            Action::Gig => self.can_gig(seat).map_err(String::from),
            Action::EndTurn => Ok(()),
        }
    }

    /// Carries out a legal action.
    pub(super) fn play(&mut self, seat: Seat, action: &Action) -> Events {
        let mut events = Vec::new();
        match action {
            Action::Roll => self.roll(seat, &mut events),
            Action::Buy { token } => self.buy(seat, *token, &mut events),
            Action::Use { token, to } => self.use_token(seat, *token, *to, &mut events),
            Action::Declare => self.declare(seat, &mut events),
            Action::Claim { take } => self.claim(seat, take, &mut events),
            Action::Gig => self.gig(seat, &mut events),
            Action::EndTurn => self.end_turn(&mut events),
        }
        events
    }

    /// R16: 1d6, moved clockwise.
    fn roll(&mut self, seat: Seat, events: &mut Events) {
        let value = roll_die(&mut self.rng, seat, RollPurpose::Move, events);
        self.last_roll = Some(value);
        let from = self.players[seat].space;
        let to = clockwise(from, value);
        self.players[seat].space = to;
        events.push(Event::public(GameEvent::Moved {
            seat,
            from,
            to,
            by: MoveBy::Die,
        }));
        self.step = Stage::Main {
            bought: 0,
            used: false,
        };
    }

    /// R18: $100,000 to the bank for one token from the supply.
    fn buy(&mut self, seat: Seat, token: Token, events: &mut Events) {
        let player = &mut self.players[seat];
        player.cash -= TOKEN_PRICE;
        *player.tokens.get_mut(token) += 1;
        *self.supply.get_mut(token) -= 1;
        self.bank_received += TOKEN_PRICE;
        if let Stage::Main { bought, .. } = &mut self.step {
            *bought += 1;
        }
        events.push(Event::public(GameEvent::TokenBought {
            seat,
            token,
            price: TOKEN_PRICE,
        }));
    }

    /// R20: the token leaves play in phase one, and returns to the supply in the final phase.
    fn use_token(&mut self, seat: Seat, token: Token, to: u8, events: &mut Events) {
        let player = &mut self.players[seat];
        *player.tokens.get_mut(token) -= 1;
        let from = player.space;
        player.space = to;
        let destination = if self.rocker.is_some() {
            *self.supply.get_mut(token) += 1;
            TokenDestination::Supply
        } else {
            *self.spent.get_mut(token) += 1;
            TokenDestination::SpentPool
        };
        if let Stage::Main { used, .. } = &mut self.step {
            *used = true;
        }
        events.push(Event::public(GameEvent::TokenSpent {
            seat,
            token,
            to: destination,
        }));
        let by = match token {
            Token::Bus => MoveBy::Bus,
            Token::Train => MoveBy::Train,
            Token::Plane => MoveBy::Plane,
        };
        events.push(Event::public(GameEvent::Moved { seat, from, to, by }));
    }

    /// R22: the star chip and the spent pool go to the declarer; the turn ends.
    fn declare(&mut self, seat: Seat, events: &mut Events) {
        self.rocker = Some(seat);
        let took = std::mem::take(&mut self.spent);
        self.players[seat].tokens.add(took);
        events.push(Event::public(GameEvent::Declared { seat, took }));
        if self.band(seat).count() == CharacterId::ALL.len() {
            self.finish(End::RockedTheWorld { rocker: seat }, events);
        } else {
            self.end_turn(events);
        }
    }

    fn leads(&self) -> [bool; 4] {
        let mut out = [false; 4];
        for (seat, slot) in out.iter_mut().enumerate().take(self.seats()) {
            *slot = self.lead_flipped(seat);
        }
        out
    }

    /// R25/R43: reports every Lead that turned since `before`, the eliminated rocker's included
    /// ("it flips back at once when a family character leaves the band").
    fn report_leads(&self, before: [bool; 4], events: &mut Events) {
        let after = self.leads();
        for seat in 0..self.seats() {
            if before[seat] != after[seat] {
                events.push(Event::public(GameEvent::LeadTurned {
                    seat,
                    flipped: after[seat],
                }));
            }
        }
    }

    /// R5/R24/R30: one roll; every listed character whose value it meets is won.
    fn claim(&mut self, seat: Seat, take: &[CharacterId], events: &mut Events) {
        let board = self.board_character(self.players[seat].space);
        events.push(Event::public(GameEvent::ClaimMade {
            seat,
            take: take.to_vec(),
        }));
        let roll = roll_die(&mut self.rng, seat, RollPurpose::Claim, events);
        self.last_roll = Some(roll);
        let before = self.leads();
        let mut board_taken = false;
        for &character in take {
            if character.card().value <= roll {
                let from = self.holders[character.index()];
                self.holders[character.index()] = Some(seat);
                board_taken |= Some(character) == board;
                events.push(Event::public(GameEvent::CharacterWon {
                    seat,
                    character,
                    from,
                }));
            } else {
                events.push(Event::public(GameEvent::CharacterMissed { seat, character }));
            }
        }
        self.report_leads(before, events);
        let is_rocker = self.rocker == Some(seat);
        if is_rocker && self.band(seat).count() == CharacterId::ALL.len() {
            self.finish(End::RockedTheWorld { rocker: seat }, events);
        } else if board_taken && !is_rocker && self.options.gig_after_claim {
            self.step = Stage::AfterClaim;
        } else {
            self.end_turn(events);
        }
    }

    /// R29: the top card; an empty deck is first rebuilt from all 56 cards and shuffled.
    fn draw(&mut self, events: &mut Events) -> u8 {
        if self.deck.is_empty() {
            self.deck.append(&mut self.discard);
            self.deck.sort_unstable();
            self.rng.shuffle(&mut self.deck);
            events.push(Event::sealed(GameEvent::DeckShuffled {
                order: deck_order(&self.deck),
            }));
            events.push(Event::public(GameEvent::DeckReshuffled {
                cards: self.deck.len(),
            }));
        }
        let card = self.deck.pop().unwrap_or_default();
        self.discard.push(card);
        card
    }

    /// R26-R28: draw, get paid by the bank and every opponent present, or lose to a Fail.
    fn gig(&mut self, seat: Seat, events: &mut Events) {
        let card = self.draw(events);
        let kind = card_kind(card);
        let space = self.players[seat].space;
        let icons = city(space).map_or(0, |c| c.icons[self.players[seat].colour.index()]);
        let earnings = self.band_value(seat) * u64::from(icons) * kind.multiplier() * MONEY_UNIT;
        events.push(Event::public(GameEvent::CardDrawn {
            seat,
            card: card_of(card),
            earnings,
        }));
        let mut rocker_short = false;
        if let CardKind::Fail(character) = kind {
            if self.holders[character.index()] == Some(seat) {
                let before = self.leads();
                self.holders[character.index()] = None;
                events.push(Event::public(GameEvent::CharacterReturned { seat, character }));
                self.report_leads(before, events);
            }
        } else {
            self.players[seat].cash += earnings;
            self.bank_paid += earnings;
            events.push(Event::public(GameEvent::Paid {
                from: Payer::Bank,
                to: seat,
                amount: earnings,
                owed: earnings,
            }));
            let payers: Vec<Seat> = self.others_on(seat, space).collect();
            for payer in payers {
                let amount = earnings.min(self.players[payer].cash);
                self.players[payer].cash -= amount;
                self.players[seat].cash += amount;
                rocker_short |= Some(payer) == self.rocker && amount < earnings;
                events.push(Event::public(GameEvent::Paid {
                    from: Payer::Seat(payer),
                    to: seat,
                    amount,
                    owed: earnings,
                }));
            }
        }
        match self.rocker {
            Some(rocker) if rocker_short => self.eliminate(rocker, seat, events),
            _ => self.end_turn(events),
        }
    }

    /// R27/R32-R34: the rocker could not pay `by` in full. R33/R39 (friendly): "The game ends at
    /// once" and "the table is left as it stands": the rocker keeps his band and the star chip.
    fn eliminate(&mut self, rocker: Seat, by: Seat, events: &mut Events) {
        self.players[rocker].out = true;
        self.eliminated.push(rocker);
        events.push(Event::public(GameEvent::Eliminated { seat: rocker, by }));
        if self.options.variant == Variant::Friendly {
            self.finish(End::RockerEliminated { rocker }, events);
            return;
        }
        self.rocker = None;
        let characters: Vec<CharacterId> = self.band(rocker).collect();
        let tokens = std::mem::take(&mut self.players[rocker].tokens);
        let before = self.leads();
        match self.options.variant {
            Variant::ModifiedFriendly => {
                let mut receiver = by;
                let items = characters.iter().map(|&c| DealtItem::Character(c)).chain(
                    Token::ALL
                        .into_iter()
                        .flat_map(|t| std::iter::repeat_n(DealtItem::Token(t), usize::from(tokens.get(t)))),
                );
                for item in items {
                    match item {
                        DealtItem::Character(c) => self.holders[c.index()] = Some(receiver),
                        DealtItem::Token(t) => *self.players[receiver].tokens.get_mut(t) += 1,
                    }
                    events.push(Event::public(GameEvent::Dealt { seat: receiver, item }));
                    receiver = self.left_of(receiver);
                }
            }
            _ => {
                for &c in &characters {
                    self.holders[c.index()] = None;
                }
                self.supply.add(tokens);
                events.push(Event::public(GameEvent::RockerCleared {
                    seat: rocker,
                    characters,
                    tokens,
                }));
            }
        }
        self.report_leads(before, events);
        self.spent = Tokens::default();
        events.push(Event::public(GameEvent::PhaseOneResumed));
        let last = match self.in_game().count() {
            1 => self.in_game().next(),
            _ => None,
        };
        if let Some(last) = last {
            self.finish(End::LastStanding { seat: last }, events);
        } else {
            self.end_turn(events);
        }
    }

    /// R36, then R12: the die passes to the next remaining seat clockwise.
    fn end_turn(&mut self, events: &mut Events) {
        let next = self.left_of(self.active);
        let cap = self.options.max_turns_per_seat;
        if cap > 0 && self.players[next].turns >= cap {
            self.finish(End::TurnCap { turns: cap }, events);
            return;
        }
        self.active = next;
        self.players[next].turns += 1;
        self.step = Stage::Roll;
        events.push(Event::public(GameEvent::TurnStarted {
            seat: next,
            turn: self.players[next].turns,
        }));
    }

    fn finish(&mut self, end: End, events: &mut Events) {
        self.step = Stage::Over { end };
        events.push(Event::public(GameEvent::GameOver { end }));
    }
}
