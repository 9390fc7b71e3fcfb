//! Who acts, the legal actions and how each one plays.

use super::actions::Action;
use super::components::*;
use super::events::GameEvent;
use super::scoring::best_assignment;
use super::state::{ScoutBid, ShrewdProducer, Stage};
use crate::{Event, Seat};

type Events = Vec<Event<GameEvent>>;

impl ShrewdProducer {
    /// Seats from the lead, clockwise.
    fn clockwise_from_lead(&self) -> impl Iterator<Item = Seat> + use<> {
        let (lead, seats) = (self.lead, self.seats());
        (0..seats).map(move |k| (lead + k) % seats)
    }

    /// DERIVED 3 / G22: shuffle the Scout Money, each seat draws 2 from the lead clockwise,
    /// then the first passing step.
    pub(super) fn start_draft(&mut self, events: &mut Events) {
        self.rng.shuffle(&mut self.scout_deck);
        events.push(Event::sealed(GameEvent::ScoutMoneyShuffled {
            order: self.scout_deck.iter().rev().copied().collect(),
        }));
        self.stage = Stage::Draft;
        for seat in self.clockwise_from_lead() {
            let mut cards = Vec::with_capacity(FIRST_DRAW);
            for _ in 0..FIRST_DRAW {
                if let Some(card) = self.scout_deck.pop() {
                    cards.push(card);
                }
            }
            let hand = &mut self.players[seat].hand;
            hand.extend_from_slice(&cards);
            hand.sort_unstable();
            events.push(Event::public(GameEvent::ScoutDrawn {
                seat,
                count: cards.len(),
            }));
            events.push(Event::private(
                seat,
                GameEvent::ScoutCardsDrawn {
                    seat,
                    cards,
                    to_choose: false,
                },
            ));
        }
        self.draft_step = 1;
        self.deal_pairs(events);
    }

    /// "each player draws 2 cards. They choose 1 to add to their hand and pass the other".
    fn deal_pairs(&mut self, events: &mut Events) {
        for seat in self.clockwise_from_lead() {
            let (Some(a), Some(b)) = (self.scout_deck.pop(), self.scout_deck.pop()) else {
                continue;
            };
            self.players[seat].pair = Some([a, b]);
            events.push(Event::public(GameEvent::ScoutDrawn { seat, count: 2 }));
            events.push(Event::private(
                seat,
                GameEvent::ScoutCardsDrawn {
                    seat,
                    cards: vec![a, b],
                    to_choose: true,
                },
            ));
        }
    }

    /// The seats that may act now, ascending.
    pub(crate) fn seats_to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Draft => (0..self.seats())
                .filter(|&s| self.players[s].pair.is_some())
                .collect(),
            Stage::Scout | Stage::Raise => vec![self.turn],
            Stage::Signing => self.ranking.first().copied().into_iter().collect(),
            Stage::Songs => self.song_queue.first().copied().into_iter().collect(),
            Stage::Over => Vec::new(),
        }
    }

    /// Whether `seat` is in [`ShrewdProducer::seats_to_act`].
    pub(crate) fn is_to_act(&self, seat: Seat) -> bool {
        match self.stage {
            Stage::Draft => self.players.0.get(seat).is_some_and(|p| p.pair.is_some()),
            Stage::Scout | Stage::Raise => seat == self.turn,
            Stage::Signing => self.ranking.first() == Some(&seat),
            Stage::Songs => self.song_queue.first() == Some(&seat),
            Stage::Over => false,
        }
    }

    /// DERIVED 4 / G23: a debt needs a free debt mark and $500 in the supply.
    pub(crate) fn may_take_debt(&self, seat: Seat) -> bool {
        self.players[seat].debts < MAX_DEBTS && self.supply >= DEBT_BILLS
    }

    /// Whether the seat's current song is complete and a next level exists (G12).
    pub(crate) fn may_pick_song(&self, seat: Seat) -> bool {
        let p = &self.players[seat];
        match p.songs.last() {
            Some(song) => {
                song.card().level < TOP_LEVEL
                    && best_assignment(song.card().requires, &p.artists, self.options.dual_fills_both)
                        .is_some()
            }
            None => false,
        }
    }

    /// The open songs one level above the seat's current song.
    fn next_songs(&self, seat: Seat) -> impl Iterator<Item = SongId> + '_ {
        let level = self.players[seat].songs.last().map_or(0, |s| s.card().level);
        self.open_songs
            .iter()
            .copied()
            .filter(move |s| s.card().level == level + 1)
    }

    /// Every action `seat` may post now.
    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        let Some(p) = self.players.0.get(seat) else {
            return Vec::new();
        };
        match self.stage {
            Stage::Draft => match p.pair {
                Some([a, b]) => vec![Action::Keep { card: a }, Action::Keep { card: b }],
                None => Vec::new(),
            },
            Stage::Scout if seat == self.turn => {
                let mut out = Vec::with_capacity(p.hand.len() + 2);
                match self.lead_suit() {
                    // G24: the lead plays any card; it sets the suit.
                    None => out.extend(p.hand.iter().map(|&card| Action::Play { card })),
                    Some(suit) if p.hand.iter().any(|c| c.card().suit == suit) => out.extend(
                        p.hand
                            .iter()
                            .filter(|c| c.card().suit == suit)
                            .map(|&card| Action::Play { card }),
                    ),
                    // G7: without the lead suit, option A (any card, out) or B (substitute).
                    Some(_) => {
                        out.extend(p.hand.iter().map(|&card| Action::Play { card }));
                        if p.bills >= SUBSTITUTE_BILLS {
                            out.push(Action::Substitute);
                        }
                    }
                }
                if self.may_take_debt(seat) {
                    out.push(Action::TakeDebt);
                }
                out
            }
            Stage::Raise if seat == self.turn => {
                let mut out = Vec::with_capacity(usize::from(p.bills) + 2);
                out.push(Action::Pass);
                out.extend((1..=u32::from(p.bills)).map(|k| Action::Raise {
                    amount: k * RAISE_STEP,
                }));
                if self.may_take_debt(seat) {
                    out.push(Action::TakeDebt);
                }
                out
            }
            Stage::Signing if self.ranking.first() == Some(&seat) => self
                .revealed
                .iter()
                .map(|&artist| Action::ChooseArtist { artist })
                .collect(),
            Stage::Songs if self.song_queue.first() == Some(&seat) => {
                let mut out: Vec<Action> = self
                    .next_songs(seat)
                    .map(|song| Action::TakeSong { song })
                    .collect();
                out.push(Action::DeclineSong);
                out
            }
            _ => Vec::new(),
        }
    }

    /// Why `action` is not legal for `seat`, a seat that may act, or `Ok`.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), String> {
        if self.legal(seat).contains(action) {
            Ok(())
        } else {
            Err(self.why_illegal(seat, action))
        }
    }

    /// Carries out a legal action.
    pub(crate) fn play(&mut self, seat: Seat, action: &Action) -> Events {
        let mut events = Vec::with_capacity(8);
        match *action {
            Action::Keep { card } => self.keep(seat, card, &mut events),
            Action::TakeDebt => self.take_debt(seat, &mut events),
            Action::Play { card } => self.play_scout(seat, card, &mut events),
            Action::Substitute => self.substitute(seat, &mut events),
            Action::Raise { amount } => self.raise(seat, amount, &mut events),
            Action::Pass => self.pass(seat, &mut events),
            Action::ChooseArtist { artist } => self.choose_artist(seat, artist, &mut events),
            Action::TakeSong { song } => self.take_song(seat, song, &mut events),
            Action::DeclineSong => self.decline_song(seat, &mut events),
        }
        events
    }

    /// A sentence saying why a well-formed action is not legal for a seat that may act.
    fn why_illegal(&self, seat: Seat, action: &Action) -> String {
        let p = &self.players[seat];
        let phase = self.phase_name();
        match (self.stage, *action) {
            (Stage::Draft, Action::Keep { card }) => {
                format!("{} is not one of the two cards you are choosing from", card.id())
            }
            (Stage::Scout | Stage::Raise, Action::TakeDebt) if p.debts >= MAX_DEBTS => {
                format!("you have already taken the maximum of {MAX_DEBTS} debts this game")
            }
            (Stage::Scout | Stage::Raise, Action::TakeDebt) => format!(
                "a debt needs ${} in the supply; it holds ${}",
                u32::from(DEBT_BILLS) * BILL,
                u32::from(self.supply) * BILL
            ),
            (Stage::Scout, Action::Play { card }) if !p.hand.contains(&card) => {
                format!("{} is not in your hand", card.id())
            }
            (Stage::Scout, Action::Play { card }) => format!(
                "you hold Scout Money of the lead suit and must play one; {} is not of that suit",
                card.id()
            ),
            (Stage::Scout, Action::Substitute) if seat == self.lead => {
                "the lead plays a Scout Money card; it cannot substitute (G24)".into()
            }
            (Stage::Scout, Action::Substitute) if p.bills < SUBSTITUTE_BILLS => format!(
                "substituting costs $200 of Raise Money; you hold ${}",
                u32::from(p.bills) * BILL
            ),
            (Stage::Scout, Action::Substitute) => {
                "you hold Scout Money of the lead suit, so you must play it (G7)".into()
            }
            (Stage::Raise, Action::Raise { amount }) => format!(
                "a raise is a multiple of $100 from $100 up to the ${} you hold (G8); ${amount} is not",
                u32::from(p.bills) * BILL
            ),
            (Stage::Signing, Action::ChooseArtist { artist }) => {
                format!("{} is not one of this round's two artists", artist.id())
            }
            (Stage::Songs, Action::TakeSong { song }) => format!(
                "{} is not an open song card of the next level above your current song",
                song.id()
            ),
            (_, Action::TakeDebt) => {
                "debt may be taken only on one's own Scout or Raise Phase turn (G23)".into()
            }
            _ => format!("this action is not legal in the {phase} phase"),
        }
    }

    fn keep(&mut self, seat: Seat, card: ScoutId, events: &mut Events) {
        let p = &mut self.players[seat];
        let Some([a, b]) = p.pair.take() else {
            return;
        };
        let passed = if a == card { b } else { a };
        p.hand.push(card);
        p.hand.sort_unstable();
        p.passing = Some(passed);
        events.push(Event::public(GameEvent::Kept { seat }));
        events.push(Event::private(seat, GameEvent::KeptCard { seat, kept: card }));
        if self.players.iter().any(|p| p.pair.is_some()) {
            return;
        }
        // G22: when all have chosen, each passed card goes straight into the left hand.
        events.push(Event::public(GameEvent::CardsPassedLeft));
        for from in self.clockwise_from_lead() {
            if let Some(card) = self.players[from].passing.take() {
                let to = self.left_of(from);
                let hand = &mut self.players[to].hand;
                hand.push(card);
                hand.sort_unstable();
                events.push(Event::private(
                    to,
                    GameEvent::CardReceived { seat: to, from, card },
                ));
            }
        }
        if self.draft_step < PASSING_STEPS {
            self.draft_step += 1;
            self.deal_pairs(events);
        } else {
            self.draft_step = 0;
            self.start_round(events);
        }
    }

    /// "Flip over 2 new cards from the Artist card draw pile ... Start the Scout Phase with the
    /// new lead player."
    fn start_round(&mut self, events: &mut Events) {
        self.round += 1;
        self.revealed.clear();
        for _ in 0..ARTISTS_PER_ROUND {
            if let Some(artist) = self.artist_deck.pop() {
                self.revealed.push(artist);
            }
        }
        self.stage = Stage::Scout;
        self.turn = self.lead;
        events.push(Event::public(GameEvent::RoundStarted {
            round: self.round,
            lead: self.lead,
            artists: self.revealed.clone(),
        }));
    }

    fn take_debt(&mut self, seat: Seat, events: &mut Events) {
        self.supply -= DEBT_BILLS;
        let p = &mut self.players[seat];
        p.bills += DEBT_BILLS;
        p.debts += 1;
        events.push(Event::public(GameEvent::DebtTaken {
            seat,
            debts: p.debts,
            supply: u32::from(self.supply) * BILL,
        }));
    }

    fn play_scout(&mut self, seat: Seat, card: ScoutId, events: &mut Events) {
        let suit = self.lead_suit();
        let p = &mut self.players[seat];
        p.hand.retain(|&c| c != card);
        p.bid = Some(ScoutBid::Card(card));
        // The lead's card sets the suit; a follower is in only with the lead suit.
        p.participating = suit.is_none_or(|s| s == card.card().suit);
        events.push(Event::public(GameEvent::ScoutPlayed {
            seat,
            card,
            raise_phase: p.participating,
        }));
        self.next_scout_turn(events);
    }

    fn substitute(&mut self, seat: Seat, events: &mut Events) {
        let p = &mut self.players[seat];
        p.bills -= SUBSTITUTE_BILLS;
        p.bid = Some(ScoutBid::Substitute);
        p.participating = true;
        // G18: the substitute reaches the supply at once.
        self.supply += SUBSTITUTE_BILLS;
        events.push(Event::public(GameEvent::Substituted { seat }));
        self.next_scout_turn(events);
    }

    fn next_scout_turn(&mut self, events: &mut Events) {
        let next = self.left_of(self.turn);
        if next != self.lead {
            self.turn = next;
            return;
        }
        // G5: ascending Scout value; ties go first to the seat closer to the lead.
        let mut order: Vec<Seat> = (0..self.seats())
            .filter(|&s| self.players[s].participating)
            .collect();
        order.sort_by_key(|&s| {
            (
                self.players[s].bid.map_or(0, |b| self.scout_value(b)),
                self.distance(s),
            )
        });
        self.turn = order.first().copied().unwrap_or(self.lead);
        events.push(Event::public(GameEvent::RaiseOrder { order: order.clone() }));
        self.raise_order = order;
        self.stage = Stage::Raise;
    }

    fn raise(&mut self, seat: Seat, amount: u32, events: &mut Events) {
        let bills = (amount / RAISE_STEP) as u8;
        let p = &mut self.players[seat];
        p.bills -= bills;
        p.raised += bills;
        events.push(Event::public(GameEvent::Raised {
            seat,
            amount,
            total: self.total_bid(seat),
        }));
        self.next_raise_turn(events);
    }

    fn pass(&mut self, seat: Seat, events: &mut Events) {
        self.players[seat].passed = true;
        events.push(Event::public(GameEvent::Passed { seat }));
        self.next_raise_turn(events);
    }

    /// G5: turns cycle through the fixed order, skipping seats that passed, until all passed.
    fn next_raise_turn(&mut self, events: &mut Events) {
        let n = self.raise_order.len();
        let at = self.raise_order.iter().position(|&s| s == self.turn).unwrap_or(0);
        for k in 1..=n {
            let s = self.raise_order[(at + k) % n];
            if !self.players[s].passed {
                self.turn = s;
                return;
            }
        }
        self.rank(events);
    }

    /// "the player with the highest total bid ... is 1st, and the player with the second-highest
    /// total bid is 2nd"; ties go to the seat closer to the lead.
    fn rank(&mut self, events: &mut Events) {
        let mut order = self.raise_order.clone();
        order.sort_by_key(|&s| (std::cmp::Reverse(self.total_bid(s)), self.distance(s)));
        order.truncate(2);
        events.push(Event::public(GameEvent::Ranked {
            places: order.clone(),
            totals: order.iter().map(|&s| self.total_bid(s)).collect(),
        }));
        self.ranking = order;
        self.stage = Stage::Signing;
    }

    fn choose_artist(&mut self, seat: Seat, artist: ArtistId, events: &mut Events) {
        let revealed = std::mem::take(&mut self.revealed);
        self.players[seat].artists.push(artist);
        events.push(Event::public(GameEvent::ArtistSigned {
            seat,
            artist,
            place: 1,
        }));
        for other in revealed.into_iter().filter(|&a| a != artist) {
            match self.ranking.get(1) {
                // G25: 2nd place receives the remaining artist.
                Some(&second) => {
                    self.players[second].artists.push(other);
                    events.push(Event::public(GameEvent::ArtistSigned {
                        seat: second,
                        artist: other,
                        place: 2,
                    }));
                }
                // G10: with a single participant the other artist is discarded.
                None => {
                    self.artist_discard.push(other);
                    events.push(Event::public(GameEvent::ArtistDiscarded { artist: other }));
                }
            }
        }
        self.process_money(events);
        let mut queue = self.ranking.clone();
        queue.sort_by_key(|&s| self.distance(s));
        queue.retain(|&s| self.may_pick_song(s));
        self.song_queue = queue;
        if self.song_queue.is_empty() {
            self.end_round(events);
        } else {
            self.stage = Stage::Songs;
        }
    }

    /// Money processing: signers pay everything; the others lose their Scout play and only $100
    /// of their Raise-Phase money (G9).
    fn process_money(&mut self, events: &mut Events) {
        for seat in 0..self.seats() {
            let signer = self.ranking.contains(&seat);
            let p = &mut self.players[seat];
            if let Some(ScoutBid::Card(card)) = p.bid {
                self.scout_discard.push(card);
            }
            if p.participating {
                let (to_supply, returned) = if signer || p.raised == 0 {
                    (p.raised, 0)
                } else {
                    (NON_SIGNER_FEE_BILLS, p.raised - NON_SIGNER_FEE_BILLS)
                };
                self.supply += to_supply;
                p.bills += returned;
                events.push(Event::public(GameEvent::MoneyProcessed {
                    seat,
                    to_supply: u32::from(to_supply) * BILL,
                    returned: u32::from(returned) * BILL,
                }));
            }
            p.bid = None;
            p.participating = false;
            p.raised = 0;
            p.passed = false;
        }
    }

    fn take_song(&mut self, seat: Seat, song: SongId, events: &mut Events) {
        self.open_songs.retain(|&s| s != song);
        self.players[seat].songs.push(song);
        events.push(Event::public(GameEvent::SongTaken { seat, song }));
        // G12: chaining; the seat keeps picking while its new song is complete too.
        if !self.may_pick_song(seat) {
            self.next_song_pick(events);
        }
    }

    fn decline_song(&mut self, seat: Seat, events: &mut Events) {
        events.push(Event::public(GameEvent::SongDeclined { seat }));
        self.next_song_pick(events);
    }

    fn next_song_pick(&mut self, events: &mut Events) {
        if !self.song_queue.is_empty() {
            self.song_queue.remove(0);
        }
        if self.song_queue.is_empty() {
            self.end_round(events);
        }
    }

    /// Next lead, then the next round, the redraft after round 6 (G28) or the end after round 12.
    fn end_round(&mut self, events: &mut Events) {
        // "If there was no 1st place player (e.g., only one bidder ...), the previous lead
        // player continues as lead player."
        if self.ranking.len() >= 2 {
            self.lead = self.ranking[0];
        }
        events.push(Event::public(GameEvent::NextLead { seat: self.lead }));
        self.ranking.clear();
        self.raise_order.clear();
        self.song_queue.clear();
        if self.round >= ROUNDS {
            self.stage = Stage::Over;
            self.turn = self.lead;
            let winners = self.result().winners;
            events.push(Event::public(GameEvent::GameOver { winners }));
        } else if self.round == REDRAFT_AFTER_ROUND {
            // G14: all Scout Money, from the discard pile and the hands, is redrafted.
            events.push(Event::public(GameEvent::ScoutMoneyGathered));
            let mut gathered = std::mem::take(&mut self.scout_discard);
            for p in self.players.iter_mut() {
                gathered.append(&mut p.hand);
            }
            gathered.sort();
            self.scout_deck = gathered;
            self.start_draft(events);
        } else {
            self.start_round(events);
        }
    }
}
