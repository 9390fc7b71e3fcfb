//! A process's delivery slots, shared fairly between receivers.
//!
//! "Delivery slots are shared fairly per receiver host, so one slow host cannot delay another's
//! notices": a receiver ([`Webhook::receiver`](crate::store::Webhook::receiver)) holds at most
//! its share of the slots, the total divided by the number of other receivers holding slots
//! plus two (at least one slot). So while fewer than about half the slots' number of receivers
//! are busy, some slots are always left for a receiver that holds none, however many notices a
//! receiver that never answers has waiting.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::store::Room;

/// The slots of one process.
#[derive(Debug)]
pub struct Slots {
    total: usize,
    /// Slots held, by receiver; a receiver holding none is not listed.
    held: Mutex<HashMap<String, usize>>,
}

/// A slot held for one claimed game, given back when dropped.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    receiver: String,
}

impl Slots {
    /// `total` slots (at least one), none held.
    pub fn new(total: usize) -> Arc<Self> {
        Arc::new(Self {
            total: total.max(1),
            held: Mutex::default(),
        })
    }

    fn held(&self) -> MutexGuard<'_, HashMap<String, usize>> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The most slots a receiver may hold while `others` other receivers hold some.
    fn share(&self, others: usize) -> usize {
        (self.total / (others + 2)).max(1)
    }

    /// How many games a claim may take now: the free slots, and for each receiver what its
    /// share leaves it.
    pub fn room(&self) -> Room {
        let held = self.held();
        let in_use: usize = held.values().sum();
        let busy = held.len();
        Room {
            games: self.total.saturating_sub(in_use),
            per_receiver: held
                .iter()
                .map(|(receiver, n)| (receiver.clone(), self.share(busy - 1).saturating_sub(*n)))
                .collect(),
            other: self.share(busy),
        }
    }

    /// A slot for a game of `receiver`, unless every slot is held or the receiver holds its
    /// share.
    pub fn take(self: &Arc<Self>, receiver: &str) -> Option<Slot> {
        let mut held = self.held();
        let in_use: usize = held.values().sum();
        let mine = held.get(receiver).copied().unwrap_or(0);
        let others = held.len() - usize::from(mine > 0);
        if in_use >= self.total || mine >= self.share(others) {
            return None;
        }
        held.insert(receiver.to_owned(), mine + 1);
        Some(Slot {
            slots: self.clone(),
            receiver: receiver.to_owned(),
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.slots.held();
        if let Some(n) = held.get_mut(&self.receiver) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.receiver);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receiver_holding_its_share_leaves_slots_to_others() {
        let slots = Slots::new(32);
        let hanging: Vec<Slot> = std::iter::from_fn(|| slots.take("hang:80")).collect();
        assert_eq!(hanging.len(), 16, "alone, a receiver holds half the slots");
        let room = slots.room();
        assert_eq!(room.games, 16);
        assert_eq!(room.per_receiver, [("hang:80".to_owned(), 0)]);
        assert_eq!(room.other, 10);
        let healthy: Vec<Slot> = std::iter::from_fn(|| slots.take("ok:80")).collect();
        assert_eq!(healthy.len(), 10, "beside one other, a third");
        let third = slots.take("third:80");
        assert!(third.is_some(), "and still room for a third receiver");
        drop(hanging);
        assert_eq!(slots.room().per_receiver.len(), 2);
        drop((healthy, third));
        assert_eq!(slots.room().games, 32);
    }

    #[test]
    fn every_receiver_gets_a_slot_while_any_is_free() {
        let slots = Slots::new(4);
        let held: Vec<Slot> = (0..4).filter_map(|i| slots.take(&format!("r{i}:80"))).collect();
        assert_eq!(held.len(), 4);
        assert!(slots.take("r5:80").is_none(), "all four are held");
        assert_eq!(slots.room().games, 0);
    }
}
