//! drafti's engine behind Hub protocol version 2 (the protocol of Scan 3 and the Hub GUI),
//! and matches between engines.
//!
//! - [`protocol`]: the text of the protocol's lines, read into typed values and written back.
//! - [`engine`]: the engine side, [`serve`]: the drafti engine answering a GUI on any reader
//!   and writer (`drafti hub` runs it on stdin and stdout).
//! - [`client`]: the GUI side, [`HubEngine`]: one engine process driven over its pipes.
//! - [`runner`]: a match between two [`Player`]s from openings, each played twice with colours
//!   swapped, adjudicated by the rules, repetition, a ply cap and endgame tables; the games
//!   come back as data ([`PlayedGame`]).
//! - [`player`]: the two kinds of player, the engine in this process ([`EnginePlayer`]) and a
//!   Hub engine process ([`HubPlayer`]).
//! - [`openings`]: built-in opening sets and FEN files; [`stats`]: W/D/L, Elo with its
//!   interval, SPRT; [`summary`]: a match's result as data.
//!
//! The crate never prints, exits or reads the environment: what it needs from its host
//! (endgame tables, somewhere to say what went wrong) is handed in ([`engine::Host`]), and
//! errors are typed values.

#![warn(missing_docs)]

pub mod client;
pub mod engine;
pub mod openings;
pub mod player;
pub mod protocol;
pub mod runner;
pub mod stats;
pub mod summary;

pub use client::HubEngine;
pub use engine::{serve, Host, Settings};
pub use openings::Opening;
pub use player::{EnginePlayer, Forfeit, ForfeitKind, HubPlayer, Player, Reply, Turn};
pub use runner::{Adjudication, Control, MatchSettings, PlayedGame, Termination};
