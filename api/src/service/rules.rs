//! Which version of each ruleset's rules this process plays: a game is written only by a process
//! that plays the version it started under, so a deploy that changes a rule never changes a
//! running game in the middle. Reads of any game still work.

use std::collections::BTreeMap;

use roadie_engine::RULESETS;

use crate::table::{Refusal, Table};

/// How long a client refused for its game's rules version waits before it retries: about the
/// time a load balancer takes to send it to another process.
const RETRY_AFTER_SECS: u64 = 5;

/// The version this process plays of each ruleset.
#[derive(Clone, Debug)]
pub struct RulesServed(BTreeMap<&'static str, u32>);

impl Default for RulesServed {
    /// The versions this build's rules declare.
    fn default() -> Self {
        Self(RULESETS.iter().map(|r| (r.slug, r.version)).collect())
    }
}

impl RulesServed {
    /// This build's versions, with some declared otherwise by `overrides` (`slug=version`,
    /// separated by commas: `ROADIE_RULES_VERSIONS`, for upgrade drills and their tests).
    pub fn with_overrides(overrides: &str) -> Result<Self, String> {
        let mut served = Self::default();
        for pair in overrides.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (slug, version) = pair
                .split_once('=')
                .ok_or_else(|| format!("{pair:?} is not slug=version"))?;
            let version: u32 = version
                .trim()
                .parse()
                .map_err(|_| format!("{pair:?}: the version is not a whole number"))?;
            let entry = served
                .0
                .get_mut(slug.trim())
                .ok_or_else(|| format!("no ruleset is called {:?}", slug.trim()))?;
            *entry = version;
        }
        Ok(served)
    }

    /// The version this process plays of `slug` (0 for a slug no ruleset has).
    pub fn version(&self, slug: &str) -> u32 {
        self.0.get(slug).copied().unwrap_or(0)
    }

    /// Every ruleset's version, by slug.
    pub fn all(&self) -> &BTreeMap<&'static str, u32> {
        &self.0
    }

    /// `503 rules_version_unavailable` unless this process plays the version of the rules
    /// `table` started under.
    pub fn check(&self, table: &Table) -> Result<(), Refusal> {
        let slug = table.game.ruleset().slug;
        let served = self.version(slug);
        if table.rules_version == served {
            return Ok(());
        }
        Err(Refusal::rules_version_unavailable(
            RETRY_AFTER_SECS,
            format!(
                "the game is played under version {} of {slug}'s rules, and this process plays version {served}; \
                 nothing was changed: retry, and a process that plays it will answer",
                table.rules_version
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_name_a_ruleset_and_a_whole_version() {
        let served = RulesServed::with_overrides("shrewd-producer=2, show-business = 7").expect("valid");
        assert_eq!(served.version("shrewd-producer"), 2);
        assert_eq!(served.version("show-business"), 7);
        assert_eq!(served.version("rock-the-world"), 1);
        assert!(RulesServed::with_overrides("chess=2").is_err());
        assert!(RulesServed::with_overrides("shrewd-producer").is_err());
        assert!(RulesServed::with_overrides("shrewd-producer=two").is_err());
        assert_eq!(
            RulesServed::with_overrides("").expect("none").all(),
            RulesServed::default().all()
        );
    }
}
