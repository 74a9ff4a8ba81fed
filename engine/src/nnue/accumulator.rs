//! The search's accumulators: one pair (White's and Black's perspective) per ply of the
//! search path, brought up to date lazily from the nearest ready one below when a position
//! is evaluated.
//!
//! Each slot holds a position and, once ready, its accumulators. A node entering a ply only
//! records its position there (a copy of 16 bytes); most nodes are never evaluated (inner
//! nodes, cut-offs), and an evaluation at ply `p` finds the highest ready slot below and
//! updates the slots above it one by one from the difference between their positions:
//! the squares each piece set lost and gained (the moving piece, its crowning, what it
//! took). Any two positions have such a difference, so a slot re-entered by another
//! position at the same ply (law 3's claim) needs nothing special; a large difference
//! refreshes the slot from scratch instead.

use super::{Network, INPUTS};
use drafti_rules::{Color, Position};

/// The shipped network's accumulator width, compiled as a constant into the search's updates.
pub(super) const SHIPPED_HIDDEN: usize = 64;

/// Changed inputs beyond which a slot is refreshed from scratch rather than updated.
const MAX_CHANGES: usize = 16;

/// The accumulators of the search path, allocated once per engine.
pub(crate) struct Stack {
    hidden: usize,
    positions: Vec<Position>,
    ready: Vec<bool>,
    /// Whether the CPU has AVX2 (the same code is then compiled twice as wide); only x86-64
    /// reads it.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
    /// `plies × 2 × hidden`: each slot's White perspective, then its Black one.
    values: Vec<i16>,
}

impl Stack {
    /// Slots for `plies` plies of a network with accumulators of `hidden` values.
    pub(crate) fn new(hidden: usize, plies: usize) -> Stack {
        Stack {
            hidden,
            positions: vec![Position::start(Color::White); plies],
            ready: vec![false; plies],
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
            values: vec![0; plies * 2 * hidden],
        }
    }

    /// The node at `ply` is `pos`.
    #[inline]
    pub(crate) fn enter(&mut self, ply: usize, pos: &Position) {
        if !(self.ready[ply] && self.positions[ply] == *pos) {
            self.positions[ply] = *pos;
            self.ready[ply] = false;
        }
    }

    /// The evaluation of the position at `ply` (entered last there) from its side to move,
    /// centi-men, without endgame knowledge.
    #[inline]
    pub(crate) fn evaluate(&mut self, net: &Network, ply: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (detected in `Stack::new`).
            return unsafe { self.evaluate_avx2(net, ply) };
        }
        self.evaluate_here(net, ply)
    }

    /// [`Stack::evaluate`] compiled for AVX2: the same code, twice as wide.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&mut self, net: &Network, ply: usize) -> i32 {
        self.evaluate_here(net, ply)
    }

    /// [`Stack::evaluate`] for the instructions of the caller (inlined into each): the shipped
    /// network's width as a constant (loops of known length, unrolled), any other at run time.
    #[inline(always)]
    fn evaluate_here(&mut self, net: &Network, ply: usize) -> i32 {
        debug_assert_eq!(net.hidden, self.hidden);
        if self.hidden == SHIPPED_HIDDEN {
            self.evaluate_of(net, ply, SHIPPED_HIDDEN)
        } else {
            self.evaluate_of(net, ply, self.hidden)
        }
    }

    /// The evaluation with `h` (= `hidden`) given.
    #[inline(always)]
    fn evaluate_of(&mut self, net: &Network, ply: usize, h: usize) -> i32 {
        self.update(net, ply, h);
        let slot = &self.values[ply * 2 * h..(ply + 1) * 2 * h];
        net.output_of(&self.positions[ply], &slot[..h], &slot[h..], h)
    }

    /// Makes the slot at `ply` ready.
    #[inline(always)]
    fn update(&mut self, net: &Network, ply: usize, h: usize) {
        let mut from = ply;
        while from > 0 && !self.ready[from] {
            from -= 1;
        }
        if !self.ready[from] {
            self.refresh(net, from);
        }
        for p in from + 1..=ply {
            self.step(net, p, h);
        }
    }

    /// The slot at `ply` from scratch.
    fn refresh(&mut self, net: &Network, ply: usize) {
        let h = self.hidden;
        let pos = self.positions[ply];
        let slot = &mut self.values[ply * 2 * h..(ply + 1) * 2 * h];
        let (white, black) = slot.split_at_mut(h);
        net.refresh(&pos, Color::White, white);
        net.refresh(&pos, Color::Black, black);
        self.ready[ply] = true;
    }

    /// The slot at `ply` from the ready slot below it.
    #[inline(always)]
    fn step(&mut self, net: &Network, ply: usize, h: usize) {
        let (before, after) = (self.positions[ply - 1], self.positions[ply]);
        let mut removed = [0u8; MAX_CHANGES];
        let mut added = [0u8; MAX_CHANGES];
        let (mut n_removed, mut n_added) = (0, 0);
        // White's perspective's inputs of the changes; Black's follow from them.
        for color in [Color::White, Color::Black] {
            for (king, old, new) in [
                (false, before.men(color).0, after.men(color).0),
                (true, before.kings(color).0, after.kings(color).0),
            ] {
                for (set, list, n) in [
                    (old & !new, &mut removed, &mut n_removed),
                    (new & !old, &mut added, &mut n_added),
                ] {
                    let mut rest = set;
                    while rest != 0 {
                        let sq = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if *n == MAX_CHANGES {
                            self.refresh(net, ply);
                            return;
                        }
                        list[*n] = super::input(Color::White, color, king, sq) as u8;
                        *n += 1;
                    }
                }
            }
        }
        let (below, above) = self.values.split_at_mut(ply * 2 * h);
        let parent = &below[(ply - 1) * 2 * h..];
        let slot = &mut above[..2 * h];
        for (perspective, range) in [(Color::White, 0..h), (Color::Black, h..2 * h)] {
            let acc = &mut slot[range.clone()];
            let parent = &parent[range];
            // The usual move (a piece lifted and put down, maybe crowned, maybe taking one)
            // in one pass over the accumulator; the rest one row at a time.
            let (mut r, mut a) = (0, 0);
            if n_removed >= 1 && n_added >= 1 {
                let (lift, put) = (
                    net.row_of(flip(perspective, removed[0]), h),
                    net.row_of(flip(perspective, added[0]), h),
                );
                if n_removed >= 2 {
                    let take = net.row_of(flip(perspective, removed[1]), h);
                    let rows = lift.iter().zip(put).zip(take);
                    for ((out, &p), ((&l, &u), &t)) in acc.iter_mut().zip(parent).zip(rows) {
                        *out = p.wrapping_sub(l).wrapping_add(u).wrapping_sub(t);
                    }
                    r = 2;
                } else {
                    let rows = lift.iter().zip(put);
                    for ((out, &p), (&l, &u)) in acc.iter_mut().zip(parent).zip(rows) {
                        *out = p.wrapping_sub(l).wrapping_add(u);
                    }
                    r = 1;
                }
                a = 1;
            } else {
                acc.copy_from_slice(parent);
            }
            for &i in &removed[r..n_removed] {
                sub_row(acc, net.row_of(flip(perspective, i), h));
            }
            for &i in &added[a..n_added] {
                super::add_row(acc, net.row_of(flip(perspective, i), h));
            }
        }
        self.ready[ply] = true;
    }
}

/// White's perspective's input `i` as `perspective` sees it: the same piece is the other
/// side's for Black, on the square turned 180°.
#[inline(always)]
fn flip(perspective: Color, i: u8) -> usize {
    let i = usize::from(i);
    match perspective {
        Color::White => i,
        Color::Black => (i & 64) | ((i & 32) ^ 32) | (31 - (i & 31)),
    }
}

/// `acc -= row`, auto-vectorised.
#[inline(always)]
fn sub_row(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

const _: () = assert!(INPUTS <= u8::MAX as usize + 1);

#[cfg(test)]
impl Stack {
    /// The accumulators of the slot at `ply`, brought up to date (White's, then Black's).
    pub(crate) fn values_at(&mut self, net: &Network, ply: usize) -> &[i16] {
        self.update(net, ply, self.hidden);
        &self.values[ply * 2 * self.hidden..(ply + 1) * 2 * self.hidden]
    }
}
