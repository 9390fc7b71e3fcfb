//! RECRUITMENT (S18).

use super::*;

impl ShowBusiness {
    pub(crate) fn recruit_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.players[seat].band.len() >= MAX_ARTISTS {
            return;
        }
        let pw = self.active_power(seat);
        let occ = self.occupied(seat);
        for f in 1..=pw.min(4) {
            if let Some(a) = self.artist_market[f as usize - 1] {
                for p in placements(a, occ) {
                    for side_b in [false, true] {
                        out.push(Action::Recruit {
                            field: f,
                            side_b,
                            fields: p.clone(),
                        });
                    }
                }
            }
        }
    }
}
