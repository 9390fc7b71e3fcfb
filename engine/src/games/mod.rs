//! The games Roadie ships, one folder each.

pub mod rock_the_world;
pub mod show_business;
pub mod shrewd_producer;
