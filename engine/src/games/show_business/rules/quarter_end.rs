//! QUARTER END steps 2-4 and the emergency CLEARING (S32).

use super::*;

impl ShowBusiness {
    /// QUARTER END 3: one point per artist playing another style than the seat's highest
    /// ranked song on fields 1-5, or one per artist without such a song. S41: of several own
    /// songs sharing that best field, the one that costs the least counts.
    pub(crate) fn satisfaction_loss(&self, seat: Seat) -> usize {
        let band = &self.players[seat].band;
        let off_style = |style: Style| {
            band.iter()
                .filter(|a| components().artists[a.card as usize].style(a.side_b) != style)
                .count()
        };
        self.chart
            .iter()
            .take(5)
            .find(|field| field.iter().any(|s| s.song.owner == seat))
            .and_then(|field| {
                field
                    .iter()
                    .filter(|s| s.song.owner == seat)
                    .map(|s| off_style(s.song.style))
                    .min()
            })
            .unwrap_or(band.len())
    }

    pub(crate) fn has_top5_song(&self, seat: Seat) -> bool {
        self.chart
            .iter()
            .take(5)
            .flatten()
            .any(|s| s.song.owner == seat && s.disclosed)
    }

    pub(crate) fn emergency_clearing(&self) -> Vec<Task> {
        self.solvent_in_order()
            .into_iter()
            .map(|seat| Task::Clearing { seat })
            .collect()
    }

    pub(crate) fn any_influence_field(&self) -> bool {
        self.players
            .iter()
            .any(|p| p.bankrupt.is_none() && !p.influence_field.is_empty())
    }

    pub(crate) fn can_draw(&self) -> bool {
        !self.influence_pile.is_empty() || !self.influence_discard.is_empty() || self.any_influence_field()
    }
}
