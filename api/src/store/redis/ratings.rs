//! Ratings in Redis, all of one (app, ruleset) under the hash tag `{rt:<app>:<ruleset>}`:
//!
//! | key | holds |
//! |---|---|
//! | `roadie:{rt:<a>:<r>}:board` | a sorted set of player ids by shown rating |
//! | `roadie:{rt:<a>:<r>}:p:<player>` | a hash: `mu`, `sigma` (thousandths), `games`, `wins`, `name` |
//! | `roadie:{rt:<a>:<r>}:recent:<player>` | a list of its last rated games (JSON), latest first |
//! | `roadie:{rt:<a>:<r>}:rated:<game>` | the changes a rated game wrote (JSON), for 90 days |

use std::sync::LazyLock;

use async_trait::async_trait;
use redis::Script;
use redis::aio::ConnectionLike;

use super::RedisStore;
use crate::store::StoreError;
use crate::store::ratings::{
    BOARD_SCAN, Board, BoardPage, BoardRow, PlayerStanding, RATED_KEPT_SECS, RECENT_GAMES, Rated,
    RatingWrite, Ratings,
};
use crate::table::rating::{START, Skill, Standing};

fn prefix(board: Board<'_>) -> String {
    format!("roadie:{{rt:{}:{}}}:", board.app, board.ruleset)
}

/// Writes a rated game's standings, once. KEYS: rated marker, board, then each player's hash
/// and recent list. ARGV: changes, marker secs, recent kept, then for each player: id, games
/// before, mu, sigma, games, wins, name, shown rating, recent entry.
/// Returns {1} written, {0, changes} rated before, {2} a standing moved.
static RATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local done = redis.call('GET', KEYS[1])
if done then return {0, done} end
local n = (#KEYS - 2) / 2
for i = 1, n do
  local games = tonumber(redis.call('HGET', KEYS[1 + 2 * i], 'games') or '0')
  if games ~= tonumber(ARGV[3 + (i - 1) * 9 + 2]) then return {2} end
end
for i = 1, n do
  local a = 3 + (i - 1) * 9
  redis.call('HSET', KEYS[1 + 2 * i], 'mu', ARGV[a + 3], 'sigma', ARGV[a + 4], 'games', ARGV[a + 5], 'wins', ARGV[a + 6], 'name', ARGV[a + 7])
  redis.call('ZADD', KEYS[2], ARGV[a + 8], ARGV[a + 1])
  redis.call('LPUSH', KEYS[2 + 2 * i], ARGV[a + 9])
  redis.call('LTRIM', KEYS[2 + 2 * i], 0, tonumber(ARGV[3]) - 1)
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return {1}
",
    )
});

/// A page of a leaderboard. KEYS: board. ARGV: player hash prefix, offset, rows, min games,
/// most players looked at. Returns {next offset or '', then player, name, mu, sigma, games,
/// wins for each row}.
static BOARD: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"#!lua flags=no-writes
local offset, rows, min, most = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local out = {''}
local found, looked = 0, 0
local at = offset
while found < rows and looked < most do
  local chunk = math.min(100, most - looked)
  local ids = redis.call('ZREVRANGE', KEYS[1], at, at + chunk - 1)
  if #ids == 0 then return out end
  for _, id in ipairs(ids) do
    at = at + 1
    looked = looked + 1
    local p = redis.call('HMGET', ARGV[1] .. id, 'name', 'mu', 'sigma', 'games', 'wins')
    if tonumber(p[4] or '0') >= min then
      for _, v in ipairs({id, p[1] or '', p[2] or '', p[3] or '', p[4] or '0', p[5] or '0'}) do table.insert(out, v) end
      found = found + 1
      if found >= rows then break end
    end
  end
end
if at < redis.call('ZCARD', KEYS[1]) then out[1] = tostring(at) end
return out
",
    )
});

/// A player's standing. KEYS: its hash, board, its recent list. ARGV: player.
/// Returns {} for none, else {name, mu, sigma, games, wins, rank, recent...}.
static PLAYER: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"#!lua flags=no-writes
local p = redis.call('HMGET', KEYS[1], 'name', 'mu', 'sigma', 'games', 'wins')
if not p[4] then return {} end
local out = {p[1] or '', p[2] or '', p[3] or '', p[4], p[5] or '0', tostring(redis.call('ZREVRANK', KEYS[2], ARGV[1]) or -1)}
for _, g in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do table.insert(out, g) end
return out
",
    )
});

fn corrupt() -> StoreError {
    StoreError::Corrupt("a rating is not what Roadie writes".into())
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, StoreError> {
    text.parse().map_err(|_| corrupt())
}

/// A standing from its stored fields (mu, sigma, games, wins); a new player's for none.
fn standing_of(mu: &str, sigma: &str, games: &str, wins: &str) -> Result<Standing, StoreError> {
    if games.is_empty() {
        return Ok(Standing::default());
    }
    Ok(Standing {
        skill: Skill {
            mu_milli: if mu.is_empty() {
                START.mu_milli
            } else {
                number(mu)?
            },
            sigma_milli: if sigma.is_empty() {
                START.sigma_milli
            } else {
                number(sigma)?
            },
        },
        games: number(games)?,
        wins: if wins.is_empty() { 0 } else { number(wins)? },
    })
}

#[async_trait]
impl<C> Ratings for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn standings(&self, board: Board<'_>, players: &[&str]) -> Result<Vec<Standing>, StoreError> {
        let prefix = prefix(board);
        let mut standings = Vec::with_capacity(players.len());
        for player in players {
            let key = format!("{prefix}p:{player}");
            let fields: Vec<Option<String>> = self
                .run(async |conn| {
                    redis::cmd("HMGET")
                        .arg(&key)
                        .arg(&["mu", "sigma", "games", "wins"][..])
                        .query_async(conn)
                        .await
                })
                .await?;
            let field = |i: usize| fields.get(i).cloned().flatten().unwrap_or_default();
            standings.push(standing_of(&field(0), &field(1), &field(2), &field(3))?);
        }
        Ok(standings)
    }

    async fn rate(
        &self,
        board: Board<'_>,
        game: &str,
        changes: &str,
        writes: &[RatingWrite],
    ) -> Result<Rated, StoreError> {
        let prefix = prefix(board);
        let answer: Vec<String> = self
            .run(async |conn| {
                let mut invocation = RATE.key(format!("{prefix}rated:{game}"));
                invocation.key(format!("{prefix}board"));
                for write in writes {
                    invocation
                        .key(format!("{prefix}p:{}", write.player))
                        .key(format!("{prefix}recent:{}", write.player));
                }
                invocation.arg(changes).arg(RATED_KEPT_SECS).arg(RECENT_GAMES);
                for write in writes {
                    invocation
                        .arg(&write.player)
                        .arg(write.games_before)
                        .arg(write.after.skill.mu_milli)
                        .arg(write.after.skill.sigma_milli)
                        .arg(write.after.games)
                        .arg(write.after.wins)
                        .arg(&write.name)
                        .arg(write.after.skill.shown())
                        .arg(&write.recent);
                }
                invocation.invoke_async(conn).await
            })
            .await?;
        match answer.first().map(String::as_str) {
            Some("1") => Ok(Rated::Written),
            Some("2") => Ok(Rated::Moved),
            Some("0") => Ok(Rated::Before(answer.get(1).cloned().unwrap_or_default())),
            _ => Err(corrupt()),
        }
    }

    async fn leaderboard(
        &self,
        board: Board<'_>,
        offset: u64,
        limit: usize,
        min_games: u32,
    ) -> Result<BoardPage, StoreError> {
        let prefix = prefix(board);
        let answer: Vec<String> = self
            .run(async |conn| {
                BOARD
                    .key(format!("{prefix}board"))
                    .arg(format!("{prefix}p:"))
                    .arg(offset)
                    .arg(limit)
                    .arg(min_games)
                    .arg(BOARD_SCAN)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        let Some((next, rows)) = answer.split_first() else {
            return Err(corrupt());
        };
        let rows = rows
            .chunks_exact(6)
            .map(|row| {
                Ok(BoardRow {
                    player: row[0].clone(),
                    name: row[1].clone(),
                    standing: standing_of(&row[2], &row[3], &row[4], &row[5])?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(BoardPage {
            rows,
            next: if next.is_empty() {
                None
            } else {
                Some(number(next)?)
            },
        })
    }

    async fn player_standing(
        &self,
        board: Board<'_>,
        player: &str,
    ) -> Result<Option<PlayerStanding>, StoreError> {
        let prefix = prefix(board);
        let answer: Vec<String> = self
            .run(async |conn| {
                PLAYER
                    .key(format!("{prefix}p:{player}"))
                    .key(format!("{prefix}board"))
                    .key(format!("{prefix}recent:{player}"))
                    .arg(player)
                    .invoke_async(conn)
                    .await
            })
            .await?;
        if answer.len() < 6 {
            return Ok(None);
        }
        let rank: i64 = number(&answer[5])?;
        Ok(Some(PlayerStanding {
            name: answer[0].clone(),
            standing: standing_of(&answer[1], &answer[2], &answer[3], &answer[4])?,
            place: u64::try_from(rank + 1).unwrap_or(0),
            recent: answer[6..].to_vec(),
        }))
    }
}
