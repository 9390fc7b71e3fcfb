//! Game records: a finished game written whole and signed, and a record played again.

use crate::records::{self, KnownKeys, Record, Verdict};
use crate::table::{Code, GameId, Pass, Refusal};

use super::Games;

impl Games {
    /// The signed record of finished game `id`, for any caller who may look at the game (all
    /// is public once it is over). `409 game_not_finished` while it runs.
    pub async fn record(&self, id: &GameId, pass: &Pass) -> Result<Record, Refusal> {
        let stored = match self.read(id).await {
            Ok(stored) => stored,
            Err(missing) if missing.code == Code::GameNotFound => {
                return self.archived_record(id, pass, missing).await;
            }
            Err(refusal) => return Err(refusal),
        };
        stored.viewer_of(pass)?;
        if !stored.is_over() {
            return records::build(&stored, &[], &[]);
        }
        let events = self.counted(self.store.events(id.as_str(), 0, u64::MAX).await)?;
        let actions = self.counted(self.store.actions(id.as_str()).await)?;
        let record = records::build(&stored, &events, &actions)?;
        records::sign(record, &self.record_keys)
    }

    /// `record` played again with this server's rules, its signature checked with the keys this
    /// server signs with or did.
    pub fn verify_record(&self, record: &Record) -> Verdict {
        records::verify(
            record,
            self.record_keys.known(),
            Some(self.rules.version(&record.ruleset)),
        )
    }

    /// The public keys of every record this server signs or signed.
    pub fn record_keys(&self) -> &KnownKeys {
        self.record_keys.known()
    }
}
