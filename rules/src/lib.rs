//! The rules core of drafti: squares, bitboards, positions, move generation for Tanzanian
//! draughts (default) and its relatives Czech and Russian, FEN, notation, draw laws and perft.

mod square;

pub use square::{ParseSquareError, Square};
