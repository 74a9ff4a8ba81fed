//! The network evaluation (NNUE): a small efficiently updatable network over the pieces, the
//! alternative to the pattern evaluation of `eval`, chosen by [`crate::Config::nnue`]: the
//! evaluation of Tanzanian draughts by default ([`has_shipped`]).
//!
//! **Inputs** ([`INPUTS`] = 128 per perspective): for each of the two perspectives (White's,
//! and Black's with the board turned 180°), one input per square × {man, king} × {own,
//! opponent's}. A move changes only a few inputs (the moving piece, its crowning, the pieces
//! it takes), so each perspective's first layer is kept as an **accumulator** of `i16` sums
//! updated from the position before (see `accumulator`): the search pays a few row
//! additions per position instead of the whole layer.
//!
//! **Layers**: accumulator (`hidden` per perspective, weights and biases `i16` at [`QA`] per
//! unit) → clipped ReLU (`min(max(x, 0), 1)`, or its square) of the side to move's then the
//! other side's accumulator → one output per bucket of pieces on the board (weights `i16` at
//! [`QB`] per unit), a logit whose centi-men are `logit × scale`. Both perspectives share the
//! weights and are read from the side to move, so a position and the same position turned
//! around with the colours swapped score exactly the same (tested).
//!
//! **File** (`engine/data/nnue-*.bin`, little-endian): the magic `DRAFTINN`, a version, the
//! shape (inputs, hidden, buckets, activation, scale), the weights, and a CRC-32 of everything
//! before it. [`Network::from_bytes`] checks every part and that no accumulator can overflow,
//! and refuses a damaged file with a [`NetworkError`].

mod accumulator;

pub(crate) use accumulator::Stack;

use drafti_rules::{Color, Position, Variant};
use std::sync::{Arc, LazyLock};

/// Inputs per perspective: 32 squares × {man, king} × {own, opponent's}.
pub const INPUTS: usize = 128;
/// Accumulator units per unit of activation (the clipped ReLU's ceiling).
pub const QA: i32 = 255;
/// Output weight units per unit.
pub const QB: i32 = 64;
/// The largest accumulator a file may have, per perspective.
pub const MAX_HIDDEN: usize = 512;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 8;
/// Pieces on the board at the start (the buckets divide 1..=24).
const FULL_BOARD: usize = 24;
/// The most pieces on the board at once (both sides).
const MAX_PIECES: i32 = 24;

/// Units of the output sum per unit of the logit (both activations: the squared one is
/// divided by `QA` once).
const OUTPUT_UNIT: i64 = QA as i64 * QB as i64;

const MAGIC: &[u8; 8] = b"DRAFTINN";
const VERSION: u32 = 1;
/// Magic, version, then five `u32` of shape.
const HEADER: usize = 8 + 4 + 5 * 4;

/// The network shipped with the engine (Tanzanian self-play; docs/lab/nnue.md).
pub const SHIPPED_BYTES: &[u8] = include_bytes!("../data/nnue-tz.bin");

/// What follows the accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    ClippedRelu,
    /// `clamp(x, 0, 1)²`.
    SquaredClippedRelu,
}

impl Activation {
    fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::ClippedRelu),
            1 => Some(Activation::SquaredClippedRelu),
            _ => None,
        }
    }
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file does not start with `DRAFTINN`.
    #[error("not a drafti network file (no DRAFTINN magic)")]
    Magic,
    /// A format version this engine does not read.
    #[error("network file version {0} (this engine reads version {VERSION})")]
    Version(u32),
    /// A shape field out of range.
    #[error("network file: {field} is {value} ({expected})")]
    Shape {
        /// The field.
        field: &'static str,
        /// Its value in the file.
        value: u32,
        /// What it may be.
        expected: &'static str,
    },
    /// The file is shorter or longer than its shape says.
    #[error("network file is {found} bytes, its shape needs {expected}")]
    Length {
        /// Bytes the header's shape needs.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the contents.
    #[error("network file checksum {stored:08x} does not match its contents ({computed:08x})")]
    Checksum {
        /// The CRC-32 stored in the file.
        stored: u32,
        /// The CRC-32 of the contents.
        computed: u32,
    },
    /// Weights that could overflow an accumulator or the output's sum.
    #[error("network file: {0} out of range (the sums could overflow)")]
    Range(&'static str),
}

/// A quantised network, as the engine runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    activation: Activation,
    /// Centi-men per unit of the output logit.
    scale: i32,
    /// `INPUTS × hidden`, row by input.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// `buckets × 2·hidden`: the side to move's half, then the other's.
    wo: Vec<i16>,
    /// One per bucket, in `OUTPUT_UNIT`s.
    bo: Vec<i32>,
}

/// A network with real weights (the trainer's), to be quantised by [`Network::quantise`].
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Accumulator size per perspective.
    pub hidden: usize,
    /// Output buckets by pieces on the board.
    pub buckets: usize,
    /// The activation after the accumulator.
    pub activation: Activation,
    /// Centi-men per unit of the output logit.
    pub scale: i32,
    /// `INPUTS × hidden`.
    pub w1: Vec<f32>,
    /// `hidden`.
    pub b1: Vec<f32>,
    /// `buckets × 2·hidden`.
    pub wo: Vec<f32>,
    /// `buckets`.
    pub bo: Vec<f32>,
}

/// The input of a piece for one perspective: `king · 64 + opponent's · 32 + square`, the
/// square counted from the perspective's own side (Black's turned 180°).
#[inline(always)]
pub fn input(perspective: Color, piece: Color, king: bool, square: usize) -> usize {
    let square = match perspective {
        Color::White => square,
        Color::Black => 31 - square,
    };
    usize::from(king) * 64 + usize::from(piece != perspective) * 32 + square
}

/// Calls `f` with every active input of `pos` for `perspective`.
#[inline]
pub fn inputs(pos: &Position, perspective: Color, mut f: impl FnMut(usize)) {
    for color in [Color::White, Color::Black] {
        for (king, set) in [(false, pos.men(color).0), (true, pos.kings(color).0)] {
            let mut rest = set;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                f(input(perspective, color, king, sq));
            }
        }
    }
}

/// The output bucket of a position with `pieces` pieces among `buckets` (1..=24 split evenly).
#[inline]
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(1, FULL_BOARD) - 1) * buckets / FULL_BOARD
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

impl Network {
    /// Reads a network file, checking its shape, length, checksum and ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NetworkError::Magic);
        }
        if bytes.len() < HEADER + 4 {
            return Err(NetworkError::Length {
                expected: HEADER + 4,
                found: bytes.len(),
            });
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let field = |i: usize| u32_at(bytes, 12 + 4 * i);
        let shape = |field: &'static str, value: u32, ok: bool, expected: &'static str| {
            if ok {
                Ok(value as usize)
            } else {
                Err(NetworkError::Shape {
                    field,
                    value,
                    expected,
                })
            }
        };
        let inputs = field(0);
        shape("inputs", inputs, inputs as usize == INPUTS, "128")?;
        let hidden = field(1);
        let hidden = shape(
            "hidden",
            hidden,
            hidden > 0 && hidden as usize <= MAX_HIDDEN && hidden % 16 == 0,
            "a multiple of 16 up to 512",
        )?;
        let buckets = field(2);
        let buckets = shape(
            "buckets",
            buckets,
            (1..=MAX_BUCKETS as u32).contains(&buckets),
            "1 to 8",
        )?;
        let activation = Activation::from_code(field(3)).ok_or(NetworkError::Shape {
            field: "activation",
            value: field(3),
            expected: "0 or 1",
        })?;
        let scale = field(4);
        shape("scale", scale, (1..=10_000).contains(&scale), "1 to 10000")?;
        let expected =
            HEADER + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 4;
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[..expected - 4];
        let stored = u32_at(bytes, expected - 4);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut at = HEADER;
        let mut i16s = |n: usize| -> Vec<i16> {
            let v = body[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let w1 = i16s(INPUTS * hidden);
        let b1 = i16s(hidden);
        let wo = i16s(buckets * 2 * hidden);
        let bo = body[at..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let net = Network {
            hidden,
            buckets,
            activation,
            scale: scale as i32,
            w1,
            b1,
            wo,
            bo,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// The network file's bytes ([`Network::from_bytes`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 2 * self.w1.len() + 64);
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.buckets as u32,
            self.activation.code(),
            self.scale as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.w1.iter().chain(&self.b1).chain(&self.wo) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.bo {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// No accumulator (a bias and up to 24 inputs) leaves `i16`, and no half of the output
    /// sum leaves `i32`, whatever the position.
    fn check_ranges(&self) -> Result<(), NetworkError> {
        let h = self.hidden;
        for j in 0..h {
            let most: i32 = (0..INPUTS)
                .map(|i| i32::from(self.w1[i * h + j]).abs())
                .max()
                .unwrap_or(0);
            if i32::from(self.b1[j]).abs() + MAX_PIECES * most > i32::from(i16::MAX) {
                return Err(NetworkError::Range("first-layer weights"));
            }
        }
        let top = match self.activation {
            Activation::ClippedRelu => i64::from(QA),
            Activation::SquaredClippedRelu => i64::from(QA * QA),
        };
        let most = self
            .wo
            .iter()
            .map(|w| i64::from(*w).abs())
            .max()
            .unwrap_or(0);
        // The squared activation multiplies `x · w` in 16 bits first (see `half_output`).
        if self.activation == Activation::SquaredClippedRelu && most * i64::from(QA) > 32_767 {
            return Err(NetworkError::Range("output weights"));
        }
        if top * most * h as i64 > i64::from(i32::MAX) {
            return Err(NetworkError::Range("output weights"));
        }
        Ok(())
    }

    /// Quantises real weights (rounding, and clamping to what the file's checks accept).
    pub fn quantise(f: &FloatNetwork) -> Result<Network, NetworkError> {
        let round16 = |v: f32, q: i32, limit: i32| -> i16 {
            ((v * q as f32).round() as i32).clamp(-limit, limit) as i16
        };
        let row_limit = (i32::from(i16::MAX) - 2 * QA) / MAX_PIECES;
        let wo_limit = match f.activation {
            Activation::ClippedRelu => i32::from(i16::MAX),
            Activation::SquaredClippedRelu => 32_767 / QA,
        };
        let net = Network {
            hidden: f.hidden,
            buckets: f.buckets,
            activation: f.activation,
            scale: f.scale,
            w1: f.w1.iter().map(|&v| round16(v, QA, row_limit)).collect(),
            b1: f.b1.iter().map(|&v| round16(v, QA, 2 * QA)).collect(),
            wo: f.wo.iter().map(|&v| round16(v, QB, wo_limit)).collect(),
            bo: f
                .bo
                .iter()
                .map(|&v| (v * OUTPUT_UNIT as f32).round() as i32)
                .collect(),
        };
        // The shape is checked by reading the bytes back.
        Network::from_bytes(&net.to_bytes())
    }

    /// The accumulator size per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The evaluation of `pos` from the side to move, in centi-men, from scratch (the
    /// search updates its accumulators instead). No endgame knowledge or draw law: the
    /// engine adds those ([`crate::Engine::evaluate`]).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut white = [0i16; MAX_HIDDEN];
        let mut black = [0i16; MAX_HIDDEN];
        self.refresh(pos, Color::White, &mut white[..self.hidden]);
        self.refresh(pos, Color::Black, &mut black[..self.hidden]);
        self.output(pos, &white[..self.hidden], &black[..self.hidden])
    }

    /// `acc` = the accumulator of `pos` for `perspective`, from scratch.
    #[inline]
    fn refresh(&self, pos: &Position, perspective: Color, acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
        inputs(pos, perspective, |i| {
            add_row(acc, self.row(i));
        });
    }

    /// The first-layer weights of input `i`.
    #[inline(always)]
    fn row(&self, i: usize) -> &[i16] {
        self.row_of(i, self.hidden)
    }

    /// [`Network::row`] with the accumulator's length `h` (= `hidden`) given, so that a
    /// caller that knows it at compile time gets loops of that length.
    #[inline(always)]
    fn row_of(&self, i: usize, h: usize) -> &[i16] {
        debug_assert_eq!(h, self.hidden);
        &self.w1[i * h..(i + 1) * h]
    }

    /// The output from both perspectives' accumulators, centi-men from the side to move.
    #[inline(always)]
    fn output(&self, pos: &Position, white: &[i16], black: &[i16]) -> i32 {
        self.output_of(pos, white, black, self.hidden)
    }

    /// [`Network::output`] with `h` (= `hidden`) given, as [`Network::row_of`].
    #[inline(always)]
    fn output_of(&self, pos: &Position, white: &[i16], black: &[i16], h: usize) -> i32 {
        debug_assert_eq!(h, self.hidden);
        let (us, them) = match pos.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let b = bucket(pos.occupied().count() as usize, self.buckets);
        let w = &self.wo[b * 2 * h..(b + 1) * 2 * h];
        let sum = i64::from(half_output(self.activation, us, &w[..h]))
            + i64::from(half_output(self.activation, them, &w[h..]))
            + i64::from(self.bo[b]);
        (sum * i64::from(self.scale) / OUTPUT_UNIT) as i32
    }
}

/// `acc += row`, auto-vectorised.
#[inline(always)]
fn add_row(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// One perspective's share of the output: `Σ act(acc) · w` in `QA·QB` units (the squared
/// activation divided by `QA` once, so both are in the same units).
#[inline(always)]
fn half_output(activation: Activation, acc: &[i16], w: &[i16]) -> i32 {
    match activation {
        Activation::ClippedRelu => acc
            .iter()
            .zip(w)
            .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
            .sum(),
        Activation::SquaredClippedRelu => {
            // `x · w` fits 16 bits (|w| ≤ 32767 / QA, checked on load), so the product with
            // `x` again is one multiply-add of 16-bit pairs.
            let sum: i32 = acc
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let x = a.clamp(0, QA as i16);
                    i32::from(x) * i32::from(x.wrapping_mul(w))
                })
                .sum();
            sum / QA
        }
    }
}

/// The shipped network, read once.
static SHIPPED: LazyLock<Result<Arc<Network>, NetworkError>> =
    LazyLock::new(|| Network::from_bytes(SHIPPED_BYTES).map(Arc::new));

/// The shipped network (read on first use; its checks are tested, so an error is a damaged
/// build).
pub fn shipped() -> Result<Arc<Network>, NetworkError> {
    SHIPPED.clone()
}

/// Whether `variant` has a shipped network: the Tanzanian one, trained on Tanzanian
/// self-play, for Tanzanian draughts and TzDraft's reading of it (which shares its pattern
/// weights too). Czech and Russian play under other rules (men capture backwards, a king
/// crowned in a capture goes on) and keep their pattern weights.
pub fn has_shipped(variant: Variant) -> bool {
    matches!(variant, Variant::Tanzanian | Variant::TzDraft)
}

/// The static evaluation of `pos` from the side to move with the network's value
/// (`network`, from the side to move, asked for only when needed) in place of the pattern
/// evaluation's: the laws' draws and the endgame knowledge of `endgame` on top, as
/// `eval::evaluate` puts them on the patterns.
#[inline]
pub(crate) fn evaluate(
    pos: &Position,
    laws: &drafti_rules::DrawLaws,
    state: crate::laws::LawState,
    network: impl FnOnce() -> i32,
) -> i32 {
    match crate::endgame::evaluate(pos, laws, state) {
        crate::endgame::Verdict::Score(white) => match pos.turn() {
            Color::White => white,
            Color::Black => -white,
        },
        // Division truncates towards zero, so scaling from either side is the same.
        crate::endgame::Verdict::Scaled(divisor) => network() / divisor,
        crate::endgame::Verdict::Linear => network(),
    }
}

/// The search's two hooks: where a node enters the path, and its static evaluation.
impl crate::Engine {
    /// The node at `ply` of the search path is `pos` (nothing without a network).
    #[inline(always)]
    pub(crate) fn enter_node(&mut self, ply: usize, pos: &Position) {
        if let Some((_, stack)) = &mut self.network {
            stack.enter(ply, pos);
        }
    }

    /// The static evaluation of the node at `ply` (entered with [`crate::Engine::enter_node`])
    /// from the side to move: the network's with [`crate::Config::nnue`], else the patterns'.
    #[inline]
    pub(crate) fn static_eval(
        &mut self,
        pos: &Position,
        law: crate::laws::LawState,
        ply: usize,
    ) -> i32 {
        match &mut self.network {
            Some((net, stack)) => evaluate(pos, &self.laws, law, || stack.evaluate(net, ply)),
            None => crate::eval::evaluate(pos, &self.laws, law, &self.eval_tables),
        }
    }
}

#[cfg(test)]
mod tests;
