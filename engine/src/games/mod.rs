//! The games Roadie ships, one folder each.

pub mod show_business;
pub mod shrewd_producer;
