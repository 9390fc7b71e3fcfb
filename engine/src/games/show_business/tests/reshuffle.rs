//! RULINGS 9 / S32: an empty pile is formed again from its shuffled discards. The published
//! procedure (`api/src/http/openapi/randomness.md`: "A shuffle always starts from its cards in catalogue
//! order") lets anyone recompute the new pile from the revealed seed without knowing in which
//! order the cards were discarded.

use super::*;

/// What drawing from empty piles gives: the card and artist drawn, the piles formed, and what
/// the generator's shuffle of the discards in catalogue order would give.
struct Formed {
    drawn: (Option<CardId>, Option<ArtistId>),
    piles: (Vec<CardId>, Vec<ArtistId>),
    expected: (Vec<CardId>, Vec<ArtistId>),
}

/// Every pile card discarded (in pile order, or reversed), then one card and one artist drawn.
fn formed(reversed: bool) -> Formed {
    let s = scenario(3);
    let mut influence: Vec<&str> = s.position().influence_pile.iter().map(|&c| c.id()).collect();
    let mut artists: Vec<&str> = s.position().artist_pile.iter().map(|&a| a.id()).collect();
    assert!(influence.len() > 1 && artists.len() > 1, "piles to discard");
    if reversed {
        influence.reverse();
        artists.reverse();
    }
    let mut s = s.discard(&influence);
    for artist in &artists {
        s = s.dismiss(artist);
    }
    let mut g = s.build_here().expect("a valid position");
    assert!(g.influence_pile.is_empty() && g.artist_pile.is_empty());

    let mut rng = g.rng.clone();
    let mut expected_influence = g.influence_discard.clone();
    expected_influence.sort_unstable();
    rng.shuffle(&mut expected_influence);
    let mut expected_artists = g.artist_discard.clone();
    expected_artists.sort_unstable();
    rng.shuffle(&mut expected_artists);

    let mut events = Vec::new();
    let card = g.draw_influence(&mut events);
    let artist = g.draw_artist(&mut events);
    let mut piles = (g.influence_pile.clone(), g.artist_pile.clone());
    piles.0.extend(card);
    piles.1.extend(artist);
    Formed {
        drawn: (card, artist),
        piles,
        expected: (expected_influence, expected_artists),
    }
}

/// The influence and artist piles formed from the same discards, in any discard order, are the
/// generator's shuffle of those discards in catalogue order.
#[test]
fn s32_a_pile_formed_from_its_discards_is_shuffled_from_catalogue_order() {
    let (forward, backward) = (formed(false), formed(true));
    assert!(
        forward.drawn.0.is_some() && forward.drawn.1.is_some(),
        "a card and an artist drawn"
    );
    assert_eq!(
        forward.drawn, backward.drawn,
        "the discard order changed the draw"
    );
    assert_eq!(
        forward.piles, backward.piles,
        "the discard order changed the new piles"
    );
    assert_eq!(
        forward.piles, forward.expected,
        "not the shuffle of the discards in catalogue order"
    );
}

/// Which refill a test runs.
#[derive(Clone, Copy, Debug)]
enum Refill {
    Influence,
    Artist,
    Concert,
}

/// A market with fields 1 and 2 emptied and a pile (or bag) holding one card (or token), its
/// discards (or used pool) holding the rest; refilled, with the public events.
fn refill_crossing_a_reshuffle(refill: Refill) -> (ShowBusiness, ShowBusiness, Vec<Event<GameEvent>>) {
    let s = scenario(3);
    let g = s.position();
    let s = match refill {
        Refill::Influence => {
            let mut gone: Vec<&str> = g.influence_pile[1..].iter().map(|c| c.id()).collect();
            gone.extend(g.influence_market[..2].iter().flatten().map(|c| c.id()));
            s.discard(&gone)
        }
        Refill::Artist => {
            let mut gone: Vec<&str> = g.artist_pile[1..].iter().map(|a| a.id()).collect();
            gone.extend(g.artist_market[..2].iter().flatten().map(|a| a.id()));
            gone.iter().fold(s, |s, a| s.dismiss(a))
        }
        Refill::Concert => {
            let mut gone: Vec<&str> = g.bag[1..].iter().map(|t| t.id()).collect();
            gone.extend(g.concert_market[..2].iter().flatten().map(|t| t.id()));
            s.used(&gone)
        }
    };
    let mut g = s.build_here().expect("a valid position");
    let before = g.clone();
    let mut events = Vec::new();
    match refill {
        Refill::Influence => {
            assert!(g.refill_influence_market(&mut events), "the market is full");
        }
        Refill::Artist => g.refill_artist_market(&mut events),
        Refill::Concert => g.refill_concert_market(&mut events),
    }
    g.check_invariants().expect("a valid position");
    (before, g, events)
}

/// RULINGS 9 / S32, as the log tells it: a refill that empties its pile (or bag) and forms it
/// again tells the fields filled from the old pile first, then the new pile, then the rest of
/// the refill; a client applying the events in order counts the pile as the view shows it.
#[test]
fn a_refill_crossing_a_reshuffle_tells_the_old_pile_first() {
    for refill in [Refill::Influence, Refill::Artist, Refill::Concert] {
        let (before, after, events) = refill_crossing_a_reshuffle(refill);
        let view = |g: &ShowBusiness| conformance::announcements::spectator_view(g).expect("a view");
        conformance::announcements::check_replay::<ShowBusiness>(&view(&before), &view(&after), &events)
            .unwrap_or_else(|e| panic!("{refill:?}: {e}"));
        let public = conformance::announcements::public_bodies(&events).expect("events serialize");
        let kinds: Vec<&str> = public.iter().map(conformance::announcements::kind).collect();
        assert_eq!(
            kinds,
            ["market_refilled", "reshuffled", "market_refilled"],
            "{refill:?}"
        );
    }
}
