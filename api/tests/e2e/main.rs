//! End-to-end tests: the real `roadie` binary over HTTP, with a real `redis-server`.
//!
//! Each test starts what it needs (its own Redis on a free loopback port, its own server) and
//! stops it after, so tests run in parallel. Games are played by seat tokens while a local copy
//! of the engine replays the same moves: every view, legal-action list and event is checked
//! against it, and against the engine's list of what each viewer must not see.

mod apps;
mod archive;
mod archiving;
mod bots;
mod browser;
mod clients;
mod clocks;
mod cluster;
mod concurrency;
mod contract;
mod cors;
mod dashboard;
mod docs;
mod errors;
mod failover;
mod games;
mod idempotency;
mod integrity;
mod limits;
mod lobby;
mod locust;
mod logs;
mod matchmaking;
mod play;
mod processes;
mod ratings;
mod readiness;
mod readme;
mod records;
mod repairs;
mod restart;
mod rollback;
mod schemathesis;
mod seats;
mod seeds;
mod shards;
mod stream;
mod support;
mod tokens;
mod upgrade;
mod web;
mod web_ratings;
mod webhooks;
