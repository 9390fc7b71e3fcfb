//! RULINGS 9 / S32: an empty pile is formed again from its shuffled discards. The published
//! procedure (`api/src/randomness.md`: "A shuffle always starts from its cards in catalogue
//! order") lets anyone recompute the new pile from the revealed seed without knowing in which
//! order the cards were discarded.

use super::*;

/// The influence and artist piles formed from the same discards, in any discard order, are the
/// generator's shuffle of those discards in catalogue order.
#[test]
fn s32_a_pile_formed_from_its_discards_is_shuffled_from_catalogue_order() {
    let discards_influence = [card("I64"), card("I03"), card("I41"), card("I12"), card("I27")];
    let discards_artist = [artist("AR12"), artist("AR02"), artist("AR30"), artist("AR07")];
    let mut game = fresh(3);
    game.influence_pile.clear();
    game.artist_pile.clear();
    let mut formed = Vec::new();
    for reversed in [false, true] {
        let mut g = game.clone();
        let (mut influence, mut artists) = (discards_influence.to_vec(), discards_artist.to_vec());
        if reversed {
            influence.reverse();
            artists.reverse();
        }
        g.influence_discard = influence;
        g.artist_discard = artists;
        let mut ev = Vec::new();
        let top_card = g.draw_influence(&mut ev);
        let top_artist = g.draw_artist(&mut ev);
        formed.push((
            top_card,
            g.influence_pile.clone(),
            top_artist,
            g.artist_pile.clone(),
        ));
    }
    assert_eq!(formed[0], formed[1], "the discard order changed the new piles");

    let mut rng = game.rng.clone();
    let mut influence = discards_influence.to_vec();
    influence.sort_unstable();
    rng.shuffle(&mut influence);
    let mut artists = discards_artist.to_vec();
    artists.sort_unstable();
    rng.shuffle(&mut artists);
    let (top_card, pile, top_artist, artist_pile) = formed.remove(0);
    assert_eq!(top_card, influence.pop());
    assert_eq!(pile, influence);
    assert_eq!(top_artist, artists.pop());
    assert_eq!(artist_pile, artists);
}
