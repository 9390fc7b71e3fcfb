//! The games Roadie ships, one folder each.

pub mod shrewd_producer;
